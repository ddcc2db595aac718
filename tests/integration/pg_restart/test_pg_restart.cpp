// PostgreSQL stopped and restarted under a running server: 503 during the outage (fast,
// no crash), normal answers afterwards without restarting the server.
#include <doctest/doctest.h>

#include <cstdlib>

#include "integration/platform/fixture.hpp"
#include "integration/platform/socket_client.hpp"
#include "store/events.hpp"
#include "support/harness.hpp"

using namespace cadastre;
using test::Stack;

namespace {
void pg(const char* action) {
  const char* ctl = std::getenv("CADASTRE_TEST_PG_CTL");
  REQUIRE_MESSAGE(ctl != nullptr, "CADASTRE_TEST_PG_CTL is not set: run through ./scripts/test");
  std::string cmd = std::string(ctl) + " " + action + " >/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
}
}  // namespace

TEST_CASE("requests during a PostgreSQL outage get 503 and later requests succeed without a restart") {
  server::AppOptions o;
  o.token_ttl = std::chrono::milliseconds(0);  // every request consults the identity store
  o.pool.connect_timeout = std::chrono::seconds(2);
  Stack stack({"alfa"}, o);
  auto cli = stack.client();
  auto auth = Stack::bearer(stack.user("alfa").token);
  const char* path = "/geo/alfa/usuarios/permissoes/";
  REQUIRE(cli.Get(path, auth)->status == 200);

  pg("stop");
  for (int i = 0; i < 3; ++i) {
    auto started = std::chrono::steady_clock::now();
    auto r = cli.Get(path, auth);
    REQUIRE(r);  // the server answered: no crash, no dropped connection
    CHECK(r->status == 503);
    CHECK(r->get_header_value("Retry-After") == "5");
    CHECK(r->body.find("\"codigo\":\"servico_indisponivel\"") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  }
  CHECK(cli.Get("/health-check/readiness/")->status == 503);
  CHECK(cli.Get("/health-check/liveness/")->status == 200);

  pg("start");
  int status = 0;
  for (int i = 0; i < 50 && status != 200; ++i) {
    status = cli.Get(path, auth)->status;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(status == 200);
  CHECK(cli.Get("/health-check/readiness/")->status == 200);
  CHECK(cli.Get("/health-check/startup/")->status == 200);
}

TEST_CASE("after a PostgreSQL restart the platform's sockets are told to resynchronise, and no later event is lost") {
  test::PlatformFixture f;
  test::Session s = f.user("alfa");
  test::Socket ws(f.app->server().port(), s, std::chrono::seconds(20));

  pg("stop");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  pg("start");
  // The follower reconnects (every second) and tells the sockets what it may have missed.
  CHECK(ws.read() == R"({"tipo":"ressincronizar"})");
  for (int i = 0; i < 500 && !f.app->events_listening(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(f.app->events_listening());

  // The first event after the restart arrives (the pool's connections died with the
  // server: publishing retries until one is new).
  bool published = false;
  for (int i = 0; i < 50 && !published; ++i) {
    try {
      store::publish_event(f.app->platform(), f.tenant_id("alfa"), "teste", R"({"tipo":"depois"})", std::nullopt);
      published = true;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  REQUIRE(published);
  CHECK(ws.read() == R"({"tipo":"depois"})");
}
