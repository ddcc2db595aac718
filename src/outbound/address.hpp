// IP addresses and networks, for deciding which resolved addresses an outbound call may
// reach. Pure: parsing and classification only, no sockets and no name resolution.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cadastre::outbound {

/// An IPv4 or IPv6 address, bytes in network order.
struct Address {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};  ///< IPv4 uses the first 4

  /// A dotted quad in its one canonical form ("10.0.0.1": four decimal parts, no leading
  /// zeros) or an IPv6 address without brackets or zone ("::1", "::ffff:127.0.0.1").
  /// Other numeric spellings that inet_aton() would take ("0x7f000001", "2130706433",
  /// "0177.0.0.1", "127.1") are nullopt: they are not addresses to us.
  static std::optional<Address> parse(std::string_view text);

  /// The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) stands for; a copy of
  /// the address otherwise. A mapped address on an IPv6 socket reaches that IPv4 host.
  Address unmapped() const;

  /// The usual text form ("127.0.0.1", "::1").
  std::string str() const;

  bool operator==(const Address&) const = default;
};

/// A network: base address and prefix length.
struct Cidr {
  Address base;
  int prefix = 0;  ///< 0–32 for IPv4, 0–128 for IPv6

  /// True when `a` is of the same family and its first `prefix` bits equal the base's.
  bool contains(const Address& a) const noexcept;
};

/// "10.1.0.0/16", "fd00::/8", or a bare address (a /32 or /128). nullopt when malformed,
/// when the prefix is too long for the family, or when the base has bits set past the
/// prefix ("10.1.2.3/16" is more likely a mistake than a network).
std::optional<Cidr> parse_cidr(std::string_view text);

/// Why an outbound call must not reach `a` unless a network explicitly allows it:
/// loopback, private (RFC 1918, fc00::/7), link-local, unspecified, multicast, broadcast,
/// shared (CGNAT 100.64/10) and the other special-purpose ranges that no public server
/// uses (documentation, benchmarking, reserved). IPv6 forms that carry an IPv4 address
/// (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged
/// by that IPv4 address. nullopt for a public address. The reason is Portuguese, for the
/// error message ("endereço de loopback").
std::optional<std::string> special_purpose(const Address& a);

}  // namespace cadastre::outbound
