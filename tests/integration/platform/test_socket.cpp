// GET /socket: the live WebSocket of a session (Beast's client here): authenticated by the
// session before the handshake, answers ping with pong, carries the tenant's events, and
// is closed with 1008 the moment its session is revoked.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::Session;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;

namespace {

// A client socket on the platform; `target` carries the query credentials when given.
class Client {
 public:
  Client(int port, const std::string& target, const Session* headers) : ws_(io_) {
    net::ip::tcp::resolver resolver(io_);
    ws_.next_layer().connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    ws_.next_layer().expires_after(std::chrono::seconds(5));
    if (headers)
      ws_.set_option(websocket::stream_base::decorator([h = *headers](websocket::request_type& req) {
        req.set("X-Auth-Token", h.token);
        req.set("X-Tn-Token", h.tn);
      }));
    ws_.handshake(response_, "127.0.0.1", target);
  }
  std::string read() {
    beast::flat_buffer b;
    ws_.next_layer().expires_after(std::chrono::seconds(5));
    ws_.read(b);
    return beast::buffers_to_string(b.data());
  }
  void write(const std::string& text) { ws_.write(net::buffer(text)); }
  /// The close code once the server closed (reads until then).
  int closed_with() {
    try {
      for (int i = 0; i < 10; ++i) read();
    } catch (const beast::system_error& e) {
      if (e.code() == websocket::error::closed) return ws_.reason().code;
      return -1;
    }
    return 0;
  }
  std::string close_reason() const { return std::string(ws_.reason().reason.c_str()); }

 private:
  net::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
  websocket::response_type response_;
};

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
  app->events().publish(tenant_id("beta"), {.type = "teste", .json = R"({"tipo":"de_beta"})"});
  app->events().publish(tenant_id("alfa"), {.type = "teste", .json = R"({"tipo":"de_alfa"})"});
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
