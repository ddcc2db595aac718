// A client of the platform's live WebSocket, GET /socket (Beast's client), for the tests of
// the socket and of the events it carries.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

/// A socket on `target` (/socket, perhaps with query credentials), with the session's
/// headers when given. read() throws when no message comes within `wait`, so a missing
/// event fails the test instead of hanging it.
class SocketClient {
 public:
  SocketClient(int port, const std::string& target, const Session* headers,
               std::chrono::seconds wait = std::chrono::seconds(5))
      : ws_(io_), wait_(wait) {
    namespace websocket = boost::beast::websocket;
    boost::asio::ip::tcp::resolver resolver(io_);
    ws_.next_layer().connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    ws_.next_layer().expires_after(wait_);
    if (headers)
      ws_.set_option(websocket::stream_base::decorator([h = *headers](websocket::request_type& req) {
        req.set("X-Auth-Token", h.token);
        req.set("X-Tn-Token", h.tn);
      }));
    ws_.handshake(response_, "127.0.0.1", target);
  }
  std::string read() {
    boost::beast::flat_buffer b;
    ws_.next_layer().expires_after(wait_);
    ws_.read(b);
    return boost::beast::buffers_to_string(b.data());
  }
  void write(const std::string& text) { ws_.write(boost::asio::buffer(text)); }
  /// The close code once the server closed (reads until then).
  int closed_with() {
    try {
      for (int i = 0; i < 10; ++i) read();
    } catch (const boost::beast::system_error& e) {
      if (e.code() == boost::beast::websocket::error::closed) return ws_.reason().code;
      return -1;
    }
    return 0;
  }
  std::string close_reason() const { return std::string(ws_.reason().reason.c_str()); }

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::websocket::response_type response_;
  std::chrono::seconds wait_;
};

/// A session's socket on /socket, past its greeting ({"tipo":"conectado"}).
class Socket : public SocketClient {
 public:
  Socket(int port, const Session& who, std::chrono::seconds wait = std::chrono::seconds(10))
      : SocketClient(port, "/socket", &who, wait) {
    REQUIRE(read() == R"({"tipo":"conectado"})");
  }
};

}  // namespace cadastre::test
