#include "fixture.hpp"

#include <doctest/doctest.h>

namespace cadastre::test {

Stack& shared_stack() {
  static Stack stack({"alfa", "beta"});
  return stack;
}

std::int64_t tenant_id(const std::string& slug) {
  auto t = shared_stack().app().identity().tenant(slug);
  REQUIRE(t);
  return t->id;
}

gateway::BreakerPolicy quick_breaker(int wait_ms) {
  gateway::BreakerPolicy p;
  p.settings.failure_rate_threshold = 50;
  p.settings.sliding_window = std::chrono::seconds(60);  // a slow run still sees all its calls
  p.settings.minimum_calls = 4;
  p.settings.wait_in_open = std::chrono::milliseconds(wait_ms);
  p.settings.half_open_calls = 2;
  p.settings.max_wait_in_half_open = std::chrono::seconds(2);
  return p;
}

gateway::Config config_for(const Destinations& d) {
  gateway::Config c;
  c.platform_dsn = shared_stack().platform_dsn();
  c.tenant_default = {d.rest.url() + "/{municipio}", d.tiles.url() + "/tiles/{municipio}"};
  c.platform_rest = d.platform.url() + "/api";
  c.platform_tiles = d.platform.url() + "/tiles";
  c.readiness_url = d.platform.url() + "/health-check/liveness/";
  c.breakers = gateway::default_breakers();
  c.timeouts.connect = std::chrono::milliseconds(500);
  c.timeouts.read = std::chrono::milliseconds(2000);
  c.timeouts.write = std::chrono::milliseconds(2000);
  c.token_cache_ttl = std::chrono::milliseconds(5000);
  return c;
}

Gateway::Gateway(gateway::Config cfg, store::PoolOptions pool, const std::function<void(http::ServerOptions&)>& adjust) {
  gateway::AppOptions o;
  o.config = std::move(cfg);
  o.http.port = 0;
  o.http.threads = 16;
  o.http.access_log = false;
  o.http.log = &log_;
  o.pool = pool;
  o.pool.size = 2;
  if (adjust) adjust(o.http);
  app_ = std::make_unique<gateway::App>(std::move(o));
  REQUIRE(app_->start());
}

Gateway::~Gateway() { app_.reset(); }

httplib::Client Gateway::client() const {
  httplib::Client c("127.0.0.1", app_->server().port());
  c.set_read_timeout(10, 0);
  c.set_connection_timeout(5, 0);
  return c;
}

std::string codigo(const std::string& body) {
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  if (p.parse(body).get(doc)) return "(corpo não é JSON: " + body + ")";
  std::string_view c;
  if (doc["codigo"].get(c)) return "(sem codigo)";
  return std::string(c);
}

std::string breaker_state(httplib::Client& cli, const std::string& name, const std::string& host) {
  auto r = cli.Get("/health/detailed");
  REQUIRE(r);
  simdjson::dom::parser p;
  auto doc = p.parse(r->body);
  for (auto d : doc["circuit_breakers"][name]["destinos"].get_array()) {
    if (std::string_view(d["destino"]) == host) return std::string(std::string_view(d["estado"]));
  }
  return "";
}

}  // namespace cadastre::test
