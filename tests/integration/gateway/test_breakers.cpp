// Circuit breakers through real HTTP: open after failures, short-circuit without calling
// the destination, half-open after the wait, close after successful trials; one
// municipality's outage leaves the others working.
#include <doctest/doctest.h>

#include <atomic>

#include "fixture.hpp"

using namespace cadastre;
using test::Gateway;

namespace {
httplib::Headers auth_of(const std::string& slug) { return test::Stack::bearer(test::shared_stack().user(slug).token); }
}  // namespace

TEST_CASE("the rest breaker opens after failures, short-circuits, half-opens after the wait and closes after trials") {
  test::Destinations d;
  std::atomic<bool> failing{true};
  d.rest.on([&failing](const httplib::Request&, httplib::Response& res) {
    res.status = failing ? 503 : 200;
    res.set_content(failing ? R"({"erro":"fora do ar"})" : R"({"ok":true})", "application/json");
  });
  auto cfg = test::config_for(d);
  cfg.breakers["rest"] = test::quick_breaker(500);
  Gateway gw(cfg);
  auto cli = gw.client();
  const std::string host = d.rest.url();

  for (int i = 0; i < 4; ++i) {
    auto r = cli.Get("/rest/lote/", auth_of("alfa"));
    REQUIRE(r);
    CHECK(r->status == 503);                        // the destination's own 503, passed through
    CHECK(r->body == R"({"erro":"fora do ar"})");
  }
  CHECK(d.rest.count() == 4);
  CHECK(test::breaker_state(cli, "rest", host) == "OPEN");

  // While OPEN: the gateway's own 503, at once, without calling the destination.
  auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) {
    auto r = cli.Get("/rest/lote/", auth_of("alfa"));
    REQUIRE(r);
    CHECK(r->status == 503);
    CHECK(test::codigo(r->body) == "servico_indisponivel");
    CHECK(r->get_header_value("Retry-After") == "1");
    CHECK(r->get_header_value("X-Target-URL") == host + "/alfa/lote/");
  }
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(400));
  CHECK(d.rest.count() == 4);

  std::this_thread::sleep_for(std::chrono::milliseconds(520));
  CHECK(test::breaker_state(cli, "rest", host) == "HALF_OPEN");
  failing = false;
  CHECK(cli.Get("/rest/lote/", auth_of("alfa"))->status == 200);  // trial 1
  CHECK(test::breaker_state(cli, "rest", host) == "HALF_OPEN");
  CHECK(cli.Get("/rest/lote/", auth_of("alfa"))->status == 200);  // trial 2
  CHECK(test::breaker_state(cli, "rest", host) == "CLOSED");
  CHECK(d.rest.count() == 6);
}

TEST_CASE("a failed trial in HALF_OPEN opens the breaker again") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.tenant_default.rest = "http://127.0.0.1:" + std::to_string(test::dead_port()) + "/{municipio}";
  cfg.breakers["rest"] = test::quick_breaker(100);
  Gateway gw(cfg);
  auto cli = gw.client();
  std::string host = cfg.tenant_default.rest.substr(0, cfg.tenant_default.rest.find("/{"));
  for (int i = 0; i < 4; ++i) CHECK(cli.Get("/rest/lote/", auth_of("alfa"))->status == 502);
  CHECK(cli.Get("/rest/lote/", auth_of("alfa"))->status == 503);
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  CHECK(cli.Get("/rest/lote/", auth_of("alfa"))->status == 502);  // the trial fails
  CHECK(test::breaker_state(cli, "rest", host) == "OPEN");
  CHECK(cli.Get("/rest/lote/", auth_of("alfa"))->status == 503);
}

TEST_CASE("one municipality's dead destination leaves another municipality's calls working") {
  test::Destinations d;
  test::Upstream beta_rest;
  auto cfg = test::config_for(d);
  cfg.tenant_overrides["alfa"] = {"http://127.0.0.1:" + std::to_string(test::dead_port()) + "/{municipio}",
                                  cfg.tenant_default.tiles};
  cfg.tenant_overrides["beta"] = {beta_rest.url() + "/{municipio}", cfg.tenant_default.tiles};
  cfg.breakers["rest"] = test::quick_breaker(60000);
  Gateway gw(cfg);
  auto cli = gw.client();
  for (int i = 0; i < 6; ++i) cli.Get("/rest/lote/", auth_of("alfa"));
  auto alfa = cli.Get("/rest/lote/", auth_of("alfa"));
  CHECK(alfa->status == 503);
  CHECK(test::codigo(alfa->body) == "servico_indisponivel");
  for (int i = 0; i < 5; ++i) {
    auto beta = cli.Get("/rest/lote/", auth_of("beta"));
    REQUIRE(beta);
    CHECK(beta->status == 200);
  }
  CHECK(beta_rest.count() == 5);
  CHECK(beta_rest.last().path == "/beta/lote/");
  CHECK(test::breaker_state(cli, "rest", beta_rest.url()) == "CLOSED");
  // The tiles breaker of alfa's tile server is a different breaker: still closed.
  CHECK(cli.Get("/tiles/lote/1/0/0.pbf", auth_of("alfa"))->status == 200);
}

TEST_CASE("statuses that are not failures, like 404, never open the breaker") {
  test::Destinations d;
  d.rest.on([](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content("{}", "application/json");
  });
  auto cfg = test::config_for(d);
  cfg.breakers["rest"] = test::quick_breaker(60000);
  Gateway gw(cfg);
  auto cli = gw.client();
  for (int i = 0; i < 8; ++i) CHECK(cli.Get("/rest/nada/", auth_of("alfa"))->status == 404);
  CHECK(test::breaker_state(cli, "rest", d.rest.url()) == "CLOSED");
  CHECK(d.rest.count() == 8);
}
