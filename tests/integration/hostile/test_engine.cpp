// The HTTP engine (src/http/listener.*) on a bare http::Server with routes of its own:
// gzip of answers (whole and streamed), multipart and chunked request bodies, and the
// connection limit with its reserved liveness slots.
#include <doctest/doctest.h>

#include <memory>
#include <thread>

#include "http/server.hpp"
#include "support/gunzip.hpp"
#include "support/raw_http.hpp"

using namespace cadastre;
using test::get_request;
using test::gunzip;
using test::RawHttp;
using namespace std::chrono_literals;

namespace {

// A chunked answer's body, decoded.
std::string dechunk(RawHttp& c, const RawHttp::Answer& a) {
  REQUIRE(a.header("Transfer-Encoding") == "chunked");
  std::string raw = a.body, out;
  while (true) {
    while (raw.find("\r\n") == std::string::npos) raw += c.read_some();
    const auto line_end = raw.find("\r\n");
    const std::size_t size = std::stoul(raw.substr(0, line_end), nullptr, 16);
    while (raw.size() < line_end + 2 + size + 2) raw += c.read_some();
    if (size == 0) return out;
    out += raw.substr(line_end + 2, size);
    raw.erase(0, line_end + 2 + size + 2);
  }
}

std::string big_json() {
  std::string s = "[";
  for (int i = 0; i < 20000; ++i)
    s += "{\"id\":" + std::to_string(i) + ",\"inscricao\":\"01.02.003\"},";
  s.back() = ']';
  return s;
}

http::Route route(std::string method, std::string pattern, http::Handler h) {
  http::Route r;
  r.method = std::move(method);
  r.pattern = std::move(pattern);
  r.auth = "none";
  r.tag = "Teste";
  r.summary = "rota de teste";
  r.handler = std::move(h);
  return r;
}

// A server with the test routes, serving on its own thread.
class Bare {
 public:
  explicit Bare(const std::function<void(http::ServerOptions&)>& adjust = {}) {
    http::ServerOptions o;
    o.threads = 2;
    o.access_log = false;
    if (adjust) adjust(o);
    server_ = std::make_unique<http::Server>(
        http::ServiceInfo{"teste", "0", "", "/openapi.json", "teste"}, o);
    server_->add(route("GET", "/health-check/liveness",
                       [](http::Request&) { return http::Response::json("{}"); }));
    server_->add(
        route("GET", "/grande", [](http::Request&) { return http::Response::json(big_json()); }));
    server_->add(route("GET", "/imagem", [](http::Request&) {
      return http::Response::text(std::string(5000, 'x'), "image/png");
    }));
    server_->add(route("GET", "/fluxo", [](http::Request&) {
      http::Response r;
      r.body = "[";
      r.stream = [](const http::Response::BodyWriter& write) {
        for (int i = 0; i < 2000; ++i) {
          const std::string item = std::string(i ? "," : "") + "{\"n\":" + std::to_string(i) + "}";
          if (!write(item.data(), item.size())) return false;
        }
        return write("]", 1);
      };
      return r;
    }));
    server_->add(route("POST", "/eco", [](http::Request& req) {
      std::string parts;
      for (const auto& f : req.files)
        parts += f.name + "=" + f.filename + ":" + std::to_string(f.content.size()) + ";";
      return http::Response::text(req.body.size() > 0 && req.files.empty() ? req.body : parts,
                                  "text/plain");
    }));
    http::Route small = route("POST", "/pequeno", [](http::Request& req) {
      return http::Response::text(std::to_string(req.body.size()), "text/plain");
    });
    small.body = {.description = "até 1000 bytes", .max_bytes = 1000};
    server_->add(std::move(small));
    REQUIRE(server_->bind());
    thread_ = std::thread([this] { server_->serve(); });
  }
  ~Bare() {
    server_->stop();
    thread_.join();
  }
  int port() const { return server_->port(); }
  /// Waits (up to 2 s) until the server counts `n` open connections.
  bool settles_at(int n) const {
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    while (server_->open_connections() != n) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }

 private:
  std::unique_ptr<http::Server> server_;
  std::thread thread_;
};

}  // namespace

TEST_CASE(
    "an answer of a compressible type is gzip-compressed when the caller accepts it, and only "
    "then") {
  Bare s;
  RawHttp c(s.port());
  c.send(get_request("/grande", "Accept-Encoding: br, gzip\r\n"));
  auto zipped = c.read();
  CHECK(zipped.status == 200);
  CHECK(zipped.header("Content-Encoding") == "gzip");
  CHECK(zipped.header("Vary") == "Accept-Encoding");
  CHECK(zipped.body.size() < big_json().size() / 4);
  CHECK(gunzip(zipped.body) == big_json());

  c.send(get_request("/grande"));
  auto plain = c.read();
  CHECK(plain.header("Content-Encoding").empty());
  CHECK(plain.body == big_json());

  c.send(get_request("/grande", "Accept-Encoding: gzip;q=0\r\n"));
  CHECK(c.read().header("Content-Encoding").empty());
  c.send(get_request("/imagem", "Accept-Encoding: gzip\r\n"));  // not a compressible type
  CHECK(c.read().header("Content-Encoding").empty());
  c.send(get_request("/health-check/liveness", "Accept-Encoding: gzip\r\n"));  // too small to bother
  CHECK(c.read().header("Content-Encoding").empty());
  c.send("HEAD /grande HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n");
  auto head = c.read(true);
  CHECK(head.header("Content-Length") == std::to_string(big_json().size()));
}

