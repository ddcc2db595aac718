#include "outbound/policy.hpp"

#include <algorithm>

#include "cadastre/error.hpp"
#include "http/http.hpp"

namespace cadastre::outbound {
namespace {

// An allowed_hosts entry as parse_target() would leave the host: lowercase, no trailing
// dot, IPv6 without brackets.
std::string normalize(std::string_view entry) {
  std::string e = http::lower_ascii(entry);
  if (e.size() > 1 && e.front() == '[' && e.back() == ']') e = e.substr(1, e.size() - 2);
  if (e.ends_with('.')) e.pop_back();
  return e;
}

// The host an entry names, read by the same rules as a URL's host, or nullopt.
std::optional<Target> entry_host(const std::string& host) {
  try {
    const bool v6 = host.find(':') != std::string::npos;
    Target t = parse_target("http://" + (v6 ? "[" + host + "]" : host) + "/");
    if (t.host == host && t.port == 80) return t;
  } catch (const Error&) {
  }
  return std::nullopt;
}

}  // namespace

void validate(const Policy& policy) {
  for (const auto& entry : policy.allowed_hosts) {
    const std::string e = normalize(entry);
    const bool pattern = e.starts_with("*.");
    auto host = entry_host(pattern ? e.substr(2) : e);
    if (!host || (pattern && host->literal))
      throw Error(errc::invalid_argument, "host inválido em allowed_hosts: '" + entry + "'",
                  "allowed_hosts");
  }
  for (const auto& net : policy.allowed_networks)
    if (!parse_cidr(net))
      throw Error(errc::invalid_argument,
                  "rede inválida em allowed_networks: '" + net + "' (use a.b.c.d/n)",
                  "allowed_networks");
  if (policy.max_bytes == 0)
    throw Error(errc::invalid_argument, "max_bytes deve ser positivo", "max_bytes");
  if (policy.connect_timeout.count() <= 0)
    throw Error(errc::invalid_argument, "connect_timeout deve ser positivo", "connect_timeout");
  if (policy.total_timeout.count() <= 0)
    throw Error(errc::invalid_argument, "total_timeout deve ser positivo", "total_timeout");
  if (policy.max_redirects < 0)
    throw Error(errc::invalid_argument, "max_redirects não pode ser negativo", "max_redirects");
}

bool host_allowed(const Policy& policy, const Target& target) {
  const auto address = target.literal ? Address::parse(target.host) : std::nullopt;
  return std::any_of(policy.allowed_hosts.begin(), policy.allowed_hosts.end(),
                     [&](const std::string& entry) {
                       const std::string e = normalize(entry);
                       if (e.starts_with("*."))  // ".example.gov.br" must end a longer name
                         return !target.literal && target.host.size() > e.size() - 1 &&
                                target.host.ends_with(e.substr(1));
                       if (address) return Address::parse(e) == address;  // "::1" equals "0::1"
                       return e == target.host;
                     });
}

std::optional<std::string> address_refusal(const Policy& policy, const Address& address) {
  auto reason = special_purpose(address);
  if (!reason) return std::nullopt;
  const Address v4 = address.unmapped();
  for (const auto& net : policy.allowed_networks)
    if (auto cidr = parse_cidr(net); cidr && (cidr->contains(address) || cidr->contains(v4)))
      return std::nullopt;
  return reason;
}

}  // namespace cadastre::outbound
