// WebSockets in the HTTP engine (src/http/listener.cpp, src/http/websocket.*) on a bare
// http::Server, with Beast's WebSocket client: the handshake behind the route's auth, echo,
// pushes through the event bus from other threads, the engine's limits and closes, and that
// an open socket holds no thread.
#include <doctest/doctest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "http/server.hpp"
#include "http/websocket.hpp"
#include "service/events.hpp"

using namespace cadastre;
using namespace std::chrono_literals;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using tcp = net::ip::tcp;

namespace {

using Clock = std::chrono::steady_clock;

http::Route route(std::string pattern, std::string auth, http::Handler h) {
  http::Route r;
  r.method = "GET";
  r.pattern = std::move(pattern);
  r.auth = std::move(auth);
  r.tag = "Teste";
  r.summary = "rota de teste";
  r.handler = std::move(h);
  return r;
}

// A server whose /ws/{tenant} echoes text, answers "fechar" with "adeus" and a close 1008,
// and forwards the tenant's events from `bus`; /privado echoes behind an auth scheme that
// wants X-Teste; /ping is a plain GET. It records the code every socket ends with.
class Bare {
 public:
  explicit Bare(const std::function<void(http::ServerOptions&)>& adjust = {}) {
    http::ServerOptions o;
    o.threads = 2;
    o.log = &log_;
    if (adjust) adjust(o);
    server_ = std::make_unique<http::Server>(
        http::ServiceInfo{"teste", "0", "", "/openapi.json", "teste"}, o);
    server_->add_auth_scheme({"teste", "", [](http::Request& req, const http::Route&) {
                                if (!req.header("X-Teste"))
                                  throw Error(errc::unauthenticated, "credencial ausente");
                              }});
    server_->add(route("/ws/{tenant}", "none", [this](http::Request& req) {
      const std::int64_t tenant = std::stoll(req.param("tenant"));
      return http::Response::websocket(req, [this, tenant](std::shared_ptr<http::WebSocket> ws) {
        auto sub = std::make_shared<service::EventBus::Subscription>(
            bus.subscribe(tenant, [ws](const service::Event& e) { ws->send(e.json); }));
        ws->on_message([ws](std::string_view text) {
          if (text == "fechar") {
            ws->send("adeus");
            ws->close(http::close_code::policy, "sessão revogada");
          } else {
            ws->send(std::string(text));
          }
        });
        ws->on_close([this, sub](std::uint16_t code) { ended(code); });
      });
    }));
    // The same, with every callback holding the handle weakly: the engine keeps it.
    server_->add(route("/fraco/{tenant}", "none", [this](http::Request& req) {
      const std::int64_t tenant = std::stoll(req.param("tenant"));
      return http::Response::websocket(req, [this, tenant](std::shared_ptr<http::WebSocket> ws) {
        std::weak_ptr<http::WebSocket> weak = ws;
        auto sub = std::make_shared<service::EventBus::Subscription>(
            bus.subscribe(tenant, [weak](const service::Event& e) {
              if (auto w = weak.lock()) w->send(e.json);
            }));
        ws->on_message([weak](std::string_view text) {
          if (auto w = weak.lock()) w->send(std::string(text));
        });
        ws->on_close([this, sub](std::uint16_t code) { ended(code); });
      });
    }));
    server_->add(route("/privado", "teste", [this](http::Request& req) {
      return http::Response::websocket(req, [this](std::shared_ptr<http::WebSocket> ws) {
        ws->on_message([ws](std::string_view text) { ws->send(std::string(text)); });
        ws->on_close([this](std::uint16_t code) { ended(code); });
      });
    }));
    server_->add(route("/ping", "none",
                       [](http::Request&) { return http::Response::json("{\"ok\":true}"); }));
    REQUIRE(server_->bind());
    thread_ = std::thread([this] { server_->serve(); });
  }
  ~Bare() { stop(); }

  /// Stops the server; how long serve() took to return.
  Clock::duration stop() {
    if (!thread_.joinable()) return {};
    const auto started = Clock::now();
    server_->stop();
    thread_.join();
    return Clock::now() - started;
  }

