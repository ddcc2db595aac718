// The router's precedence and the route table's own rules, on hand-checked cases:
// literal beats parameter beats wildcard, compared left to right; a trailing slash is not
// significant; HEAD is served by GET; a path served only by other methods lists them
// (405); http::Access describes itself; Server::add refuses inconsistent entries.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "http/router.hpp"
#include "http/server.hpp"

using namespace cadastre;
using http::Access;
using http::Route;
using http::Router;
using Strings = std::vector<std::string>;

namespace {

Route route(std::string method, std::string pattern) {
  Route r;
  r.method = std::move(method);
  r.pattern = std::move(pattern);
  r.auth = "none";
  return r;
}

Router router_of(std::initializer_list<std::pair<const char*, const char*>> routes) {
  Router r;
  for (const auto& [method, pattern] : routes) r.add(route(method, pattern));
  return r;
}

/// The pattern `method path` reaches ("" when none).
std::string pattern(const Router& r, const char* method, const char* path) {
  auto m = r.match(method, path);
  return m.route ? m.route->pattern : "";
}

}  // namespace

TEST_CASE("split_path keeps the non-empty segments") {
  CHECK(http::split_path("/a/b/") == std::vector<std::string_view>{"a", "b"});
  CHECK(http::split_path("a//b") == std::vector<std::string_view>{"a", "b"});
  CHECK(http::split_path("/").empty());
  CHECK(http::split_path("").empty());
}

TEST_CASE("a literal segment beats a parameter, which beats a wildcard") {
  auto r = router_of({{"GET", "/a/{x}/"}, {"GET", "/a/b/"}, {"GET", "/a/{rest*}"}});
  CHECK(pattern(r, "GET", "/a/b/") == "/a/b/");
  CHECK(pattern(r, "GET", "/a/c/") == "/a/{x}/");
  CHECK(pattern(r, "GET", "/a/b/c") == "/a/{rest*}");  // two segments: only the wildcard fits
  CHECK(pattern(r, "GET", "/a/") == "");               // each kind needs at least one segment

  auto m = r.match("GET", "/a/c/");
  CHECK(m.params == std::map<std::string, std::string>{{"x", "c"}});
  auto w = r.match("GET", "/a/b/c/d/");
  CHECK(w.params == std::map<std::string, std::string>{{"rest", "b/c/d"}});
}

TEST_CASE("the order the routes were added in does not matter") {
  auto r = router_of({{"GET", "/a/{rest*}"}, {"GET", "/a/b/"}, {"GET", "/a/{x}/"}});
  CHECK(pattern(r, "GET", "/a/b") == "/a/b/");
  CHECK(pattern(r, "GET", "/a/c") == "/a/{x}/");
  CHECK(pattern(r, "GET", "/a/b/c") == "/a/{rest*}");
}

TEST_CASE("segments are compared left to right: the first difference decides") {
  // /a/x fits both. Scores by segment: /{m}/x/ = (param, literal), /a/{c}/ = (literal,
  // param); the first segment decides, so the literal "a" wins although "x" is literal too.
  auto r = router_of({{"GET", "/{m}/x/"}, {"GET", "/a/{c}/"}});
  auto m = r.match("GET", "/a/x");
  REQUIRE(m.route);
  CHECK(m.route->pattern == "/a/{c}/");
  CHECK(m.params.at("c") == "x");
  CHECK(pattern(r, "GET", "/b/x") == "/{m}/x/");
  CHECK(pattern(r, "GET", "/b/y") == "");

  // The shapes the services use: a prefix route beats /{municipio}/{camada}/...
  auto s =
      router_of({{"GET", "/{municipio}/{camada}/{id}/"}, {"GET", "/geo/{municipio}/{camada}/"}});
  CHECK(pattern(s, "GET", "/geo/alfa/lote/") == "/geo/{municipio}/{camada}/");
  CHECK(pattern(s, "GET", "/alfa/lote/1/") == "/{municipio}/{camada}/{id}/");
  // ... and a parameter beats a wildcard only where they differ.
  auto t = router_of({{"GET", "/t/{a}/{rest*}"}, {"GET", "/t/{rest*}"}});
  CHECK(pattern(t, "GET", "/t/1/2") == "/t/{a}/{rest*}");
  CHECK(pattern(t, "GET", "/t/1") == "/t/{rest*}");
}

