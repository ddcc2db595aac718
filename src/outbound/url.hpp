// The URLs an outbound call may be given: absolute http(s) URLs, parsed strictly enough
// that the host the allow-list judges is the host that gets called. A second parser would
// read "http://a.gov.br\@127.0.0.1/" or "http://0x7f000001/" its own way; here they are
// refused before any name is resolved.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::outbound {

/// An absolute http(s) URL, split for the call.
struct Target {
  std::string scheme;  ///< "http" or "https"
  std::string host;    ///< lowercase, without a trailing dot; IPv6 without brackets
  int port = 0;
  std::string target;    ///< the request-target: encoded path and query, "/" at least
  bool literal = false;  ///< the host is an IP address, not a name

  /// host[:port] as the Host header carries it (IPv6 in brackets, default port omitted).
  std::string authority() const;
  /// scheme://authority/target, without a fragment.
  std::string str() const;
};

/// Parses `url` (fragment dropped; spaces, control and non-ASCII bytes of path and query
/// percent-encoded). Throws cadastre::Error:
/// - errc::forbidden for a scheme other than http/https, user info ("user@host"), or a
///   numeric host in anything but its canonical form ("0x7f000001", "2130706433",
///   "0177.0.0.1", "127.1": resolvers read them as addresses, allow-lists as names);
/// - errc::invalid_argument (field "url") for anything malformed: no scheme or "//", an
///   empty or invalid host (percent-escapes, backslashes, non-ASCII names, IPv6 zones), a
///   bad port.
Target parse_target(std::string_view url);

/// The absolute URL a redirect's Location names, resolved against the URL that answered
/// (RFC 3986 §5.2: absolute, "//host/…", "/path", "?query", "relative/path", with "." and
/// ".." segments of relative references removed). Not checked: parse_target() does that.
std::string resolve_reference(const Target& base, std::string_view reference);

}  // namespace cadastre::outbound