  int port() const { return server_->port(); }
  int open() const { return server_->open_connections(); }
  /// Waits (up to 5 s) until the server counts `n` open connections.
  bool settles_at(int n) const {
    const auto deadline = Clock::now() + 5s;
    while (server_->open_connections() != n) {
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }
  /// The codes the server's on_close saw, once `n` sockets have ended (waits up to 5 s).
  std::vector<std::uint16_t> closes(std::size_t n) {
    std::unique_lock lock(mutex_);
    closed_.wait_for(lock, 5s, [&] { return closes_.size() >= n; });
    return closes_;
  }
  /// The access log so far; call after stop().
  std::string log() const { return log_.str(); }

  service::EventBus bus;

 private:
  void ended(std::uint16_t code) {
    std::lock_guard lock(mutex_);
    closes_.push_back(code);
    closed_.notify_all();
  }

  std::ostringstream log_;
  std::unique_ptr<http::Server> server_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable closed_;
  std::vector<std::uint16_t> closes_;
};

// Beast's WebSocket client, each operation bounded in time (asynchronous on a context of
// its own, run for at most the operation's time), so that a failure cannot hang the suite.
class Client {
 public:
  /// Connects and makes the handshake for `target`; the server's answer is in response().
  beast::error_code connect(int port, const std::string& target,
                            std::vector<std::pair<std::string, std::string>> headers = {}) {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).connect(
        {net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)}, ec);
    if (ec) return ec;
    ws_.set_option(websocket::stream_base::decorator(
        [headers = std::move(headers)](websocket::request_type& r) {
          for (const auto& [name, value] : headers) r.set(name, value);
        }));
    return wait([&](auto done) { ws_.async_handshake(response_, "127.0.0.1", target, done); });
  }
  beast::error_code send(std::string_view text, bool binary = false) {
    ws_.binary(binary);
    return wait([&](auto done) { ws_.async_write(net::buffer(text.data(), text.size()), done); });
  }
  /// The next message; nothing when the connection closed (reason()) or failed (error()).
  std::optional<std::string> read(Clock::duration within = 5s) {
    beast::flat_buffer buffer;
    error_ = wait([&](auto done) { ws_.async_read(buffer, done); }, within);
    if (error_) return std::nullopt;
    return beast::buffers_to_string(buffer.data());
  }
  /// Reads until the connection ends; the messages read meanwhile.
  std::size_t read_until_closed() {
    std::size_t n = 0;
    while (read()) ++n;
    return n;
  }
  beast::error_code close(std::uint16_t code) {
    return wait([&](auto done) { ws_.async_close(websocket::close_reason(code), done); });
  }
  beast::error_code error() const { return error_; }
  bool closed_with(std::uint16_t code) const {
    return error_ == websocket::error::closed && ws_.reason().code == code;
  }
  std::string reason() const { return std::string(ws_.reason().reason.c_str()); }
  const websocket::response_type& response() const { return response_; }

 private:
  template <class Start>
  beast::error_code wait(Start start, Clock::duration within = 5s) {
    std::optional<beast::error_code> result;
    start([&result](beast::error_code ec, auto&&...) { result = ec; });
    io_.restart();
    io_.run_for(within);
    if (result) return *result;
    beast::error_code ignored;  // too late: fail the operation and let it finish
    beast::get_lowest_layer(ws_).close(ignored);
    io_.restart();
    io_.run();
    return net::error::timed_out;
  }

  net::io_context io_;
  websocket::stream<tcp::socket> ws_{io_};
  websocket::response_type response_;
  beast::error_code error_;
};

}  // namespace

TEST_CASE("the handshake opens a socket that echoes, with one access log line (101)") {
  Bare s;
  Client c;
  REQUIRE(c.connect(s.port(), "/ws/1", {{"X-Request-Id", "pedido-ws-1"}}) == beast::error_code{});
  CHECK(c.response().result_int() == 101);
  CHECK(c.response()["X-Request-Id"] == "pedido-ws-1");  // the service's headers are on the 101
  REQUIRE(c.send("olá") == beast::error_code{});
  CHECK(c.read() == "olá");
  REQUIRE(c.send("de novo") == beast::error_code{});
  CHECK(c.read() == "de novo");
  CHECK(s.open() == 1);
  REQUIRE(c.close(1000) == beast::error_code{});
  s.stop();
  const std::string log = s.log();
  CHECK(log.find("\"route\":\"/ws/{tenant}\",\"status\":101") != std::string::npos);
  CHECK(log.find("pedido-ws-1") == log.rfind("pedido-ws-1"));  // one line for the socket
}

