// Gateway figures on /metrics, besides the request counts and latencies by route that
// cadastre::http::Server records: breaker state and outcomes per (breaker, destination),
// kept-alive connections per destination, provider token fetches.
#include "gateway/app.hpp"

namespace cadastre::gateway {
namespace {

std::string labels(const std::string& breaker, const std::string& host) {
  return "breaker=\"" + http::prom_label(breaker) + "\",destino=\"" + http::prom_label(host) + "\"";
}

int state_value(BreakerState s) {
  switch (s) {
    case BreakerState::closed: return 0;
    case BreakerState::half_open: return 1;
    case BreakerState::open: return 2;
  }
  return 0;
}

}  // namespace

void add_gateway_metrics(App& app) {
  app.server().metrics().add_provider([&app](std::string& out) {
    auto entries = app.breakers().snapshot();
    out += "# HELP cadastre_gateway_breaker_state Estado do disjuntor: 0 CLOSED, 1 HALF_OPEN, 2 OPEN\n";
    out += "# TYPE cadastre_gateway_breaker_state gauge\n";
    for (const auto& e : entries)
      out += "cadastre_gateway_breaker_state{" + labels(e.name, e.host) + "} " + std::to_string(state_value(e.snapshot.state)) + "\n";
    out += "# TYPE cadastre_gateway_breaker_failure_rate gauge\n";
    for (const auto& e : entries)
      out += "cadastre_gateway_breaker_failure_rate{" + labels(e.name, e.host) + "} " + std::to_string(e.snapshot.failure_rate) + "\n";
    out += "# TYPE cadastre_gateway_breaker_calls_total counter\n";
    for (const auto& e : entries) {
      const auto& s = e.snapshot;
      auto line = [&](const char* result, std::uint64_t v) {
        out += "cadastre_gateway_breaker_calls_total{" + labels(e.name, e.host) + ",resultado=\"" + result + "\"} " +
               std::to_string(v) + "\n";
      };
      line("sucesso", s.successes);
      line("falha", s.failures);
      line("rejeitada", s.rejected);
    }
    out += "# TYPE cadastre_gateway_breaker_opened_total counter\n";
    for (const auto& e : entries)
      out += "cadastre_gateway_breaker_opened_total{" + labels(e.name, e.host) + "} " + std::to_string(e.snapshot.opened) + "\n";

    out += "# TYPE cadastre_gateway_upstream_idle_connections gauge\n";
    auto hosts = app.upstream().stats();
    for (const auto& [origin, h] : hosts)
      out += "cadastre_gateway_upstream_idle_connections{destino=\"" + http::prom_label(origin) + "\"} " +
             std::to_string(h.idle) + "\n";
    out += "# TYPE cadastre_gateway_upstream_connections_opened_total counter\n";
    for (const auto& [origin, h] : hosts)
      out += "cadastre_gateway_upstream_connections_opened_total{destino=\"" + http::prom_label(origin) + "\"} " +
             std::to_string(h.opened) + "\n";

    out += "# TYPE cadastre_gateway_provider_token_fetches_total counter\n";
    for (const auto& [label, p] : app.config().providers)
      if (ProviderToken* t = app.provider_token(label))
        out += "cadastre_gateway_provider_token_fetches_total{provedor=\"" + http::prom_label(label) + "\"} " +
               std::to_string(t->fetches()) + "\n";
  });
}

}  // namespace cadastre::gateway
