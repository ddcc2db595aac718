// Health probes (no credential): API status, startup (identity store and every tenant
// database), liveness, readiness (503 while the identity store is unreachable). The probes
// are not tenant-scoped: they see the identity store and the tenants' pools, nothing else.
#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "service/health.hpp"

namespace cadastre::server::health {
namespace {

using http::Request;
using http::Response;

Response status(Request&) {
  JsonWriter w;
  w.begin_object().key("status").value("ok").key("servico").value("cadastre-server");
  w.key("versao").value("0.1.0").end_object();
  return Response::json(std::move(w).str());
}

Response alive(Request&) { return Response::json(R"({"status":"ok"})"); }

struct Probes {
  store::Identity* identity;
  store::TenantPools* tenants;
  const http::Server* server;  // draining: readiness 503

  Response startup(Request&) const { return service::startup_probe(*identity, *tenants, "identidade"); }
  Response ready(Request&) const {
    return service::readiness_probe(*server, *identity, "base de identidade inacessível");
  }
};

}  // namespace
}  // namespace cadastre::server::health

namespace cadastre::server {

void add_health_routes(App& app) {
  using health::Probes;
  auto& srv = app.server();
  const Probes probes{&app.identity(), &app.tenants(), &app.server()};
  srv.add({.method = "GET",
           .pattern = "/health-check/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "Estado da API",
           .handler = &health::status});
  srv.add({.method = "GET",
           .pattern = "/health-check/startup/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "Verifica as conexões com a base de identidade e com o banco de cada município",
           .handler = [probes](http::Request& r) { return probes.startup(r); }});
  srv.add({.method = "GET",
           .pattern = "/health-check/liveness/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "O processo está vivo",
           .handler = &health::alive});
  srv.add({.method = "GET",
           .pattern = "/health-check/readiness/",
           .auth = "none",
           .tag = "Saúde",
           .summary = "Pronto para atender: 503 enquanto a base de identidade estiver inacessível",
           .handler = [probes](http::Request& r) { return probes.ready(r); }});
}

}  // namespace cadastre::server
