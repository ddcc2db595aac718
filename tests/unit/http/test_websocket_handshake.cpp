// Response::websocket (src/http/websocket.cpp): which requests may become a WebSocket, and
// the answer to those that may not; a WebSocket handle without its connection.
#include <doctest/doctest.h>

#include <stdexcept>

#include "http/http.hpp"
#include "http/websocket.hpp"

using namespace cadastre::http;

namespace {

// An upgrade request as a browser sends it (the key is RFC 6455's example).
Request upgrade_request() {
  Request req;
  req.method = "GET";
  req.path = "/socket";
  req.headers.add("Host", "a");
  req.headers.add("Connection", "keep-alive, Upgrade");
  req.headers.add("Upgrade", "websocket");
  req.headers.add("Sec-WebSocket-Version", "13");
  req.headers.add("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==");
  return req;
}

bool opens(const Request& req) {
  return Response::websocket(req, [](std::shared_ptr<WebSocket>) {}).status == 101;
}

}  // namespace

TEST_CASE("a valid upgrade request gets the handshake, with on_open as the upgrade") {
  bool called = false;
  Response res = Response::websocket(upgrade_request(),
                                     [&called](std::shared_ptr<WebSocket>) { called = true; });
  CHECK(res.status == 101);
  CHECK(res.body.empty());
  CHECK(res.content_type.empty());
  REQUIRE(res.upgrade);
  res.upgrade(nullptr);
  CHECK(called);

  Request req = upgrade_request();  // tokens are case-insensitive and may carry spaces
  req.headers.set("Connection", "UPGRADE");
  req.headers.set("Upgrade", " WebSocket ");
  CHECK(opens(req));
}

TEST_CASE("a request that does not ask for a WebSocket gets 426 with Upgrade: websocket") {
  Request plain;
  plain.method = "GET";
  plain.path = "/socket";
  for (Request req : {plain, [] {
                        Request r = upgrade_request();
                        r.headers.set("Upgrade", "h2c");
                        return r;
                      }()}) {
    Response res = Response::websocket(req, [](std::shared_ptr<WebSocket>) {});
    CHECK(res.status == 426);
    CHECK_FALSE(res.upgrade);
    REQUIRE(res.headers.find("Upgrade"));
    CHECK(*res.headers.find("Upgrade") == "websocket");
    CHECK(res.body.find("\"tipo\":\"erro\"") != std::string::npos);
    CHECK(res.body.find("\"codigo\":\"parametro_invalido\"") != std::string::npos);
  }
}

TEST_CASE("another WebSocket version gets 426 naming version 13") {
  Request req = upgrade_request();
  req.headers.set("Sec-WebSocket-Version", "8");
  Response res = Response::websocket(req, [](std::shared_ptr<WebSocket>) {});
  CHECK(res.status == 426);
  REQUIRE(res.headers.find("Sec-WebSocket-Version"));
  CHECK(*res.headers.find("Sec-WebSocket-Version") == "13");
}

TEST_CASE("a malformed upgrade request gets 400") {
  auto with = [](const char* name, const char* value) {
    Request req = upgrade_request();
    req.headers.set(name, value);
    return req;
  };
  CHECK(Response::websocket(with("Connection", "keep-alive"), {}).status == 400);
  CHECK(Response::websocket(with("Sec-WebSocket-Key", ""), {}).status == 400);
  CHECK(Response::websocket(with("Sec-WebSocket-Key", "curta=="), {}).status == 400);
  CHECK(Response::websocket(with("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=!"), {}).status ==
        400);
  CHECK(Response::websocket(with("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), {}).status ==
        101);
  Request head = upgrade_request();
  head.method = "HEAD";  // GET routes also serve HEAD: no handshake answers it
  CHECK(Response::websocket(head, {}).status == 400);
  Request no_key = upgrade_request();
  no_key.headers.items.pop_back();
  CHECK(Response::websocket(no_key, {}).status == 400);
}

TEST_CASE("a handle whose connection has ended does nothing; close codes are checked first") {
  WebSocket ws({}, "10.0.0.1");
  CHECK_FALSE(ws.open());
  CHECK(ws.remote_addr() == "10.0.0.1");
  ws.send("ninguém ouve");
  ws.on_message([](std::string_view) {});
  ws.on_close([](std::uint16_t) {});
  ws.close(close_code::normal);
  ws.close(4000, "da aplicação");
  for (std::uint16_t reserved : {999, 1004, 1005, 1006, 1014, 1015, 2999, 5000})
    CHECK_THROWS_AS(ws.close(reserved), std::invalid_argument);
}
