// Request heads on the wire (src/http/request_head.hpp), byte by byte.
#include <doctest/doctest.h>

#include "http/request_head.hpp"

using namespace cadastre::http::wire;

namespace {

HeadParse parse(std::string_view bytes, RequestHead& h) {
  std::string reason;
  return parse_request_head(bytes, h, reason);
}

HeadParse parse(std::string_view bytes) {
  RequestHead h;
  return parse(bytes, h);
}

}  // namespace

TEST_CASE("a complete head gives method, target, version, fields and its size; the body follows") {
  RequestHead h;
  std::string bytes =
      "POST /geo/alfa/lote/?a=1 HTTP/1.1\r\nHost: gw\r\nContent-Length: 4\r\nX-Vazio:\r\n\r\nabcd";
  REQUIRE(parse(bytes, h) == HeadParse::complete);
  CHECK(h.method == "POST");
  CHECK(h.target == "/geo/alfa/lote/?a=1");
  CHECK(h.minor_version == 1);
  CHECK(h.size == bytes.size() - 4);
  CHECK(h.content_length == 4);
  CHECK(h.keep_alive);
  REQUIRE(h.headers.size() == 3);
  CHECK(h.headers[0] == std::pair<std::string, std::string>{"Host", "gw"});
  CHECK(h.headers[2] == std::pair<std::string, std::string>{"X-Vazio", ""});
}

TEST_CASE("a head cut anywhere is incomplete, and over 64 KiB too large") {
  std::string bytes = "GET /x HTTP/1.1\r\nHost: gw\r\n\r\n";
  for (std::size_t n = 0; n < bytes.size(); ++n)
    CHECK(parse(bytes.substr(0, n)) == HeadParse::incomplete);
  CHECK(parse(bytes) == HeadParse::complete);
  CHECK(parse("GET /x HTTP/1.1\r\nHost: gw\r\nX: " + std::string(kMaxRequestHeadBytes, 'a')) ==
        HeadParse::too_large);
  CHECK(parse("GET /x HTTP/1.1\r\nHost: gw\r\nX: " + std::string(kMaxRequestHeadBytes, 'a') +
              "\r\n\r\n") == HeadParse::too_large);
}

TEST_CASE("field values are trimmed of spaces and tabs; blank lines before a request are skipped") {
  RequestHead h;
  REQUIRE(parse("\r\n\r\nGET / HTTP/1.1\r\nHost:   gw \t\r\n\r\n", h) == HeadParse::complete);
  CHECK(h.headers[0].second == "gw");
  CHECK(h.size == std::string_view("\r\n\r\nGET / HTTP/1.1\r\nHost:   gw \t\r\n\r\n").size());
}

TEST_CASE("keep-alive follows the version and the Connection field") {
  RequestHead h;
  REQUIRE(parse("GET / HTTP/1.0\r\n\r\n", h) == HeadParse::complete);  // HTTP/1.0 needs no Host
  CHECK_FALSE(h.keep_alive);
  REQUIRE(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", h) == HeadParse::complete);
  CHECK(h.keep_alive);
  REQUIRE(parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: te, close\r\n\r\n", h) ==
          HeadParse::complete);
  CHECK_FALSE(h.keep_alive);
  REQUIRE(parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\n\r\n", h) ==
          HeadParse::complete);
  CHECK(h.keep_alive);
}

TEST_CASE("what two parsers could read differently is refused") {
  for (const char* bad : {
           "GET / HTTP/1.1\r\n\r\n",                                 // no Host
           "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n",           // two Hosts
           "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\tmore\r\n\r\n",  // obs-fold
           "GET / HTTP/1.1\r\nHost: a\r\nX-A : 1\r\n\r\n",           // space before colon
           "GET / HTTP/1.1\r\nHost: a\r\n: 1\r\n\r\n",               // empty name
           "GET / HTTP/1.1\r\nHost: a\r\nX-A 1\r\n\r\n",             // no colon
           "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r2\r\n\r\n",         // bare CR in a value
           "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n",
           "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n",
           "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n",
           "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
           "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 2\r\n\r\n",
           "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
           "GET / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n",
           "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",  // two spaces
           "GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
           "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",             // not a token
           "GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n",  // absolute-form
           "GET * HTTP/1.1\r\nHost: a\r\n\r\n",             // * only for OPTIONS
           "GET /a\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
           "GET / HTTP/1.x\r\nHost: a\r\n\r\n",
           "GET / http/1.1\r\nHost: a\r\n\r\n",
       }) {
    CAPTURE(bad);
    CHECK(parse(bad) == HeadParse::bad);
  }
}

TEST_CASE("equal repeated lengths are one length; OPTIONS * is accepted; other versions are 505") {
  RequestHead h;
  REQUIRE(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\n",
                h) == HeadParse::complete);
  CHECK(h.content_length == 2);
  CHECK(parse("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n") == HeadParse::complete);
  CHECK(parse("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == HeadParse::bad_version);
  CHECK(parse("GET / HTTP/1.2\r\nHost: a\r\n\r\n") == HeadParse::bad_version);
  REQUIRE(parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nExpect: "
                "100-continue\r\n\r\n",
                h) == HeadParse::complete);
  CHECK(h.transfer_encoding);
  CHECK(h.expect_continue);
}

TEST_CASE("over 100 fields is too large") {
  std::string bytes = "GET / HTTP/1.1\r\nHost: a\r\n";
  for (int i = 0; i < 99; ++i) bytes += "X-" + std::to_string(i) + ": 1\r\n";
  CHECK(parse(bytes + "\r\n") == HeadParse::complete);
  CHECK(parse(bytes + "X-Um-A-Mais: 1\r\n\r\n") == HeadParse::too_large);
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
