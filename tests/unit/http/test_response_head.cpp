// Responses on the wire (src/http/response_head.hpp): framing and fields.
#include <doctest/doctest.h>

#include "http/response_head.hpp"

using namespace cadastre::http;
using namespace cadastre::http::wire;

TEST_CASE("an in-memory body is framed by its length; Connection follows keep-alive and version") {
  Response r = Response::json("{\"a\":1}");
  const std::string h = response_head(r, framing_for("GET", r, 1), true, 1);
  CHECK(h.rfind("HTTP/1.1 200 OK\r\nDate: ", 0) == 0);
  CHECK(h.find("\r\nContent-Type: application/json; charset=utf-8") != std::string::npos);
  CHECK(h.find("\r\nContent-Length: 7\r\n") != std::string::npos);
  CHECK(h.find("Connection") == std::string::npos);
  CHECK(h.substr(h.size() - 4) == "\r\n\r\n");
  CHECK(response_head(r, framing_for("GET", r, 1), false, 1).find("\r\nConnection: close\r\n") !=
        std::string::npos);
  CHECK(
      response_head(r, framing_for("GET", r, 0), true, 0).find("\r\nConnection: keep-alive\r\n") !=
      std::string::npos);
}

TEST_CASE(
    "a stream of unknown length is chunked for HTTP/1.1 and closes the connection for HTTP/1.0") {
  Response r;
  r.stream = [](const Response::BodyWriter&) { return true; };
  const Framing f11 = framing_for("GET", r, 1);
  CHECK(f11.chunked);
  CHECK(response_head(r, f11, true, 1).find("Transfer-Encoding: chunked") != std::string::npos);
  const Framing f10 = framing_for("GET", r, 0);
  CHECK(f10.close_delimited);
  const std::string h10 = response_head(r, f10, true, 0);
  CHECK(h10.find("Content-Length") == std::string::npos);
  CHECK(h10.find("Connection: close") != std::string::npos);
  r.stream_length = 42;
  CHECK(response_head(r, framing_for("GET", r, 1), true, 1).find("Content-Length: 42") !=
        std::string::npos);
}

TEST_CASE("HEAD and 204/304 send no body; a HEAD may state the length it stands for") {
  Response r = Response::json("{\"a\":1}");
  const Framing head = framing_for("HEAD", r, 1);
  CHECK(head.head_only);
  CHECK(response_head(r, head, true, 1).find("Content-Length: 7") != std::string::npos);
  r.headers.set("Content-Length", "99");
  CHECK(response_head(r, head, true, 1).find("Content-Length: 99") != std::string::npos);
  Response none = Response::no_content();
  const std::string h = response_head(none, framing_for("GET", none, 1), true, 1);
  CHECK(h.find("Content-Length") == std::string::npos);
  CHECK(h.find("Content-Type") == std::string::npos);
}

TEST_CASE("fields a handler sets cannot split the response or override the framing") {
  Response r = Response::json("{}");
  r.headers.set("X-Injetado", "a\r\nSet-Cookie: x=1");
  r.headers.set("Content-Length", "999");
  r.headers.set("Transfer-Encoding", "chunked");
  r.headers.set("Connection", "keep-alive");
  const std::string h = response_head(r, framing_for("GET", r, 1), false, 1);
  CHECK(h.find("Set-Cookie") == std::string::npos);
  CHECK(h.find("999") == std::string::npos);
  CHECK(h.find("Transfer-Encoding") == std::string::npos);
  CHECK(h.find("Content-Length: 2") != std::string::npos);
  CHECK(h.find("Connection: close") != std::string::npos);
  CHECK(h.find("keep-alive") == std::string::npos);
}

TEST_CASE("reason phrases come from the table, with a class fallback") {
  CHECK(std::string(reason_phrase(431)) == "Request Header Fields Too Large");
  CHECK(std::string(reason_phrase(417)) == "Expectation Failed");
  CHECK(std::string(reason_phrase(499)) == "Bad Request");
}