TEST_CASE("a trailing slash is not significant, in the pattern or in the path") {
  auto r = router_of({{"GET", "/health-check/"}, {"GET", "/metrics"}});
  CHECK(pattern(r, "GET", "/health-check/") == "/health-check/");
  CHECK(pattern(r, "GET", "/health-check") == "/health-check/");
  CHECK(pattern(r, "GET", "/metrics") == "/metrics");
  CHECK(pattern(r, "GET", "/metrics/") == "/metrics");
  CHECK(pattern(r, "GET", "/metrics/x") == "");
}

TEST_CASE("HEAD is served by the GET route") {
  auto r = router_of({{"GET", "/a/{x}/"}, {"POST", "/a/{x}/"}});
  auto m = r.match("HEAD", "/a/1/");
  REQUIRE(m.route);
  CHECK(m.route->method == "GET");
  CHECK(m.params.at("x") == "1");
  CHECK(r.match("POST", "/a/1/").route->method == "POST");
}

TEST_CASE(
    "the best route of the request's method wins even when another method's is more specific") {
  auto r = router_of({{"GET", "/g/{rest*}"}, {"POST", "/g/x"}});
  CHECK(r.match("GET", "/g/x").route->pattern == "/g/{rest*}");
  CHECK(r.match("POST", "/g/x").route->pattern == "/g/x");
  CHECK(r.match("POST", "/g/y").route == nullptr);
}

TEST_CASE("a path served only by other methods lists them, with HEAD after GET and OPTIONS last") {
  auto r = router_of(
      {{"GET", "/r/{id}"}, {"POST", "/r/{id}"}, {"PUT", "/r/especial"}, {"DELETE", "/s/"}});
  auto m = r.match("DELETE", "/r/1");
  CHECK(m.route == nullptr);
  CHECK(m.allowed == Strings{"GET", "POST", "HEAD", "OPTIONS"});
  // Only the methods of the most specific matching pattern: /r/especial is PUT alone.
  auto lit = r.match("DELETE", "/r/especial");
  CHECK(lit.route == nullptr);
  CHECK(lit.allowed == Strings{"PUT", "OPTIONS"});
  auto s = r.match("GET", "/s");
  CHECK(s.route == nullptr);
  CHECK(s.allowed == Strings{"DELETE", "OPTIONS"});
  // Nothing matches: no route and no methods (a 404, not a 405).
  auto none = r.match("GET", "/nada/aqui");
  CHECK(none.route == nullptr);
  CHECK(none.allowed.empty());
}

TEST_CASE("the router refuses malformed and duplicate patterns") {
  Router r;
  r.add(route("GET", "/a/{x}/"));
  CHECK_THROWS_AS(r.add(route("GET", "/a/{y}")), std::invalid_argument);  // same shape, other name
  CHECK_NOTHROW(r.add(route("POST", "/a/{y}/")));                         // another method
  CHECK_NOTHROW(r.add(route("GET", "/a/{y*}")));  // a wildcard is another shape
  CHECK_THROWS_AS(r.add(route("GET", "a/b")), std::invalid_argument);
  CHECK_THROWS_AS(r.add(route("GET", "")), std::invalid_argument);
  CHECK_THROWS_AS(r.add(route("GET", "/{rest*}/b")), std::invalid_argument);
  CHECK(r.routes().size() == 3);
}