TEST_CASE("a plain GET on a WebSocket route gets 426 in the shared error shape") {
  Bare s;
  httplib::Client http("127.0.0.1", s.port());
  auto res = http.Get("/ws/1");
  REQUIRE(res);
  CHECK(res->status == 426);
  CHECK(res->get_header_value("Upgrade") == "websocket");
  CHECK(res->body.find("\"tipo\":\"erro\"") != std::string::npos);
  CHECK(s.settles_at(0));
}

TEST_CASE("the route's auth refuses an upgrade with 401 before any handshake") {
  Bare s;
  Client refused;
  CHECK(refused.connect(s.port(), "/privado") == websocket::error::upgrade_declined);
  CHECK(refused.response().result_int() == 401);
  CHECK(std::string(refused.response().body()).find("nao_autenticado") != std::string::npos);

  Client allowed;
  REQUIRE(allowed.connect(s.port(), "/privado", {{"X-Teste", "1"}}) == beast::error_code{});
  REQUIRE(allowed.send("eco") == beast::error_code{});
  CHECK(allowed.read() == "eco");
}

TEST_CASE("events published on another thread reach the tenant's sockets, and only theirs") {
  Bare s;
  Client a1, a2, b;
  for (auto [client, target] : {std::pair{&a1, "/ws/1"}, {&a2, "/ws/1"}, {&b, "/ws/2"}}) {
    REQUIRE(client->connect(s.port(), target) == beast::error_code{});
    // The echo comes after on_open, so the socket is subscribed once it is back.
    REQUIRE(client->send("pronto") == beast::error_code{});
    REQUIRE(client->read() == "pronto");
  }
  CHECK(s.bus.subscribers(1) == 2);
  CHECK(s.bus.subscribers(2) == 1);
  std::thread publisher([&s] {
    s.bus.publish(1, {"geometria_alterada", R"({"tipo":"geometria_alterada","id":7})"});
    s.bus.publish(2, {"importacao_progresso", R"({"tipo":"importacao_progresso","pct":50})"});
  });
  publisher.join();
  CHECK(a1.read() == R"({"tipo":"geometria_alterada","id":7})");
  CHECK(a2.read() == R"({"tipo":"geometria_alterada","id":7})");
  // Tenant 2's first message is its own event: tenant 1's never reached it.
  CHECK(b.read() == R"({"tipo":"importacao_progresso","pct":50})");
}

TEST_CASE("callbacks that hold the handle weakly work as long as the socket is open") {
  Bare s;
  Client c;
  REQUIRE(c.connect(s.port(), "/fraco/6") == beast::error_code{});
  REQUIRE(c.send("pronto") == beast::error_code{});
  CHECK(c.read() == "pronto");
  s.bus.publish(6, {"geometria_alterada", "{\"id\":1}"});
  CHECK(c.read() == "{\"id\":1}");
  REQUIRE(c.close(1000) == beast::error_code{});
  CHECK(s.closes(1) == std::vector<std::uint16_t>{1000});
  // The engine drops the callbacks (and the subscription they hold) just after on_close.
  for (int i = 0; i < 100 && s.bus.subscribers(6) != 0; ++i) std::this_thread::sleep_for(10ms);
  CHECK(s.bus.subscribers(6) == 0);
}

TEST_CASE("a close from the server comes after what it sent, with its code and reason") {
  Bare s;
  Client c;
  REQUIRE(c.connect(s.port(), "/ws/5") == beast::error_code{});
  REQUIRE(c.send("fechar") == beast::error_code{});
  CHECK(c.read() == "adeus");
  CHECK_FALSE(c.read());
  CHECK(c.closed_with(1008));
  CHECK(c.reason() == "sessão revogada");
  CHECK(s.closes(1) == std::vector<std::uint16_t>{1008});
  CHECK(s.settles_at(0));
  // The socket's callbacks went with it, and the subscription they held.
  CHECK(s.bus.subscribers(5) == 0);
}

TEST_CASE("a client's close reaches on_close with its code") {
  Bare s;
  Client c;
  REQUIRE(c.connect(s.port(), "/ws/1") == beast::error_code{});
  REQUIRE(c.close(4000) == beast::error_code{});
  CHECK(s.closes(1) == std::vector<std::uint16_t>{4000});
  CHECK(s.settles_at(0));
}

