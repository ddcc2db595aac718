// One forwarded call: through the breaker of (name, destination host), over the upstream
// pool, back as a cadastre::http::Response carrying the destination's status, body and
// end-to-end headers, or the gateway's own 502 / 503 / 504 in the shared error shape.
// Every response leaving here carries X-Target-URL.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "cadastre/error.hpp"
#include "gateway/breakers.hpp"
#include "gateway/headers.hpp"
#include "gateway/upstream.hpp"
#include "gateway/url.hpp"
#include "http/http.hpp"

namespace cadastre::gateway {

/// X-Target-URL when the destination cannot be known (documented in docs/gateway.md).
inline constexpr const char* kNoTarget = "none";

struct Destination {
  std::string breaker;  ///< kBreakerRest or kBreakerTiles
  Url url;              ///< what is called (may hold a provider token)
  std::string display;  ///< X-Target-URL: the same address without secrets
};

/// The gateway's own error response with X-Target-URL.
http::Response gateway_error(errc code, std::string_view message, std::string_view target_url);

class Forwarder {
 public:
  using Log = std::function<void(const std::string& json_line)>;
  Forwarder(UpstreamPool& pool, Breakers& breakers, Log log);

  http::Response forward(const std::string& method, const Destination& d, HeaderList headers,
                         const std::string& request_id);

 private:
  UpstreamPool& pool_;
  Breakers& breakers_;
  Log log_;
};

}  // namespace cadastre::gateway