TEST_CASE("http::Access names its layer parameter and describes itself") {
  CHECK(http::reads("{camada}").layer_param() == "camada");
  CHECK(http::writes("{campo}").layer_param() == "campo");
  CHECK(http::reads("lote").layer_param().empty());
  CHECK(http::reads("{}").layer_param().empty());
  CHECK(http::reads("{camada").layer_param().empty());
  CHECK(http::admins().layer_param().empty());
  CHECK(Access{}.layer_param().empty());

  CHECK(Access{}.describe().empty());
  CHECK(http::reads("lote").describe() == "leitura na camada lote");
  CHECK(http::writes("agenda").describe() == "escrita na camada agenda");
  CHECK(http::reads("{camada}").describe() == "leitura na camada {camada}");
  CHECK(http::admins().describe() == "administrador do município");
  CHECK(http::admins().kind == Access::Kind::admin);
  CHECK(http::writes("x").write);
  CHECK_FALSE(http::reads("x").write);
}

namespace {
std::ostringstream quiet_log;

struct TestServer {
  http::Server server{{"teste", "1", "", "/openapi.json", "teste"}, [] {
                        http::ServerOptions o;
                        o.access_log = false;
                        o.log = &quiet_log;
                        return o;
                      }()};
  TestServer() {
    server.add_auth_scheme(
        {"bearer", R"({"type":"http","scheme":"bearer"})", [](http::Request&, const Route&) {}});
  }
};

Route served(std::string method, std::string pattern, std::string auth, Access access = {}) {
  Route r = route(std::move(method), std::move(pattern));
  r.auth = std::move(auth);
  r.access = std::move(access);
  r.handler = [](http::Request& req) {
    return http::Response::json("{\"rota\":\"" + req.route + "\",\"metodo\":\"" + req.method +
                                "\"}");
  };
  return r;
}
}  // namespace

TEST_CASE("Server::add refuses a public route with a permission") {
  TestServer t;
  CHECK_THROWS_AS(t.server.add(served("GET", "/x/", "none", http::reads("lote"))),
                  std::invalid_argument);
  CHECK_THROWS_AS(t.server.add(served("GET", "/y/", "none", http::admins())),
                  std::invalid_argument);
  CHECK_NOTHROW(t.server.add(served("GET", "/z/", "none")));
  CHECK_NOTHROW(t.server.add(served("GET", "/x/", "bearer", http::reads("lote"))));
}

TEST_CASE("Server::add refuses a permission naming a path parameter the pattern lacks") {
  TestServer t;
  CHECK_THROWS_AS(t.server.add(served("GET", "/x/{municipio}/", "bearer", http::reads("{camada}"))),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      t.server.add(served("PUT", "/x/{municipio}/{camadas}/", "bearer", http::writes("{camada}"))),
      std::invalid_argument);
  CHECK_NOTHROW(
      t.server.add(served("GET", "/x/{municipio}/{camada}/", "bearer", http::reads("{camada}"))));
  // And an auth scheme nobody registered.
  CHECK_THROWS_AS(t.server.add(served("GET", "/w/", "basic")), std::invalid_argument);
}

TEST_CASE("Server::handle answers HEAD with the GET route and 405 with Allow") {
  TestServer t;
  t.server.add(served("GET", "/r/{id}/", "none"));
  t.server.add(served("POST", "/r/{id}/", "none"));
  http::Request head;
  head.method = "HEAD";
  head.path = "/r/1";
  auto h = t.server.handle(head);
  CHECK(h.status == 200);
  CHECK(head.route == "/r/{id}/");

  http::Request del;
  del.method = "DELETE";
  del.path = "/r/1/";
  auto d = t.server.handle(del);
  CHECK(d.status == 405);
  REQUIRE(d.headers.find("Allow"));
  CHECK(*d.headers.find("Allow") == "GET, POST, HEAD, OPTIONS");

  http::Request none;
  none.method = "GET";
  none.path = "/nada";
  auto n = t.server.handle(none);
  CHECK(n.status == 404);
  CHECK(n.headers.find("Allow") == nullptr);
}
