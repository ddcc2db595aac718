// HTTP/1.1 requests on the wire, for the server's own connection loop (listener.cpp): the
// request head (RFC 9112 §2–3, §6) and the decoding of the request-target into a path and
// query fields. Pure functions over bytes, unit-tested without sockets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cadastre::http::wire {

/// Largest request head accepted (request line and header fields); beyond it: 431.
inline constexpr std::size_t kMaxRequestHeadBytes = 64 * 1024;
/// Most header fields accepted in one request; beyond it: 431.
inline constexpr std::size_t kMaxRequestHeaders = 100;

struct RequestHead {
  std::string method;
  std::string target;     ///< as sent: "/path?query" (or "*" for OPTIONS)
  int minor_version = 1;  ///< HTTP/1.<minor>
  std::vector<std::pair<std::string, std::string>> headers;
  std::size_t size = 0;  ///< bytes of the head, blank line included (leading blank lines too)
  std::uint64_t content_length = 0;
  bool transfer_encoding = false;  ///< the body uses a transfer coding (the loop asks for a length)
  bool keep_alive = true;          ///< the client allows another request on the connection
  bool expect_continue = false;    ///< Expect: 100-continue
};

enum class HeadParse {
  complete,     ///< `out` holds the head; the body (if any) starts at out.size
  incomplete,   ///< need more bytes
  bad,          ///< 400: `reason` says what is wrong
  too_large,    ///< 431: head over kMaxRequestHeadBytes or kMaxRequestHeaders
  bad_version,  ///< 505: not HTTP/1.0 or HTTP/1.1
};

/// Parses the head at the start of `bytes`. Strict where leniency lets two parsers disagree
/// (request smuggling): no whitespace before a field's colon, no folded lines, one Host in
/// HTTP/1.1, Content-Length digits only and consistent, never both Content-Length and
/// Transfer-Encoding.
HeadParse parse_request_head(std::string_view bytes, RequestHead& out, std::string& reason);

/// Decodes %XX escapes (an invalid escape stays as written); with `plus_is_space` a '+'
/// becomes a space, as in form-encoded query strings.
std::string percent_decode(std::string_view s, bool plus_is_space);

/// The decoded fields of a query string ("a=1&b=x+y&c" → a:1, b:"x y", c:""), in order.
std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query);

}  // namespace cadastre::http::wire
