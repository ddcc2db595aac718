// Hostile clients against cadastre-server and cadastre-gateway in front of it, on raw
// sockets: slow heads and bodies, floods, oversize heads and bodies, request smuggling,
// pipelining. Every case also checks that the service still answers a normal request
// promptly afterwards. The limits are tightened (2 s deadlines, 4 threads, 1 MiB bodies)
// so that each attack outlasts them within a test's time.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "gateway/app.hpp"
#include "gateway/config.hpp"
#include "gateway/demo_config.hpp"
#include "support/harness.hpp"
#include "support/raw_http.hpp"

using namespace cadastre;
using test::get_request;
using test::RawHttp;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

constexpr auto kDeadline = 2s;
constexpr std::size_t kPayloadMax = 1 << 20;
constexpr int kThreads = 4;

void tighten(http::ServerOptions& o) {
  o.threads = kThreads;  // fewer threads than attackers: waiting for a client must not hold one
  o.head_timeout = kDeadline;
  o.body_timeout = kDeadline;
  o.keep_alive_timeout = kDeadline;
  o.payload_max = kPayloadMax;
  o.access_log = false;
}

server::AppOptions server_options() {
  server::AppOptions o;
  tighten(o.http);
  return o;
}

// cadastre-server with a small demo city, and the gateway in front of it (demo wiring).
struct Services {
  test::Stack stack{{"alfa"}, server_options()};
  std::ostringstream gateway_log;
  std::unique_ptr<gateway::App> gateway;

  Services() {
    stack.load_demo("alfa", 20);
    gateway::AppOptions g;
    g.config =
        gateway::parse_config(gateway::demo_config_json(stack.app().server().base_url(), ""));
    g.config.platform_dsn = stack.platform_dsn();
    g.http.port = 0;
    tighten(g.http);
    g.http.log = &gateway_log;
    g.pool.size = 2;
    gateway = std::make_unique<gateway::App>(std::move(g));
    REQUIRE(gateway->start());
  }
};

Services& services() {
  static Services s;
  return s;
}

struct Target {
  std::string name;
  int port;
  std::string liveness;  ///< no credential
  std::string read;      ///< an authenticated read of two lots
  std::string bearer;    ///< "Authorization: Bearer ...\r\n"
};

std::vector<Target> targets() {
  auto& s = services();
  const std::string bearer = "Authorization: Bearer " + s.stack.user("alfa").token + "\r\n";
  return {{"cadastre-server", s.stack.app().server().port(), "/health-check/liveness/",
           "/alfa/lote/?limit=2", bearer},
          {"cadastre-gateway", s.gateway->server().port(), "/health-check/liveness",
           "/rest/lote/?limit=2", bearer}};
}

// Liveness and an authenticated read, each answered 200 within a second on a new
// connection.
void answers_promptly(const Target& t) {
  for (const std::string& request : {get_request(t.liveness), get_request(t.read, t.bearer)}) {
    CAPTURE(request);
    RawHttp c(t.port);
    c.wait_at_most(1000ms);
    const auto started = Clock::now();
    c.send(request);
    CHECK(c.read().status == 200);
    CHECK(Clock::now() - started < 1000ms);
  }
}

void check_refused(RawHttp& c, int status) {
  auto a = c.read();
  CAPTURE(a.head);
  CAPTURE(a.body);
  CHECK(a.status == status);
  CHECK(a.body.find("\"mensagem\"") != std::string::npos);
  CHECK(a.body.find("\"codigo\"") != std::string::npos);
  CHECK(a.header("Connection") == "close");
  CHECK(c.closed());
}

std::string chunk_of(std::size_t size) {
  char line[24];
  std::snprintf(line, sizeof line, "%zx\r\n", size);
  return line + std::string(size, 'a') + "\r\n";
}

}  // namespace

TEST_CASE(
    "a hundred clients trickling their heads hold no worker, and are cut off at the head "
    "deadline") {
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    const std::string head = get_request(t.liveness, "X-Lento: " + std::string(200, 'a') + "\r\n");
    std::vector<std::unique_ptr<RawHttp>> slow;
    for (int i = 0; i < 100; ++i) slow.push_back(std::make_unique<RawHttp>(t.port));
    // One byte per connection every 250 ms: each read succeeds, so a per-read time-out
    // would never fire. Meanwhile a normal client is served.
    const auto started = Clock::now();
    for (std::size_t i = 0; Clock::now() - started < kDeadline + 500ms; ++i) {
      for (auto& c : slow) c->try_send(std::string_view(&head[i % head.size()], 1));
      if (i == 2) answers_promptly(t);
      std::this_thread::sleep_for(250ms);
    }
    int cut = 0;
    for (auto& c : slow) {
      c->wait_at_most(3000ms);
      auto a = c->read();
      cut += a.status == 408 && a.header("Connection") == "close";
    }
    CHECK(cut == 100);
    answers_promptly(t);
  }
}

