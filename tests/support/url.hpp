// Percent-encoding for building request URLs in the integration tests.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace cadastre::test {

/// Percent-encoding of a path segment or query value: only unreserved characters
/// (RFC 3986 §2.3) stay as they are.
inline std::string url(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace cadastre::test
