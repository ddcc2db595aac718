// Health of the gateway (no credential): /health, /health/detailed (breakers, memory,
// uptime, version), /health-check/startup (identity store), /health-check/readiness
// (platform REST reachable), /health-check/liveness. These routes forward nothing, so their
// X-Target-URL is "none", except readiness, which names the address it probed.
#include <algorithm>

#include "cadastre/json.hpp"
#include "gateway/app.hpp"
#include "gateway/process_stats.hpp"

namespace cadastre::gateway {
namespace {

const char* kTag = "Saúde";

http::Response with_target(http::Response r, const std::string& target = kNoTarget) {
  r.headers.set("X-Target-URL", target);
  return r;
}

// The state shown for a breaker name: the worst of its destinations (OPEN > HALF_OPEN > CLOSED).
BreakerState worst(BreakerState a, BreakerState b) {
  auto rank = [](BreakerState s) {
    return s == BreakerState::open ? 2 : s == BreakerState::half_open ? 1 : 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

std::string detailed(App& app) {
  auto entries = app.breakers().snapshot();
  bool degraded = std::any_of(entries.begin(), entries.end(), [](const Breakers::Entry& e) {
    return e.snapshot.state != BreakerState::closed;
  });
  JsonWriter w;
  w.begin_object().key("status").value(degraded ? "degradado" : "ok");
  w.key("servico").value("cadastre-gateway").key("versao").value(kVersion);
  w.key("uptime_s")
      .value(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - app.started()).count());
  w.key("memoria").begin_object();
  if (auto rss = resident_bytes())
    w.key("rss_bytes").value(static_cast<std::int64_t>(*rss));
  else
    w.key("rss_bytes").null();
  w.end_object();
  w.key("circuit_breakers").begin_object();
  for (const std::string& name : app.breakers().names()) {
    BreakerState state = BreakerState::closed;
    for (const auto& e : entries)
      if (e.name == name) state = worst(state, e.snapshot.state);
    w.key(name).begin_object().key("estado").value(state_name(state)).key("destinos").begin_array();
    for (const auto& e : entries) {
      if (e.name != name) continue;
      const BreakerSnapshot& s = e.snapshot;
      w.begin_object().key("destino").value(e.host).key("estado").value(state_name(s.state));
      w.key("chamadas_na_janela").value(static_cast<std::int64_t>(s.window_calls));
      w.key("falhas_na_janela").value(static_cast<std::int64_t>(s.window_failures));
      w.key("taxa_de_falha").value(s.failure_rate);
      w.key("sucessos").value(static_cast<std::int64_t>(s.successes));
      w.key("falhas").value(static_cast<std::int64_t>(s.failures));
      w.key("rejeitadas").value(static_cast<std::int64_t>(s.rejected));
      w.key("aberturas").value(static_cast<std::int64_t>(s.opened));
      w.key("retry_after_ms").value(static_cast<std::int64_t>(s.retry_after.count()));
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_object().end_object();
  return std::move(w).str();
}

}  // namespace

void add_health_routes(App& app) {
  auto& srv = app.server();
  srv.add({.method = "GET",
           .pattern = "/health",
           .auth = "none",
           .tag = kTag,
           .summary = "Estado simples do gateway",
           .handler = [](http::Request&) {
             JsonWriter w;
             w.begin_object().key("status").value("ok").key("servico").value("cadastre-gateway");
             w.key("versao").value(kVersion).end_object();
             return with_target(http::Response::json(std::move(w).str()));
           }});
  srv.add({.method = "GET",
           .pattern = "/health/detailed",
           .auth = "none",
           .tag = kTag,
           .summary = "Disjuntores rest, tiles e auth (estado e contagens por destino), memória "
                      "(RSS), tempo no ar e versão",
           .handler = [&app](http::Request&) {
             return with_target(http::Response::json(detailed(app)));
           }});
  srv.add({.method = "GET",
           .pattern = "/health-check/startup",
           .auth = "none",
           .tag = kTag,
           .summary = "Verifica a conexão com a base de identidade",
           .handler = [&app](http::Request&) {
             if (!app.identity().ping()) {
               auto r = http::Response::error(errc::unavailable, "base de identidade inacessível");
               r.headers.set("Retry-After", "5");
               return with_target(std::move(r));
             }
             return with_target(http::Response::json(R"({"status":"ok","identidade":"ok"})"));
           }});
  srv.add(
      {.method = "GET",
       .pattern = "/health-check/readiness",
       .auth = "none",
       .tag = kTag,
       .summary =
           "Pronto para atender: verifica que o REST da plataforma responde (503 se não responde)",
       .handler = [&app](http::Request&) {
         const std::string& url = app.config().readiness_url;
         if (app.server().draining()) {  // a graceful stop under way: the balancer sends nothing new
           auto r = http::Response::error(errc::unavailable, "o gateway está encerrando; use outra instância");
           r.headers.set("Retry-After", "1");
           return with_target(std::move(r));
         }
         auto timeout = std::min(app.config().timeouts.connect + app.config().timeouts.read,
                                 std::chrono::milliseconds(2000));
         UpstreamResult probe = app.upstream().probe(url, timeout);
         if (probe.outcome != UpstreamResult::Outcome::ok || probe.status >= 500) {
           auto r = http::Response::error(errc::unavailable, "o REST da plataforma não responde");
           r.headers.set("Retry-After", "5");
           return with_target(std::move(r), url);
         }
         JsonWriter w;
         w.begin_object().key("status").value("ok").key("plataforma").value(url);
         w.key("status_plataforma").value(probe.status).end_object();
         return with_target(http::Response::json(std::move(w).str()), url);
       }});
  srv.add({.method = "GET",
           .pattern = "/health-check/liveness",
           .auth = "none",
           .tag = kTag,
           .summary = "O processo está vivo",
           .handler = [](http::Request&) {
             return with_target(http::Response::json(R"({"status":"ok"})"));
           }});
}

}  // namespace cadastre::gateway
