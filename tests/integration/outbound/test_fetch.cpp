// What fetch() sends and returns when the destination is allowed: methods, bodies,
// headers, chunked answers, redirects.
#include <doctest/doctest.h>

#include <mutex>

#include "destination.hpp"

using namespace cadastre;
using namespace cadastre::outbound;
using test::Destination;
using test::get;
using test::loopback_policy;

namespace {

// What the destination saw of the last request.
struct Seen {
  std::mutex mutex;
  std::string method, target, body, content_type, host, user_agent, accept_encoding, authorization,
      custom;
  void record(const httplib::Request& req) {
    std::lock_guard lock(mutex);
    method = req.method;
    target = req.target;
    body = req.body;
    content_type = req.get_header_value("Content-Type");
    host = req.get_header_value("Host");
    user_agent = req.get_header_value("User-Agent");
    accept_encoding = req.get_header_value("Accept-Encoding");
    authorization = req.get_header_value("Authorization");
    custom = req.get_header_value("X-Teste");
  }
};

}  // namespace

TEST_CASE("GET carries the caller's headers and the original Host; the answer comes back whole") {
  Seen seen;
  Destination d([&](httplib::Server& s) {
    s.Get("/wms", [&](const httplib::Request& req, httplib::Response& res) {
      seen.record(req);
      res.set_header("X-Resposta", "sim");
      res.set_content("<WMS_Capabilities/>", "text/xml");
    });
  });
  Request r;
  r.url =
      "http://LOCALHOST:" + std::to_string(d.port()) + "/wms?SERVICE=WMS&REQUEST=GetCapabilities#x";
  r.headers = {{"X-Teste", "valor 1"}, {"Host", "forjado.example"}, {"Connection", "keep-alive"}};
  Response res = fetch(loopback_policy(), r);
  CHECK(res.status == 200);
  CHECK(res.body == "<WMS_Capabilities/>");
  REQUIRE(res.header("content-type"));
  CHECK(*res.header("content-type") == "text/xml");
  REQUIRE(res.header("X-Resposta"));
  CHECK(*res.header("X-Resposta") == "sim");
  CHECK(res.final_url == "http://localhost:" + std::to_string(d.port()) +
                             "/wms?SERVICE=WMS&REQUEST=GetCapabilities");
  CHECK(seen.method == "GET");
  CHECK(seen.target == "/wms?SERVICE=WMS&REQUEST=GetCapabilities");
  CHECK(seen.host == "localhost:" + std::to_string(d.port()));  // the caller's Host is not sent
  CHECK(seen.custom == "valor 1");
  CHECK(seen.user_agent == "libcadastre");
  CHECK(seen.accept_encoding == "identity");
  CHECK(d.hits() == 1);
}

TEST_CASE("POST sends the body with its type and length; the status is returned as it is") {
  Seen seen;
  Destination d([&](httplib::Server& s) {
    s.Post("/auth", [&](const httplib::Request& req, httplib::Response& res) {
      seen.record(req);
      res.status = 201;
      res.set_content("{\"token\":\"abc\"}", "application/json");
    });
    s.Put("/vazio", [&](const httplib::Request& req, httplib::Response& res) {
      seen.record(req);
      res.status = 204;
    });
    s.Get("/nao-ha", [](const httplib::Request&, httplib::Response& res) {
      res.status = 404;
      res.set_content("não há", "text/plain");
    });
  });
  Request r;
  r.method = "POST";
  r.url = d.url("/auth");
  r.body = "usuario=ana&senha=x%26y";
  r.content_type = "application/x-www-form-urlencoded";
  r.headers = {
      {"Content-Type", "text/plain"}, {"User-Agent", "plataforma/1"}, {"Accept-Encoding", "gzip"}};
  Response res = fetch(loopback_policy(), r);
  CHECK(res.status == 201);
  REQUIRE(res.header("Content-Encoding"));  // the caller asked for gzip: the body stays as sent
  CHECK(*res.header("Content-Encoding") == "gzip");
  CHECK(res.body.starts_with("\x1f\x8b"));
  CHECK(seen.method == "POST");
  CHECK(seen.body == "usuario=ana&senha=x%26y");
  CHECK(seen.content_type ==
        "application/x-www-form-urlencoded");  // content_type wins over the header
  CHECK(seen.user_agent == "plataforma/1");
  CHECK(seen.accept_encoding == "gzip");

  Request put;
  put.method = "PUT";
  put.url = d.url("/vazio");
  Response empty = fetch(loopback_policy(), put);
  CHECK(empty.status == 204);
  CHECK(empty.body.empty());
  CHECK(seen.method == "PUT");

  Response missing = get(loopback_policy(), d.url("/nao-ha"));
  CHECK(missing.status == 404);
  CHECK(missing.body == "não há");
}

