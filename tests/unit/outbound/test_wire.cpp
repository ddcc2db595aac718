#include <doctest/doctest.h>

#include "outbound/wire.hpp"

using namespace cadastre::outbound::wire;

namespace {

ResponseHead parse_ok(std::string_view bytes, std::string_view method = "GET") {
  ResponseHead h;
  REQUIRE(parse_response_head(bytes, method, h) == HeadResult::complete);
  return h;
}

HeadResult parse(std::string_view bytes, std::string_view method = "GET") {
  ResponseHead h;
  return parse_response_head(bytes, method, h);
}

}  // namespace

TEST_CASE("the request head carries Host, the headers, identity encoding unless the caller chose one, and the body length") {
  CHECK(request_head("GET", "127.0.0.1:8080", "/alfa/lote/?limit=2", {{"X-Request-Id", "r1"}}, 0, "") ==
        "GET /alfa/lote/?limit=2 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Request-Id: r1\r\n"
        "Accept-Encoding: identity\r\n\r\n");
  CHECK(request_head("POST", "h", "/t", {}, 2, "application/json") ==
        "POST /t HTTP/1.1\r\nHost: h\r\nAccept-Encoding: identity\r\nContent-Type: application/json\r\n"
        "Content-Length: 2\r\n\r\n");
  // The caller's choice of codings goes on instead of identity.
  CHECK(request_head("GET", "h", "/t", {{"Accept-Encoding", "gzip, br"}}, 0, "") ==
        "GET /t HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip, br\r\n\r\n");
  // An empty PUT still says it has no body, so the destination does not wait for one.
  CHECK(request_head("PUT", "h", "/t", {}, 0, "").find("Content-Length: 0\r\n") != std::string::npos);
}

TEST_CASE("a response head with Content-Length is framed by length and keeps the connection") {
  std::string bytes = "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello";
  ResponseHead h = parse_ok(bytes);
  CHECK(h.status == 201);
  CHECK(h.size == bytes.size() - 5);
  CHECK(h.framing == Framing::length);
  CHECK(h.content_length == 5);
  CHECK(h.keep_alive);
  REQUIRE(h.headers.size() == 2);
  CHECK(h.headers[0] == std::pair<std::string, std::string>{"Content-Type", "text/plain"});
}

TEST_CASE("a head split anywhere is incomplete until its blank line arrives") {
  std::string bytes = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) CHECK(parse(bytes.substr(0, cut)) == HeadResult::incomplete);
  CHECK(parse(bytes) == HeadResult::complete);
  CHECK(parse_ok("HTTP/1.1 200 OK\nContent-Length: 0\n\n").framing == Framing::length);  // bare LFs
}

TEST_CASE("framing follows RFC 9112: HEAD, 1xx, 204 and 304 have no body; chunked wins over a length") {
  CHECK(parse_ok("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", "HEAD").framing == Framing::none);
  CHECK(parse_ok("HTTP/1.1 204 No Content\r\n\r\n").framing == Framing::none);
  CHECK(parse_ok("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n").framing == Framing::none);
  CHECK(parse_ok("HTTP/1.1 100 Continue\r\n\r\n").framing == Framing::none);
  auto both = parse_ok("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n");
  CHECK(both.framing == Framing::chunked);
  CHECK_FALSE(both.keep_alive);  // a message with both is suspect: do not reuse the connection
  auto gzip_then_chunked = parse_ok("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n");
  CHECK(gzip_then_chunked.framing == Framing::chunked);
  auto neither = parse_ok("HTTP/1.1 200 OK\r\n\r\n");
  CHECK(neither.framing == Framing::until_close);
  CHECK_FALSE(neither.keep_alive);
}

TEST_CASE("Connection decides reuse: close in 1.1, keep-alive needed in 1.0") {
  CHECK_FALSE(parse_ok("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").keep_alive);
  CHECK_FALSE(parse_ok("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").keep_alive);
  CHECK(parse_ok("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n").keep_alive);
}

TEST_CASE("malformed heads are refused: status line, header syntax, lengths, size") {
  CHECK(parse("HTTP/2 200 OK\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 20 OK\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 2000 OK\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 200 OK\r\nA: 1\r\n folded\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") == HeadResult::malformed);
  CHECK(parse("HTTP/1.1 200 OK\r\nX: " + std::string(kMaxHeadBytes, 'a')) == HeadResult::malformed);
  // Repeating the same length is allowed (RFC 9110 §8.6).
  CHECK(parse_ok("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n").content_length == 5);
}

TEST_CASE("the chunked decoder yields the payload, drops extensions and trailers, and stops at the end") {
  const std::string body = "4\r\nWiki\r\n5;name=value\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n";
  const std::string next = "HTTP/1.1 200 OK\r\n";
  ChunkedDecoder whole;
  std::string out;
  CHECK(whole.feed(body + next, out) == body.size());
  CHECK(whole.done());
  CHECK(out == "Wikipedia in\r\n\r\nchunks.");

  ChunkedDecoder bytewise;  // the same bytes one at a time
  std::string out2;
  for (char c : body) CHECK(bytewise.feed(std::string_view(&c, 1), out2) == 1);
  CHECK(bytewise.done());
  CHECK(out2 == out);
}

TEST_CASE("the chunked decoder fails on a bad size or missing CRLF after the data") {
  std::string out;
  ChunkedDecoder bad_size;
  bad_size.feed("zz\r\n", out);
  CHECK(bad_size.failed());
  ChunkedDecoder missing_crlf;
  missing_crlf.feed("3\r\nabcX", out);
  CHECK(missing_crlf.failed());
  ChunkedDecoder huge;
  huge.feed("1000000000000000\r\n", out);  // 16 hex digits: over 2^60
  CHECK(huge.failed());
}
