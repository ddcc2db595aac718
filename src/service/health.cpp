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

http::Response readiness_probe(const http::Server& server, store::Identity& identity, const std::string& down_message) {
  if (server.draining()) {
    auto r = http::Response::error(errc::unavailable, "o serviço está encerrando; use outra instância");
    r.headers.set("Retry-After", "1");
    return r;
  }
  if (!identity.ping()) {
    auto r = http::Response::error(errc::unavailable, down_message);
    r.headers.set("Retry-After", "5");
    return r;
  }
  return http::Response::json(R"({"status":"ok"})");
}

void add_pool_metrics(http::Server& server, store::Pool& platform, store::TenantPools& tenants) {
  server.metrics().add_provider([&platform, &tenants](std::string& out) {
    auto line = [&](const std::string& name, const std::string& pool, double v) {
      out += "cadastre_db_pool_" + name + "{pool=\"" + http::prom_label(pool) + "\"} " + std::to_string(v) + "\n";
    };
    auto emit = [&](const std::string& pool, const store::PoolStats& s) {
      line("size", pool, static_cast<double>(s.size));
      line("open", pool, static_cast<double>(s.open));
      line("in_use", pool, static_cast<double>(s.in_use));
      line("waiting", pool, static_cast<double>(s.waiting));
      line("timeouts_total", pool, static_cast<double>(s.timeouts));
      line("reconnects_total", pool, static_cast<double>(s.reconnects));
    };
    out += "# TYPE cadastre_db_pool_in_use gauge\n";
    emit("plataforma", platform.stats());
    for (const auto& [slug, s] : tenants.stats()) emit(slug, s);
    // The tenant connections on each PostgreSQL server, against --connections-per-server.
    out += "# TYPE cadastre_db_server_connections gauge\n";
    for (const auto& [host, n] : tenants.connections_per_server())
      out += "cadastre_db_server_connections{server=\"" + http::prom_label(host) + "\"} " + std::to_string(n) + "\n";
  });
}

}  // namespace cadastre::service