TEST_CASE("a body trickled below the minimum rate is cut off with 408") {
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    RawHttp c(t.port);
    c.send("POST " + t.liveness + " HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n");
    c.wait_at_most(200ms);
    RawHttp::Answer a;
    const auto started = Clock::now();
    while (a.status == 0 && Clock::now() - started < kDeadline + 3s) {
      c.try_send("a");  // one byte every 200 ms: far below the minimum rate
      a = c.read();
    }
    CHECK(a.status == 408);
    CHECK(a.header("Connection") == "close");
    answers_promptly(t);
  }
}

TEST_CASE(
    "a chunked body over the limit gets 413, and so does a declared length, before the body is "
    "read") {
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    {
      RawHttp c(t.port);
      c.send(
          "POST /midia/storage HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
          "Transfer-Encoding: chunked\r\n\r\n");
      const std::string chunk = chunk_of(64 * 1024);
      std::size_t sent = 0;
      while (sent < std::size_t{50} << 20 && c.try_send(chunk)) sent += chunk.size();
      check_refused(c, 413);
    }
    {
      RawHttp c(t.port);  // only the head: the answer must not wait for 50 MiB that never come
      c.send("POST /midia/storage HTTP/1.1\r\nHost: a\r\nContent-Length: 52428800\r\n\r\n");
      check_refused(c, 413);
    }
    answers_promptly(t);
  }
}

TEST_CASE("a head of a million lines gets 431 and the service stays up") {
  std::string lines;
  for (int i = 0; i < 1000; ++i) lines += "X-Linha: " + std::to_string(i) + "\r\n";
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    RawHttp c(t.port);
    c.try_send("GET " + t.liveness + " HTTP/1.1\r\nHost: a\r\n");
    for (int i = 0; i < 1000 && c.try_send(lines); ++i) {
    }
    check_refused(c, 431);
    answers_promptly(t);
  }
}

TEST_CASE(
    "both services listen with the system's largest backlog, and a cold burst through the gateway "
    "is all 2xx") {
  int somaxconn = 0;
  std::ifstream("/proc/sys/net/core/somaxconn") >> somaxconn;
  REQUIRE(somaxconn > 0);
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    // ss shows a listening socket's backlog as its Send-Q.
    const std::string cmd = "ss -Hltn 'sport = :" + std::to_string(t.port) + "'";
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    char line[512] = {};
    REQUIRE(std::fgets(line, sizeof line, p));
    ::pclose(p);
    std::istringstream fields(line);
    std::string state;
    int recv_q = -1, send_q = -1;
    fields >> state >> recv_q >> send_q;
    CHECK(state == "LISTEN");
    CHECK(send_q == somaxconn);
  }
  const Target gw = targets()[1];
  std::atomic<int> ok{0};
  std::vector<std::thread> burst;
  for (int i = 0; i < 64; ++i)
    burst.emplace_back([&] {
      RawHttp c(gw.port);
      c.send(get_request(gw.read, gw.bearer));
      ok += c.read().status == 200;
    });
  for (auto& th : burst) th.join();
  CHECK(ok == 64);
}

TEST_CASE(
    "three pipelined requests in one write get three answers in order, and the connection stays") {
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    RawHttp c(t.port);
    c.wait_at_most(1000ms);
    c.send(get_request(t.liveness, "X-Request-Id: p1\r\n") +
           get_request(t.read, t.bearer + "X-Request-Id: p2\r\n") +
           get_request(t.liveness, "X-Request-Id: p3\r\n"));
    for (const char* id : {"p1", "p2", "p3"}) {
      auto a = c.read();
      CHECK(a.status == 200);
      CHECK(a.header("X-Request-Id") == id);
    }
    c.send(get_request(t.liveness));
    CHECK(c.read().status == 200);
  }
}

