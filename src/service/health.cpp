#include "service/health.hpp"

#include "cadastre/json.hpp"

namespace cadastre::service {

http::Response startup_probe(store::Identity& identity, store::TenantPools& tenants, const std::string& store_key) {
  bool ok = identity.ping();
  JsonWriter w;
  w.begin_object().key(store_key).value(ok ? "ok" : "indisponível");
  w.key("municipios").begin_object();
  if (ok) {
    for (const auto& t : identity.tenants()) {
      if (!t.ativo) continue;
      std::string st = store::ping(tenants.pool(t));
      ok = ok && st == "ok";
      w.key(t.slug).value(st);
    }
  }
  w.end_object().key("status").value(ok ? "ok" : "falha").end_object();
  return http::Response::json(std::move(w).str(), ok ? 200 : 503);
}

http::Response readiness_probe(store::Identity& identity, const std::string& down_message) {
  if (!identity.ping()) {
    auto r = http::Response::error(errc::unavailable, down_message);
    r.headers.set("Retry-After", "5");
    return r;
  }
  return http::Response::json(R"({"status":"ok"})");
}

}  // namespace cadastre::service