TEST_CASE("the engine closes on a message over the limit (1009) and on a binary one (1003)") {
  Bare s;
  Client big;
  REQUIRE(big.connect(s.port(), "/ws/1") == beast::error_code{});
  big.send(std::string(64 * 1024 + 1, 'x'));  // the server may close before it has it all
  CHECK_FALSE(big.read());
  CHECK(big.closed_with(1009));

  Client binary;
  REQUIRE(binary.connect(s.port(), "/ws/1") == beast::error_code{});
  REQUIRE(binary.send("\x01\x02", true) == beast::error_code{});
  CHECK_FALSE(binary.read());
  CHECK(binary.closed_with(1003));

  auto codes = s.closes(2);
  std::sort(codes.begin(), codes.end());
  CHECK(codes == std::vector<std::uint16_t>{1003, 1009});
}

TEST_CASE("a client that does not read is closed with 1013 instead of being buffered for") {
  Bare s;
  Client slow;
  REQUIRE(slow.connect(s.port(), "/ws/3") == beast::error_code{});
  REQUIRE(slow.send("pronto") == beast::error_code{});
  REQUIRE(slow.read() == "pronto");
  // 32 MiB: more than the socket buffers and the 1 MiB queue hold together.
  const std::string chunk(16 * 1024, 'e');
  for (int i = 0; i < 2048; ++i) s.bus.publish(3, {"importacao_progresso", chunk});
  const std::size_t received = slow.read_until_closed();
  CHECK(slow.closed_with(1013));
  CHECK(received < 2048);
  CHECK(s.closes(1) == std::vector<std::uint16_t>{1013});
}

TEST_CASE("a silent peer is dropped after the idle timeout; one that answers pings is not") {
  Bare s([](http::ServerOptions& o) { o.websocket_idle_timeout = 1s; });
  Client live, dead;
  REQUIRE(live.connect(s.port(), "/ws/4") == beast::error_code{});
  REQUIRE(dead.connect(s.port(), "/ws/4") == beast::error_code{});
  for (Client* c : {&live, &dead}) {
    REQUIRE(c->send("pronto") == beast::error_code{});
    REQUIRE(c->read() == "pronto");
  }
  // `live` reads (Beast's client answers the engine's pings meanwhile); `dead` does not.
  std::thread later([&s] {
    std::this_thread::sleep_for(2500ms);
    s.bus.publish(4, {"geometria_alterada", "{\"ainda\":true}"});
  });
  CHECK(live.read() == "{\"ainda\":true}");
  later.join();
  CHECK(s.closes(1) == std::vector<std::uint16_t>{1006});
  CHECK(s.settles_at(1));
}

TEST_CASE("stop() closes 200 idle sockets with 1001 and serve() returns at once") {
  Bare s;
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 200; ++i) {
    clients.push_back(std::make_unique<Client>());
    REQUIRE(clients.back()->connect(s.port(), "/ws/1") == beast::error_code{});
  }
  REQUIRE(s.settles_at(200));
  std::atomic<int> going_away{0};
  std::thread readers([&] {  // the clients answer the close as they read it
    for (auto& c : clients) {
      c->read_until_closed();
      if (c->closed_with(1001)) ++going_away;
    }
  });
  const auto took = s.stop();
  readers.join();
  CHECK(took < 2s);
  CHECK(going_away == 200);
  CHECK(s.closes(200).size() == 200);
}

TEST_CASE("200 open sockets hold none of 4 threads: a plain GET is answered meanwhile") {
  Bare s([](http::ServerOptions& o) { o.threads = 4; });
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 200; ++i) {
    clients.push_back(std::make_unique<Client>());
    REQUIRE(clients.back()->connect(s.port(), "/ws/1") == beast::error_code{});
  }
  REQUIRE(s.settles_at(200));
  httplib::Client http("127.0.0.1", s.port());
  http.set_read_timeout(5, 0);
  const auto started = Clock::now();
  auto res = http.Get("/ping");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(Clock::now() - started < 1s);
  // And every socket still works.
  for (auto& c : clients) REQUIRE(c->send("eco") == beast::error_code{});
  for (auto& c : clients) CHECK(c->read() == "eco");
}
