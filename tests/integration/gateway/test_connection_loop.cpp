// The gateway on the wire (the shared engine, src/http/listener.*): raw bytes in, raw
// bytes out. Malformed or hostile requests are refused in the error shape with
// X-Target-URL and the connection closed; keep-alive, pipelining, HTTP/1.0, the
// connection limit, the idle time-out and stopping behave as HTTP/1.1 says.
#include <doctest/doctest.h>

#include <thread>

#include "fixture.hpp"
#include "support/raw_http.hpp"

using namespace cadastre;
using test::Gateway;

namespace {

using Raw = test::RawHttp;

std::string alfa_bearer() {
  return "Authorization: Bearer " + test::shared_stack().user("alfa").token + "\r\n";
}

void check_refused(const Raw::Answer& a, int status) {
  CHECK(a.status == status);
  CHECK(test::codigo(a.body) != "");
  CHECK(a.body.find("\"mensagem\"") != std::string::npos);
  CHECK(a.header("Content-Type").rfind("application/json", 0) == 0);
  CHECK(a.header("X-Target-URL") == "none");
  CHECK(a.header("Connection") == "close");
}

}  // namespace

TEST_CASE(
    "malformed requests get 400 in the error shape with X-Target-URL and the connection closes") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  const int port = gw.app().server().port();
  const char* cases[] = {
      "GARBAGE\r\n\r\n",
      "GET /health HTTP/1.1\r\n\r\n",                                      // no Host
      "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",                // two Hosts
      "GET /health HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n  continued\r\n\r\n",  // folded line
      "GET /health HTTP/1.1\r\nHost: a\r\nX-A : 1\r\n\r\n",                // space before the colon
      "GET health HTTP/1.1\r\nHost: a\r\n\r\n",                            // not origin-form
      "GET /hea lth HTTP/1.1\r\nHost: a\r\n\r\n",                          // space in the target
      "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
      "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 2\r\n\r\nxy",
      "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nxyz",
      "POST /health HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: "
      "chunked\r\n\r\n0\r\n\r\n",
  };
  for (const char* request : cases) {
    CAPTURE(request);
    Raw c(port);
    c.send(request);
    check_refused(c.read(), 400);
    CHECK(c.closed());
  }
  // The gateway is unharmed.
  Raw ok(port);
  ok.send("GET /health-check/liveness HTTP/1.1\r\nHost: a\r\n\r\n");
  CHECK(ok.read().status == 200);
}

TEST_CASE("a refused request is logged and counted, with the caller's address") {
  test::Destinations d;
  Gateway gw(test::config_for(d), {}, [](http::ServerOptions& o) { o.access_log = true; });
  {
    Raw c(gw.app().server().port());
    c.send("GET /health HTTP/1.1\r\n\r\n");
    auto a = c.read();
    CHECK(a.status == 400);
    CHECK(gw.log().find("\"route\":\"recusada\",\"status\":400") != std::string::npos);
    CHECK(gw.log().find("\"request_id\":\"" + a.header("X-Request-Id") + "\"") !=
          std::string::npos);
    CHECK(gw.log().find("\"remote\":\"127.0.0.1\"") != std::string::npos);
  }
  auto metrics = gw.client().Get("/metrics");
  REQUIRE(metrics);
  CHECK(metrics->body.find("route=\"recusada\",status=\"400\"") != std::string::npos);
}

TEST_CASE(
    "an unknown expectation gets 417, another HTTP version 505, a head over 64 KiB or 100 fields 431") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  const int port = gw.app().server().port();
  {
    Raw c(port);
    c.send("GET /health HTTP/1.1\r\nHost: a\r\nExpect: something-else\r\n\r\n");
    check_refused(c.read(), 417);
    CHECK(c.closed());
  }
  {
    Raw c(port);
    c.send("GET /health HTTP/2.0\r\nHost: a\r\n\r\n");
    check_refused(c.read(), 505);
  }
  {
    Raw c(port);
    c.send("GET /health HTTP/1.1\r\nHost: a\r\nX-Grande: " + std::string(70 * 1024, 'a') +
           "\r\n\r\n");
    check_refused(c.read(), 431);
  }
  {
    Raw c(port);
    std::string many = "GET /health HTTP/1.1\r\nHost: a\r\n";
    for (int i = 0; i < 150; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
    c.send(many + "\r\n");
    check_refused(c.read(), 431);
  }
}

TEST_CASE("a body over the payload limit gets 413 before it is sent") {
  test::Destinations d;
  Gateway gw(test::config_for(d), {}, [](http::ServerOptions& o) { o.payload_max = 1024; });
  Raw c(gw.app().server().port());
  // Only the head is sent: the answer must not wait for 10 MB that never come.
  c.send("POST /rest/lote/ HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000\r\n\r\n");
  auto a = c.read();
  check_refused(a, 413);
  CHECK(test::codigo(a.body) == "corpo_muito_grande");
}

