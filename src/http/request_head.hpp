// HTTP/1.1 requests on the wire, beyond what Boost.Beast's parser checks (listener.cpp):
// the strictness that keeps two parsers from disagreeing about where a request ends
// (request smuggling, RFC 9112 §6.3, §11.2), and the decoding of the request-target into
// a path and query fields. Pure functions over text, unit-tested without sockets.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cadastre::http::wire {

/// A request head as Beast parsed it, with the bytes it was parsed from.
struct HeadView {
  std::string_view raw;  ///< the head's bytes, request line to the blank line
  std::string_view method;
  std::string_view target;  ///< as sent
  int version = 11;         ///< 10 or 11
  const std::vector<std::pair<std::string, std::string>>* fields = nullptr;
};

/// What check_head decided.
struct HeadCheck {
  int status = 0;                ///< 0: acceptable; else 400, 417 or 431
  std::string reason;            ///< for the error body (Portuguese)
  bool expect_continue = false;  ///< the client waits for "100 Continue" before the body
};

/// Refuses, on top of Beast: folded field lines (obs-fold), a missing or repeated Host in
/// HTTP/1.1, a Transfer-Encoding other than exactly "chunked", a target that is not
/// origin-form ("*" only for OPTIONS), an Expect other than 100-continue, and more than
/// `max_fields` fields (431).
HeadCheck check_head(const HeadView& head, std::size_t max_fields);

/// For a request line Beast refused as "bad version": true when it names an HTTP version
/// other than 1.x, which deserves 505 rather than 400.
bool names_other_http_version(std::string_view request_start);

/// Decodes %XX escapes (an invalid escape stays as written); with `plus_is_space` a '+'
/// becomes a space, as in form-encoded query strings.
std::string percent_decode(std::string_view s, bool plus_is_space);

/// The decoded fields of a query string ("a=1&b=x+y&c" → a:1, b:"x y", c:""), in order.
std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query);

}  // namespace cadastre::http::wire
