// cadastre_outbound: HTTP calls from the services to servers outside the platform (the
// platform's /proxy routes, a city's authentication service, WMS capabilities and maps)
// under SSRF rules. A URL that came from a caller must not become a way into the
// platform's own network, so every call, and every redirect it follows:
//
// 1. is refused unless its scheme is http/https, it carries no user info and its host is on
//    Policy::allowed_hosts (odd numeric spellings such as 0x7f000001 are refused outright);
// 2. resolves the host and refuses the call if ANY resolved address is special-purpose
//    (loopback, private, link-local, CGNAT, multicast..., see special_purpose()) outside
//    Policy::allowed_networks;
// 3. connects to one of those checked addresses itself, never resolving the name again (so
//    a DNS answer that changes between check and use, "DNS rebinding", gains nothing),
//    sending the original name as Host and, for https, as SNI, and verifying the
//    certificate against that name (system CAs plus Policy::ca_file, TLS ≥ 1.2);
// 4. stops at Policy::max_bytes of body (an announced larger Content-Length is refused
//    before the body is read), Policy::connect_timeout per address and
//    Policy::total_timeout for everything, redirects and name resolution included.
//
// One call, one connection ("Connection: close"): the destinations are slow external
// servers, where a pool buys little. The HTTP/1.1 parsing is outbound/wire.hpp, shared with
// the gateway's upstream client. TLS writes may raise SIGPIPE when the server has closed;
// the services ignore it (cli/serve.hpp).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cadastre/error.hpp"
#include "outbound/policy.hpp"
#include "outbound/wire.hpp"

namespace cadastre::outbound {

struct Request {
  std::string method = "GET";
  std::string url;  ///< absolute http(s) URL
  /// Sent as given, except Host, Content-Length, Transfer-Encoding and Connection, which
  /// the client writes itself. Accept-Encoding defaults to identity, User-Agent to
  /// "libcadastre". On a redirect to another scheme, host or port, Authorization, Cookie
  /// and Proxy-Authorization are dropped.
  HeaderList headers;
  std::string body;          ///< sent with Content-Length (POST, PUT and PATCH always carry one)
  std::string content_type;  ///< of `body`; none when empty
};

struct Response {
  int status = 0;
  /// As the server sent them, names as written. The body is already de-chunked, so a
  /// caller passing them on drops the hop-by-hop ones (Transfer-Encoding, Connection...).
  HeaderList headers;
  std::string body;       ///< whole; still encoded if the caller asked for a Content-Encoding
  std::string final_url;  ///< the URL that answered, after redirects

  /// The first value of header `name` (case-insensitive), or nullptr.
  const std::string* header(std::string_view name) const noexcept;
};

/// Performs the call under `policy`, following up to policy.max_redirects redirects (301,
/// 302, 303, 307, 308 with a Location; 303, and 301/302 after a POST, continue as GET
/// without the body, like browsers). Any status the server answers is returned, a 3xx
/// without Location included. Throws cadastre::Error:
/// - errc::forbidden (403): the URL, a redirect or a resolved address is not allowed; the
///   message says which rule refused it;
/// - errc::invalid_argument (400, field "url" or "headers"): malformed URL, method or
///   header (a CR or LF in a value would forge headers);
/// - errc::upstream_failed (502): name not resolved, connection refused, TLS or certificate
///   failure, a broken or malformed answer, a body over max_bytes, too many redirects, a
///   redirect to a malformed URL;
/// - errc::upstream_timeout (504): connect_timeout on every address, or total_timeout.
Response fetch(const Policy& policy, const Request& request);

}  // namespace cadastre::outbound
