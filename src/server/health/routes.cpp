// Health probes (no credential): API status, startup (identity store and every tenant
// database), liveness, readiness (503 while the identity store is unreachable).
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "server/app.hpp"

namespace cadastre::server {
namespace {

std::string ping(store::Pool& pool) {
  try {
    pool.run([](soci::session& s) {
      int one = 0;
      s << "select 1", soci::into(one);
    });
    return "ok";
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception&) {  // a database failure Pool::run passes on: its text is for the
                                     // log only
    return "falha";
  }
}

}  // namespace

void add_health_routes(App& app) {
  auto& srv = app.server();
  srv.add({.method = "GET",
           .pattern = "/health-check/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "Estado da API",
           .handler = [](http::Request&) {
             JsonWriter w;
             w.begin_object().key("status").value("ok").key("servico").value("cadastre-server");
             w.key("versao").value("0.1.0").end_object();
             return http::Response::json(std::move(w).str());
           }});
  srv.add(
      {.method = "GET",
       .pattern = "/health-check/startup/",
       .auth = "none",
       .tag = "Saúde",
       .summary = "Verifica as conexões com a base de identidade e com o banco de cada município",
       .handler = [&app](http::Request&) {
         bool ok = app.identity().ping();
         JsonWriter w;
         w.begin_object().key("identidade").value(ok ? "ok" : "indisponível");
         w.key("municipios").begin_object();
         if (ok) {
           for (const auto& t : app.identity().tenants()) {
             if (!t.ativo) continue;
             std::string st = ping(app.tenants().pool(t));
             ok = ok && st == "ok";
             w.key(t.slug).value(st);
           }
         }
         w.end_object().key("status").value(ok ? "ok" : "falha").end_object();
         return http::Response::json(std::move(w).str(), ok ? 200 : 503);
       }});
  srv.add({.method = "GET",
           .pattern = "/health-check/liveness/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "O processo está vivo",
           .handler = [](http::Request&) { return http::Response::json(R"({"status":"ok"})"); }});
  srv.add({.method = "GET",
           .pattern = "/health-check/readiness/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "Pronto para atender: 503 enquanto a base de identidade estiver inacessível",
           .handler = [&app](http::Request&) {
             if (!app.identity().ping()) {
               auto r = http::Response::error(errc::unavailable, "base de identidade inacessível");
               r.headers.set("Retry-After", "5");
               return r;
             }
             return http::Response::json(R"({"status":"ok"})");
           }});
}

}  // namespace cadastre::server