TEST_CASE("what two parsers could read differently is refused, and the connection closed") {
  const std::string post = "POST /x HTTP/1.1\r\nHost: a\r\n";
  const char nul_in_value[] =
      "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\0"
      "2\r\n\r\n";
  const std::vector<std::pair<int, std::string>> cases = {
      {400, "GARBAGE\r\n\r\n"},
      {400, "GET / HTTP/1.1\r\n\r\n"},                                 // no Host
      {400, "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n"},           // two Hosts
      {400, "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\tmore\r\n\r\n"},  // obs-fold (tab)
      {400, "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n  more\r\n\r\n"},  // obs-fold (spaces)
      {400, "GET / HTTP/1.1\r\nHost: a\r\nX-A : 1\r\n\r\n"},           // space before the colon
      {400, "GET / HTTP/1.1\r\nHost: a\r\n: 1\r\n\r\n"},               // empty name
      {400, "GET / HTTP/1.1\r\nHost: a\r\nX-A 1\r\n\r\n"},             // no colon
      {400, "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r2\r\n\r\n"},         // bare CR in a value
      {400, "GET / HTTP/1.1\nHost: a\n\n"},                            // bare LF
      {400, std::string(nul_in_value, sizeof nul_in_value - 1)},
      {400, post + "Content-Length: 1x\r\n\r\n"},
      {400, post + "Content-Length: +1\r\n\r\n"},
      {400, post + "Content-Length: -1\r\n\r\n"},
      {400, post + "Content-Length: 99999999999999999999\r\n\r\n"},
      {400, post + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nxy"},
      {400, post + "Content-Length: 1, 2\r\n\r\nxy"},
      {400, post + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
      {400, post + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n"},
      {400, post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"},
      {400, post + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n"},
      {400, post + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n"},
      {400, post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
      {400, post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n"},  // chunk size not hex
      {400, post + "Transfer-Encoding: chunked\r\n\r\n-1\r\n"},  // negative chunk size
      {400,
       post + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n"},  // overflowing size
      {400, post + "Transfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n"},  // no CRLF after data
      {400, "GET  / HTTP/1.1\r\nHost: a\r\n\r\n"},                           // two spaces
      {400, "GET / HTTP/1.1 \r\nHost: a\r\n\r\n"},                           // trailing space
      {400, "G(T / HTTP/1.1\r\nHost: a\r\n\r\n"},                            // method not a token
      {400, "GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n"},                 // absolute-form
      {400, "GET * HTTP/1.1\r\nHost: a\r\n\r\n"},                            // * only for OPTIONS
      {400, "GET health HTTP/1.1\r\nHost: a\r\n\r\n"},                       // not origin-form
      {400, "GET /hea lth HTTP/1.1\r\nHost: a\r\n\r\n"},                     // space in the target
      {400, "GET /a\x01 HTTP/1.1\r\nHost: a\r\n\r\n"},  // control character in the target
      {400, "GET / HTTP/1.x\r\nHost: a\r\n\r\n"},
      {400, "GET / http/1.1\r\nHost: a\r\n\r\n"},
      {505, "GET / HTTP/2.0\r\nHost: a\r\n\r\n"},
      {417, "GET / HTTP/1.1\r\nHost: a\r\nExpect: something-else\r\n\r\n"},
  };
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    for (const auto& [status, request] : cases) {
      CAPTURE(request);
      RawHttp c(t.port);
      c.send(request);
      check_refused(c, status);
    }
    answers_promptly(t);
  }
}

namespace {

std::string post(const std::string& method, const std::string& path, const std::string& bearer,
                 const std::string& body) {
  return method + " " + path + " HTTP/1.1\r\nHost: a\r\n" + bearer +
         "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body;
}

RawHttp::Answer call(const Target& t, const std::string& request) {
  RawHttp c(t.port);
  c.send(request);
  return c.read();
}

std::string lots() {
  return test::query_value(services().stack.tenant_dsn("alfa"),
                           "select count(*) from cadastro.lote");
}

}  // namespace

TEST_CASE(
    "a repeated JSON key is a 400 naming it, the database untouched; the gateway refuses writes "
    "with 405") {
  const Target server = targets()[0], gateway = targets()[1];
  const std::string before = lots();
  for (const auto& [method, body] : std::vector<std::pair<std::string, std::string>>{
           {"POST", R"({"id":"1","id":"2"})"}, {"PUT", R"({"id":1,"numero":445,"numero":445})"}}) {
    CAPTURE(method);
    auto a = call(server, post(method, "/crud/alfa/lote/", server.bearer, body));
    CHECK(a.status == 400);
    CHECK(a.body.find("chave duplicada") != std::string::npos);
    CHECK(a.body.find("erro_interno") == std::string::npos);
    CHECK(call(gateway, post(method, "/rest/crud/lote/", gateway.bearer, body)).status == 405);
  }
  CHECK(lots() == before);
  answers_promptly(server);
  answers_promptly(gateway);
}

TEST_CASE("a NUL in a filter and a hostile busca_imoveis query are 400 on both services") {
  for (const Target& t : targets()) {
    CAPTURE(t.name);
    const std::string base = t.name == "cadastre-server" ? "/alfa/lote/" : "/rest/lote/";
    auto nul = call(t, get_request(base + "?inscricao=%00&type=icontains", t.bearer));
    CHECK(nul.status == 400);
    auto busca = call(
        t, get_request(base + "busca_imoveis/1/?minLongitude=abc&sort=(select%201)&type=zzz", t.bearer));
    CHECK(busca.status == 400);
    CHECK(busca.body.find("\"codigo\"") != std::string::npos);
    answers_promptly(t);
  }
}

TEST_CASE(
    "a malformed body is refused before any dependency is asked: criar-issue-externo without a "
    "tracker") {
  const Target server = targets()[0];
  auto a = call(server, post("POST", "/aplicativo/criar-issue-externo", server.bearer, "{"));
  CHECK(a.status == 400);
  CHECK(a.body.find("\"codigo\"") != std::string::npos);
  answers_promptly(server);
}