TEST_CASE("a streamed answer is sent chunked, and gzip-compressed piece by piece when accepted") {
  Bare s;
  RawHttp c(s.port());
  std::string expected = "[";
  for (int i = 0; i < 2000; ++i)
    expected += std::string(i ? "," : "") + "{\"n\":" + std::to_string(i) + "}";
  expected += "]";
  c.send(get_request("/fluxo"));
  auto plain = c.read();
  CHECK(dechunk(c, plain) == expected);
  c.send(get_request("/fluxo", "Accept-Encoding: gzip\r\n"));
  auto zipped = c.read();
  CHECK(zipped.header("Content-Encoding") == "gzip");
  CHECK(gunzip(dechunk(c, zipped)) == expected);
  c.send(get_request("/health-check/liveness"));  // the connection is still in step
  CHECK(c.read().status == 200);
}

TEST_CASE("a chunked request body arrives whole, and a multipart body as its parts") {
  Bare s;
  RawHttp c(s.port());
  c.send(
      "POST /eco HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nTransfer-Encoding: "
      "chunked\r\n\r\n"
      "6\r\nolá, \r\n6\r\nmundo!\r\n0\r\n\r\n");  // "olá, " is 6 bytes
  auto a = c.read();
  CHECK(a.status == 200);
  CHECK(a.body == "olá, mundo!");
  const std::string multipart =
      "--b\r\nContent-Disposition: form-data; name=\"descricao\"\r\n\r\nfachada\r\n"
      "--b\r\nContent-Disposition: form-data; name=\"arquivo\"; "
      "filename=\"f.png\"\r\nContent-Type: image/png\r\n\r\n"
      "0123456789\r\n--b--\r\n";
  c.send(
      "POST /eco HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; "
      "boundary=b\r\nContent-Length: " +
      std::to_string(multipart.size()) + "\r\n\r\n" + multipart);
  auto parts = c.read();
  CHECK(parts.status == 200);
  CHECK(parts.body == "descricao=:7;arquivo=f.png:10;");
  c.send(
      "POST /eco HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; "
      "boundary=b\r\nContent-Length: 5\r\n\r\n"
      "--b\r\n");
  auto broken = c.read();
  CHECK(broken.status == 400);
  CHECK(broken.body.find("multipart") != std::string::npos);
}

TEST_CASE(
    "past max-connections only liveness is served, on the reserved slots; past those, 503 at "
    "once") {
  Bare s([](http::ServerOptions& o) {
    o.max_connections = 2;
    o.reserved_connections = 1;
  });
  RawHttp one(s.port()), two(s.port());
  for (RawHttp* c : {&one, &two}) {
    c->send(get_request("/grande"));
    CHECK(c->read().status == 200);
  }
  {
    RawHttp reserved(s.port());
    reserved.send(get_request("/health-check/liveness"));
    CHECK(reserved.read().status == 200);
  }
  REQUIRE(s.settles_at(2));  // the server has seen the reserved connection close
  {
    RawHttp reserved(s.port());
    reserved.send(get_request("/grande"));
    auto a = reserved.read();
    CHECK(a.status == 503);
    CHECK(a.header("Retry-After") == "1");
  }
  REQUIRE(s.settles_at(2));
  RawHttp reserved(s.port());  // holds the reserved slot without a word
  REQUIRE(s.settles_at(3));
  RawHttp beyond(s.port());
  auto a = beyond.read();
  CHECK(a.status == 503);
  CHECK(a.body.find("servico_indisponivel") != std::string::npos);
  CHECK(beyond.closed());
}

TEST_CASE("a route's own body limit refuses a larger declared length before the body is sent") {
  Bare s;  // payload_max is the default 32 MiB; /pequeno takes 1000 bytes
  {
    RawHttp c(s.port());
    c.wait_at_most(1000ms);
    c.send("POST /pequeno HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n");  // no body follows
    auto a = c.read();
    CHECK(a.status == 413);
    CHECK(a.body.find("\"codigo\"") != std::string::npos);
    CHECK(c.closed());
  }
  {
    RawHttp c(s.port());
    c.wait_at_most(1000ms);
    c.send("POST /pequeno HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n" +
           std::string(2000, 'a') + "\r\n0\r\n\r\n");
    CHECK(c.read().status == 413);
  }
  {
    RawHttp c(s.port());
    c.send("POST /pequeno HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n" + std::string(1000, 'a'));
    auto a = c.read();
    CHECK(a.status == 200);
    CHECK(a.body == "1000");
  }
  {
    RawHttp c(s.port());  // other routes keep payload_max
    c.send("POST /eco HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n" +
           std::string(5000, 'b'));
    CHECK(c.read().status == 200);
  }
}
