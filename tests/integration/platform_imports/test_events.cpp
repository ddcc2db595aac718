// A job's progress reaches its owner's socket ({"tipo":"importacao","importacao":{...}}),
// and the routes are in the OpenAPI document with schemas that resolve.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <doctest/doctest.h>

#include "integration/platform/openapi_check.hpp"
#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;

namespace {

class Socket {
 public:
  Socket(int port, const Session& s) : ws_(io_) {
    net::ip::tcp::resolver resolver(io_);
    ws_.next_layer().connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    ws_.set_option(websocket::stream_base::decorator([h = s](websocket::request_type& req) {
      req.set("X-Auth-Token", h.token);
      req.set("X-Tn-Token", h.tn);
    }));
    ws_.handshake("127.0.0.1", "/socket");
  }
  /// The next message; empty when none comes within a minute (a bound, so a missing event
  /// fails the test instead of hanging it).
  std::string read() {
    beast::flat_buffer b;
    bool done = false;
    beast::error_code ec;
    ws_.async_read(b, [&](beast::error_code e, std::size_t) { ec = e, done = true; });
    io_.restart();
    io_.run_for(std::chrono::seconds(60));
    if (!done) {
      beast::get_lowest_layer(ws_).cancel();
      io_.restart();
      io_.run();
      return {};
    }
    return ec ? std::string() : beast::buffers_to_string(b.data());
  }

 private:
  net::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
};

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "the owner's socket hears the job start and finish") {
  auto c = cast();
  Socket ws(app->server().port(), c.owner);
  REQUIRE(ws.read() == R"({"tipo":"conectado"})");
  auto a = request("POST", route("icad/logradouros", "eventos", c.projeto, ""), headers(c.owner));
  REQUIRE_MESSAGE(a->status == 202, a->body);
  const std::int64_t id = int64_t(a->json()["idImportacao"]);
  std::vector<std::string> states;
  for (int i = 0; i < 20 && (states.empty() || (states.back() != "concluida" && states.back() != "falhou")); ++i) {
    std::string m = ws.read();
    REQUIRE_MESSAGE(!m.empty(), "nenhum evento da importação");
    simdjson::dom::parser p;
    auto e = p.parse(m);
    if (std::string_view(e["tipo"]) != "importacao" || int64_t(e["importacao"]["idImportacao"]) != id) continue;
    states.emplace_back(std::string_view(e["importacao"]["estado"]));
  }
  REQUIRE(!states.empty());
  CHECK(states.front() == "executando");
  CHECK(states.back() == "falhou");  // the tenant's cadastre is empty: nothing to bring
}

TEST_CASE_FIXTURE(ImportsFixture, "the import routes are documented with schemas that resolve") {
  check_documented(*this,
                   {{"get", "/importar/pendentes"}, {"put", "/importar/pendentes/hide"}, {"post", "/importar/dxf"},
                    {"post", "/importar/kml"}, {"post", "/importar/shp"}, {"post", "/importar/pvg"},
                    {"post", "/importar/icad/lotes-rurais"}, {"post", "/importar/icad/lotes"},
                    {"post", "/importar/icad/edificacoes"}, {"post", "/importar/icad/logradouros"},
                    {"get", "/importacoes/dxf/{id}"}, {"post", "/converter/geojson"}},
                   false);
}
