// GET /socket: the live WebSocket of a session (Beast's client here): authenticated by the
// session before the handshake, answers ping with pong, carries the tenant's events, and
// is closed with 1008 the moment its session is revoked.

#include "fixture.hpp"
#include "socket_client.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::Session;

namespace {

using Client = test::SocketClient;

// An upgrade request's headers (a refused one is answered as plain HTTP).
const httplib::Headers kUpgrade = {{"Connection", "Upgrade"},
                                   {"Upgrade", "websocket"},
                                   {"Sec-WebSocket-Version", "13"},
                                   {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "the socket of a session answers ping and closes with 1008 when the session ends") {
  Session s = user("alfa");
  Client ws(app->server().port(), "/socket", &s);
  CHECK(ws.read() == R"({"tipo":"conectado"})");
  ws.write("ping");
  CHECK(ws.read() == R"({"tipo":"pong"})");
  ws.write(R"({"tipo":"ping"})");
  CHECK(ws.read() == R"({"tipo":"pong"})");

  // The tenant's events reach it; another tenant's do not.
  store::publish_event(app->platform(), tenant_id("beta"), "teste", R"({"tipo":"de_beta"})", std::nullopt);
  store::publish_event(app->platform(), tenant_id("alfa"), "teste", R"({"tipo":"de_alfa"})", std::nullopt);
  CHECK(ws.read() == R"({"tipo":"de_alfa"})");

  REQUIRE(post("/logout", "", s)->status == 204);
  CHECK(ws.read().find("sessao_revogada") != std::string::npos);
  CHECK(ws.closed_with() == 1008);
}

TEST_CASE_FIXTURE(PlatformFixture, "inactivating a user closes their sockets; others stay open") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  Session s = user("alfa");
  Client mine(app->server().port(), "/socket", &s);
  Client theirs(app->server().port(), "/socket", &adm);
  CHECK(mine.read() == R"({"tipo":"conectado"})");
  CHECK(theirs.read() == R"({"tipo":"conectado"})");
  REQUIRE(put("/usuarios/" + std::to_string(s.user_id) + "/inativar", "", adm)->status == 200);
  CHECK(mine.closed_with() == 1008);
  theirs.write("ping");
  CHECK(theirs.read() == R"({"tipo":"pong"})");
}

TEST_CASE_FIXTURE(PlatformFixture, "a browser's socket authenticates by the query, and a bad session gets 401 before any handshake") {
  Session s = user("beta");
  Client ws(app->server().port(), "/socket?x_auth_token=" + s.token + "&x_tn_token=" + s.tn, nullptr);
  CHECK(ws.read() == R"({"tipo":"conectado"})");
  CHECK(request("GET", "/socket", kUpgrade)->status == 401);
  CHECK(request("GET", "/socket?x_auth_token=" + std::string(64, 'a') + "&x_tn_token=" + s.tn, kUpgrade)->status == 401);
  CHECK(request("GET", "/socket?x_auth_token=" + s.token, kUpgrade)->codigo() == "nao_autenticado");
  // A plain GET with a valid session is told to upgrade.
  CHECK(get("/socket", s)->status == 426);
}
