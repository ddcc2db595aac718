// What the engine checks in a request head on top of Beast's parser
// (src/http/request_head.hpp), and the decoding of targets. The whole head pipeline is
// exercised byte by byte over sockets in tests/integration/hostile.
#include <doctest/doctest.h>

#include "http/request_head.hpp"

using namespace cadastre::http::wire;

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

HeadCheck check(std::string_view raw, std::string_view method, std::string_view target,
                const Fields& fields, int version = 11, std::size_t max_fields = 100) {
  return check_head(HeadView{raw, method, target, version, &fields}, max_fields);
}

const Fields kHost = {{"Host", "a"}};

}  // namespace

TEST_CASE("a plain head passes; Expect: 100-continue is noted") {
  CHECK(check("GET / HTTP/1.1\r\nHost: a\r\n\r\n", "GET", "/", kHost).status == 0);
  Fields fields = {{"Host", "a"}, {"Expect", "100-Continue"}, {"Transfer-Encoding", "chunked"}};
  HeadCheck c = check("POST / HTTP/1.1\r\n...\r\n\r\n", "POST", "/", fields);
  CHECK(c.status == 0);
  CHECK(c.expect_continue);
}

TEST_CASE("a folded field line is refused, though Beast would join it") {
  HeadCheck c = check("GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\tmais\r\n\r\n", "GET", "/",
                      {{"Host", "a"}, {"X-A", "1 mais"}});
  CHECK(c.status == 400);
  CHECK(c.reason.find("obs-fold") != std::string::npos);
  CHECK(check("GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n mais\r\n\r\n", "GET", "/", kHost).status ==
        400);
}

TEST_CASE("HTTP/1.1 needs exactly one Host; HTTP/1.0 at most one") {
  CHECK(check("", "GET", "/", {}).status == 400);
  CHECK(check("", "GET", "/", {{"Host", "a"}, {"host", "b"}}).status == 400);
  CHECK(check("", "GET", "/", {}, 10).status == 0);
  CHECK(check("", "GET", "/", {{"Host", "a"}, {"Host", "a"}}, 10).status == 400);
}

TEST_CASE("a transfer coding other than exactly chunked is refused") {
  for (const char* te : {"gzip, chunked", "chunked, gzip", "xchunked", "identity"}) {
    CAPTURE(te);
    CHECK(check("", "POST", "/", {{"Host", "a"}, {"Transfer-Encoding", te}}).status == 400);
  }
  CHECK(check("", "POST", "/", {{"Host", "a"}, {"Transfer-Encoding", " Chunked "}}).status == 0);
}

TEST_CASE("only origin-form targets, and * for OPTIONS alone") {
  CHECK(check("", "GET", "http://evil/", kHost).status == 400);
  CHECK(check("", "GET", "*", kHost).status == 400);
  CHECK(check("", "GET", "", kHost).status == 400);
  CHECK(check("", "OPTIONS", "*", kHost).status == 0);
}

TEST_CASE("an expectation other than 100-continue is 417") {
  CHECK(check("", "GET", "/", {{"Host", "a"}, {"Expect", "200-ok"}}).status == 417);
}

TEST_CASE("more fields than the limit is 431") {
  Fields fields = kHost;
  for (int i = 0; i < 99; ++i) fields.emplace_back("X-" + std::to_string(i), "1");
  CHECK(check("", "GET", "/", fields).status == 0);
  fields.emplace_back("X-Um-A-Mais", "1");
  CHECK(check("", "GET", "/", fields).status == 431);
}

TEST_CASE("a request line naming HTTP/2 or HTTP/0.9 is told apart from garbage") {
  CHECK(names_other_http_version("GET / HTTP/2.0\r\nHost: a\r\n"));
  CHECK(names_other_http_version("GET / HTTP/3\r\n"));
  CHECK_FALSE(names_other_http_version("GET / HTTP/1.x\r\n"));
  CHECK_FALSE(names_other_http_version("GET / http/2.0\r\n"));
  CHECK_FALSE(names_other_http_version("lixo"));
}

TEST_CASE("percent-decoding: escapes, '+' only in queries, invalid escapes kept") {
  CHECK(percent_decode("/lote/S%C3%A3o%20Paulo/", false) == "/lote/São Paulo/");
  CHECK(percent_decode("a+b", false) == "a+b");
  CHECK(percent_decode("a+b", true) == "a b");
  CHECK(percent_decode("%zz%4", false) == "%zz%4");
  CHECK(percent_decode("%2e%2E%2f", false) == "../");
  CHECK(percent_decode("%", true) == "%");
}

TEST_CASE("a query string becomes decoded fields in order, empty ones skipped") {
  auto q = parse_query("a=1&b=x+y&&c&d=%26%3D&a=2");
  REQUIRE(q.size() == 5);
  CHECK(q[0] == std::pair<std::string, std::string>{"a", "1"});
  CHECK(q[1] == std::pair<std::string, std::string>{"b", "x y"});
  CHECK(q[2] == std::pair<std::string, std::string>{"c", ""});
  CHECK(q[3] == std::pair<std::string, std::string>{"d", "&="});
  CHECK(q[4] == std::pair<std::string, std::string>{"a", "2"});
  CHECK(parse_query("").empty());
}