TEST_CASE("pipelined requests are answered in order on one connection") {
  test::Destinations d;
  d.rest.on([](const httplib::Request& req, httplib::Response& res) {
    res.set_content("{\"caminho\":\"" + req.path + "\"}", "application/json");
  });
  Gateway gw(test::config_for(d));
  Raw c(gw.app().server().port());
  c.send("GET /rest/um/ HTTP/1.1\r\nHost: a\r\nX-Request-Id: p1\r\n" + alfa_bearer() +
         "\r\n"
         "HEAD /health HTTP/1.1\r\nHost: a\r\nX-Request-Id: p2\r\n\r\n"
         "GET /rest/dois/ HTTP/1.1\r\nHost: a\r\nX-Request-Id: p3\r\n" +
         alfa_bearer() + "\r\n");
  auto one = c.read();
  auto two = c.read(true);
  auto three = c.read();
  CHECK(one.status == 200);
  CHECK(one.header("X-Request-Id") == "p1");
  CHECK(one.body == "{\"caminho\":\"/alfa/um/\"}");
  CHECK(two.status == 200);
  CHECK(two.header("X-Request-Id") == "p2");
  CHECK(std::stoul(two.header("Content-Length")) > 0);  // the GET's length, no body bytes
  CHECK(three.header("X-Request-Id") == "p3");
  CHECK(three.body == "{\"caminho\":\"/alfa/dois/\"}");
  CHECK_FALSE(one.header("Date").empty());
}

TEST_CASE(
    "HTTP/1.0 closes after the answer unless it asks to keep the connection; Connection: close is "
    "honoured") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  const int port = gw.app().server().port();
  {
    Raw c(port);
    c.send("GET /health-check/liveness HTTP/1.0\r\n\r\n");
    auto a = c.read();
    CHECK(a.status == 200);
    CHECK(a.head.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(a.header("Connection") == "close");
    CHECK(c.closed());
  }
  {
    Raw c(port);
    c.send("GET /health-check/liveness HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    auto a = c.read();
    CHECK(a.header("Connection") == "keep-alive");
    c.send("GET /health-check/liveness HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    CHECK(c.read().status == 200);
  }
  {
    Raw c(port);
    c.send("GET /health-check/liveness HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
    auto a = c.read();
    CHECK(a.status == 200);
    CHECK(a.header("Connection") == "close");
    CHECK(c.closed());
  }
}

TEST_CASE("Expect: 100-continue gets 100 Continue before the body is sent") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  Raw c(gw.app().server().port());
  c.send("POST /health HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
  auto go_on = c.read();
  CHECK(go_on.status == 100);
  c.send("abcde");
  auto a = c.read();
  CHECK(a.status == 405);  // the gateway takes GET and HEAD only
  CHECK(test::codigo(a.body) == "metodo_nao_permitido");
  CHECK(a.header("X-Target-URL") == "none");
}

TEST_CASE("an idle connection is closed after the keep-alive time-out") {
  test::Destinations d;
  Gateway gw(test::config_for(d), {},
             [](http::ServerOptions& o) { o.keep_alive_timeout = std::chrono::seconds(1); });
  Raw c(gw.app().server().port());
  c.send("GET /health-check/liveness HTTP/1.1\r\nHost: a\r\n\r\n");
  CHECK(c.read().status == 200);
  auto started = std::chrono::steady_clock::now();
  CHECK(c.closed());  // waits (up to the client's 5 s) for the server to close
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(3000));
}

TEST_CASE(
    "beyond the connection limit a new connection gets 503 with Retry-After, and a freed place is "
    "reused") {
  test::Destinations d;
  Gateway gw(test::config_for(d), {}, [](http::ServerOptions& o) {
    o.max_connections = 2;
    o.reserved_connections = 0;
  });
  const int port = gw.app().server().port();
  auto first = std::make_unique<Raw>(port);
  Raw second(port);
  for (Raw* c : {first.get(), &second}) {  // both admitted and served
    c->send("GET /health-check/liveness HTTP/1.1\r\nHost: a\r\n\r\n");
    CHECK(c->read().status == 200);
  }
  {
    Raw third(port);
    auto a = third.read();
    check_refused(a, 503);
    CHECK(test::codigo(a.body) == "servico_indisponivel");
    CHECK(a.header("Retry-After") == "1");
    CHECK(third.closed());
  }
  first.reset();  // frees a place once the server sees the close
  int status = 0;
  for (int i = 0; i < 100 && status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Raw again(port);
    again.send("GET /health-check/liveness HTTP/1.1\r\nHost: a\r\n\r\n");
    status = again.read().status;
  }
  CHECK(status == 200);
}

TEST_CASE("stopping closes idle connections and still answers the request in progress") {
  test::Destinations d;
  d.rest.on([](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    res.set_content("{\"ok\":true}", "application/json");
  });
  Gateway gw(test::config_for(d));
  const int port = gw.app().server().port();
  Raw idle(port);
  idle.send("GET /health-check/liveness HTTP/1.1\r\nHost: a\r\n\r\n");
  CHECK(idle.read().status == 200);
  Raw busy(port);
  busy.send("GET /rest/lento/ HTTP/1.1\r\nHost: a\r\n" + alfa_bearer() + "\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the request is at the destination
  std::thread stopper([&] { gw.app().stop(); });
  CHECK(idle.closed());
  auto a = busy.read();
  CHECK(a.status == 200);
  CHECK(a.body == "{\"ok\":true}");
  CHECK(a.header("Connection") == "close");
  CHECK(busy.closed());
  stopper.join();
  CHECK_FALSE(gw.app().server().running());
}
