// The client's address behind reverse proxies. A request's peer is the proxy when the
// services run behind HAProxy, nginx or the gateway; the proxy names the client in
// X-Forwarded-For. That header is believed only from configured proxies
// (ListenerOptions::trusted_proxies, --trusted-proxies), since any client can send it:
// the address is the right-most one in the chain that is not itself a trusted proxy. Every
// per-address limit (login throttles, sign-ups, ombudsman filings) keys on it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::http {

class TrustedProxies {
 public:
  /// Addresses ("10.0.0.5", "::1") and networks ("10.0.0.0/8", "fd00::/8"). Throws
  /// std::invalid_argument naming a malformed one.
  explicit TrustedProxies(const std::vector<std::string>& entries);
  ~TrustedProxies();
  TrustedProxies(TrustedProxies&&) noexcept;
  TrustedProxies& operator=(TrustedProxies&&) noexcept;

  bool empty() const noexcept;
  bool trusts(std::string_view address) const;

  /// The client's address: `peer` unless it is trusted; then, walking `forwarded_for` (the
  /// X-Forwarded-For values in arrival order, each a comma-separated list) from the right,
  /// the first address that is not trusted. A malformed entry stops the walk: the address
  /// to its right (the last one a trusted proxy vouched for) is the answer.
  std::string client(const std::string& peer, const std::vector<std::string_view>& forwarded_for) const;

 private:
  struct Networks;
  std::unique_ptr<Networks> nets_;
};

}  // namespace cadastre::http
