// What an outbound call may reach (the SSRF rules): which hosts, which special-purpose
// networks, how much and for how long. The checks here are pure; fetch() applies them to
// the URL, to every address the host resolves to and to every redirect.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "outbound/address.hpp"
#include "outbound/url.hpp"

namespace cadastre::outbound {

struct Policy {
  /// Hosts that may be called, case-insensitive: exact names ("wms.example.gov.br"), IP
  /// addresses ("127.0.0.1", "::1" or "[::1]"), or "*.example.gov.br" for every name below
  /// example.gov.br (not example.gov.br itself, and never an IP address). Empty: none.
  std::vector<std::string> allowed_hosts;
  /// Networks ("10.1.0.0/16", "fd00::/8", "127.0.0.0/8") whose addresses may be reached
  /// although special_purpose() names them. Public addresses need no entry.
  std::vector<std::string> allowed_networks;
  std::size_t max_bytes = 10 << 20;                 ///< largest response body accepted
  std::chrono::milliseconds connect_timeout{3000};  ///< per address tried
  std::chrono::milliseconds total_timeout{15000};   ///< the whole call, redirects included
  int max_redirects = 3;                            ///< redirects followed; one more is an error
  std::string ca_file;  ///< extra trusted CAs (PEM) for https, besides the system's
};

/// Checks a policy read from configuration: every host entry is a valid name, address or
/// "*." pattern, every network a CIDR with no host bits set, limits positive. Throws
/// cadastre::Error(errc::invalid_argument) naming the field. fetch() does not require it
/// (entries that do not parse simply match nothing), but a typo should fail at start-up.
/// The ca_file is read on the first https call.
void validate(const Policy& policy);

/// True when the host of `target` is on policy.allowed_hosts.
bool host_allowed(const Policy& policy, const Target& target);

/// Why `address` may not be reached under `policy` (special_purpose() and no allowed
/// network contains it, nor the IPv4 address it maps), or nullopt when it may.
std::optional<std::string> address_refusal(const Policy& policy, const Address& address);

}  // namespace cadastre::outbound