TEST_CASE("a chunked answer is decoded whole") {
  Destination d([](httplib::Server& s) {
    s.Get("/pedacos", [](const httplib::Request&, httplib::Response& res) {
      auto sent = std::make_shared<int>(0);
      res.set_chunked_content_provider("text/plain", [sent](std::size_t, httplib::DataSink& sink) {
        if (*sent == 50) {
          sink.done();
          return true;
        }
        std::string piece = "parte " + std::to_string((*sent)++) + ";";
        return sink.write(piece.data(), piece.size());
      });
    });
  });
  Response res = get(loopback_policy(), d.url("/pedacos"));
  CHECK(res.status == 200);
  REQUIRE(res.header("Transfer-Encoding"));
  std::string expected;
  for (int i = 0; i < 50; ++i) expected += "parte " + std::to_string(i) + ";";
  CHECK(res.body == expected);
}

TEST_CASE(
    "redirects inside the list are followed: relative Location, 303 and 307, another allowed "
    "host") {
  Seen seen;
  int port = 0;
  Destination d([&](httplib::Server& s) {
    s.Get("/a/b", [](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("../c?x=1", 301);
    });
    s.Get("/c", [&](const httplib::Request& req, httplib::Response& res) {
      seen.record(req);
      res.set_content("chegou " + req.get_param_value("x"), "text/plain");
    });
    s.Post("/form", [](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("/c?x=303", 303);
    });
    s.Post("/mantem", [](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("/recebe", 307);
    });
    s.Post("/recebe", [&](const httplib::Request& req, httplib::Response& res) {
      seen.record(req);
      res.set_content("recebi " + req.body, "text/plain");
    });
    s.Get("/outro-host", [&](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("http://localhost:" + std::to_string(port) + "/c?x=2", 302);
    });
    s.Get("/sem-location", [](const httplib::Request&, httplib::Response& res) {
      res.status = 302;
      res.set_content("sem destino", "text/plain");
    });
  });
  port = d.port();
  const Policy p = loopback_policy();

  Response relative = get(p, d.url("/a/b"));
  CHECK(relative.status == 200);
  CHECK(relative.body == "chegou 1");
  CHECK(relative.final_url == d.url("/c?x=1"));

  Request post;
  post.method = "POST";
  post.url = d.url("/form");
  post.body = "a=1";
  post.content_type = "application/x-www-form-urlencoded";
  Response see_other = fetch(p, post);
  CHECK(see_other.body == "chegou 303");
  CHECK(seen.method == "GET");  // 303: the body is not sent again
  CHECK(seen.body.empty());

  post.url = d.url("/mantem");
  Response kept = fetch(p, post);
  CHECK(kept.body == "recebi a=1");
  CHECK(seen.method == "POST");
  CHECK(seen.content_type == "application/x-www-form-urlencoded");

  // Credentials go to the host they were meant for, not to the next one.
  Request with_auth;
  with_auth.url = d.url("/outro-host");
  with_auth.headers = {{"Authorization", "Bearer segredo"}, {"X-Teste", "fica"}};
  Response moved = fetch(p, with_auth);
  CHECK(moved.body == "chegou 2");
  CHECK(moved.final_url == "http://localhost:" + std::to_string(port) + "/c?x=2");
  CHECK(seen.host == "localhost:" + std::to_string(port));
  CHECK(seen.authorization.empty());
  CHECK(seen.custom == "fica");

  Response no_location = get(p, d.url("/sem-location"));
  CHECK(no_location.status == 302);
  CHECK(no_location.body == "sem destino");

  Policy none = p;
  none.max_redirects = 0;
  test::expect_refused([&] { get(none, d.url("/a/b")); }, errc::upstream_failed,
                       "mais de 0 redirecionamentos");
}

TEST_CASE("HEAD returns the head only, whatever length it announces") {
  Destination d([](httplib::Server& s) {
    s.Get("/arquivo", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(5000, 'a'), "application/octet-stream");
    });
  });
  Request r;
  r.method = "HEAD";
  r.url = d.url("/arquivo");
  Response res = fetch(loopback_policy(), r);
  CHECK(res.status == 200);
  CHECK(res.body.empty());
  REQUIRE(res.header("Content-Length"));
  CHECK(*res.header("Content-Length") == "5000");
}

TEST_CASE("an answer delimited by the close of the connection is read to its end") {
  test::RawServer old("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n" +
                      std::string(30'000, 'v'));
  Response res = get(loopback_policy(), old.url("/antigo"));
  CHECK(res.status == 200);
  CHECK(res.body == std::string(30'000, 'v'));
}
