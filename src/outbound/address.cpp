#include "outbound/address.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <span>

namespace cadastre::outbound {
namespace {

struct Range {
  Cidr net;
  const char* reason;
};

Cidr v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d, int prefix) {
  Cidr n;
  n.base.bytes = {a, b, c, d};
  n.prefix = prefix;
  return n;
}

Cidr v6(std::array<std::uint8_t, 16> bytes, int prefix) {
  Cidr n;
  n.base.v6 = true;
  n.base.bytes = bytes;
  n.prefix = prefix;
  return n;
}

// IANA's IPv4 special-purpose registry, less the ranges public servers do use. The first
// match wins, so the broadcast address comes before the reserved 240/4 around it.
const Range kV4[] = {
    {v4(0, 0, 0, 0, 32), "endereço não especificado"},  // Linux connects it to the local host
    {v4(0, 0, 0, 0, 8), "endereço reservado (rede 0/8)"},
    {v4(10, 0, 0, 0, 8), "endereço privado"},
    {v4(100, 64, 0, 0, 10), "endereço compartilhado (CGNAT)"},
    {v4(127, 0, 0, 0, 8), "endereço de loopback"},
    {v4(169, 254, 0, 0, 16), "endereço link-local"},
    {v4(172, 16, 0, 0, 12), "endereço privado"},
    {v4(192, 0, 0, 0, 24), "endereço reservado (IETF)"},
    {v4(192, 0, 2, 0, 24), "endereço de documentação"},
    {v4(192, 168, 0, 0, 16), "endereço privado"},
    {v4(198, 18, 0, 0, 15), "endereço reservado (testes de desempenho)"},
    {v4(198, 51, 100, 0, 24), "endereço de documentação"},
    {v4(203, 0, 113, 0, 24), "endereço de documentação"},
    {v4(224, 0, 0, 0, 4), "endereço multicast"},
    {v4(255, 255, 255, 255, 32), "endereço de broadcast"},
    {v4(240, 0, 0, 0, 4), "endereço reservado"},
};

const Range kV6[] = {
    {v6({}, 128), "endereço não especificado"},
    {v6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128), "endereço de loopback"},
    {v6({0x00, 0x64, 0xff, 0x9b, 0, 1}, 48), "endereço reservado (NAT64 local)"},
    {v6({0x01, 0x00}, 64), "endereço reservado (descarte)"},
    {v6({0x20, 0x01, 0x0d, 0xb8}, 32), "endereço de documentação"},
    {v6({0xfc}, 7), "endereço privado"},
    {v6({0xfe, 0x80}, 10), "endereço link-local"},
    {v6({0xfe, 0xc0}, 10), "endereço privado (site-local)"},
    {v6({0xff}, 8), "endereço multicast"},
};

// IPv6 prefixes whose addresses carry an IPv4 address, and where it sits.
struct Embedding {
  Cidr net;
  std::size_t offset;  ///< first byte of the IPv4 address
};
const Embedding kEmbeddings[] = {
    {v6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96), 12},  // IPv4-mapped
    {v6({}, 96), 12},                                          // IPv4-compatible (obsolete)
    {v6({0x00, 0x64, 0xff, 0x9b}, 96), 12},                    // NAT64 well-known prefix
    {v6({0x20, 0x02}, 16), 2},                                 // 6to4
};

std::optional<std::uint8_t> decimal_octet(std::string_view s) {
  if (s.empty() || s.size() > 3 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  unsigned n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size() || n > 255) return std::nullopt;
  return static_cast<std::uint8_t>(n);
}

std::optional<std::string> judge(const Address& a, bool embedded) {
  for (const Range& r : a.v6 ? std::span<const Range>(kV6) : std::span<const Range>(kV4))
    if (r.net.contains(a))
      return std::string(r.reason) + (embedded ? " (IPv4 dentro de IPv6)" : "");
  return std::nullopt;
}

}  // namespace

std::optional<Address> Address::parse(std::string_view text) {
  if (text.find(':') != std::string_view::npos) {
    Address a;
    a.v6 = true;
    if (text.size() > 45 || ::inet_pton(AF_INET6, std::string(text).c_str(), a.bytes.data()) != 1)
      return std::nullopt;
    return a;
  }
  Address a;
  for (int i = 0; i < 4; ++i) {
    auto dot = text.find('.');
    if ((i < 3) == (dot == std::string_view::npos)) return std::nullopt;  // exactly four parts
    auto octet = decimal_octet(text.substr(0, dot));
    if (!octet) return std::nullopt;
    a.bytes[static_cast<std::size_t>(i)] = *octet;
    text.remove_prefix(i < 3 ? dot + 1 : text.size());
  }
  return a;
}

Address Address::unmapped() const {
  if (!kEmbeddings[0].net.contains(*this)) return *this;
  Address a;
  std::copy(bytes.begin() + 12, bytes.end(), a.bytes.begin());
  return a;
}

std::string Address::str() const {
  char text[INET6_ADDRSTRLEN];
  ::inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), text, sizeof text);
  return text;
}

bool Cidr::contains(const Address& a) const noexcept {
  if (a.v6 != base.v6) return false;
  int bits = prefix;
  for (std::size_t i = 0; bits > 0; ++i, bits -= 8) {
    const auto mask = static_cast<std::uint8_t>(bits >= 8 ? 0xff : 0xff << (8 - bits));
    if ((a.bytes[i] & mask) != (base.bytes[i] & mask)) return false;
  }
  return true;
}

std::optional<Cidr> parse_cidr(std::string_view text) {
  auto slash = text.find('/');
  auto base = Address::parse(text.substr(0, slash));
  if (!base) return std::nullopt;
  const int max = base->v6 ? 128 : 32;
  Cidr n{*base, max};
  if (slash != std::string_view::npos) {
    std::string_view digits = text.substr(slash + 1);
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n.prefix);
    if (digits.empty() || digits.size() > 3 || ec != std::errc() ||
        p != digits.data() + digits.size() || n.prefix < 0 || n.prefix > max)
      return std::nullopt;
  }
  // Host bits must be zero: the network holds its own base only when they are.
  Address masked = n.base;
  for (int bit = n.prefix; bit < max; ++bit)
    masked.bytes[static_cast<std::size_t>(bit / 8)] &=
        static_cast<std::uint8_t>(~(0x80 >> (bit % 8)));
  if (!(masked == n.base)) return std::nullopt;
  return n;
}

std::optional<std::string> special_purpose(const Address& a) {
  if (a.v6) {
    if (auto reason = judge(a, false)) return reason;  // :: and ::1 before the ::/96 embedding
    for (const Embedding& e : kEmbeddings) {
      if (!e.net.contains(a)) continue;
      Address inner;
      std::copy_n(a.bytes.begin() + static_cast<std::ptrdiff_t>(e.offset), 4, inner.bytes.begin());
      if (auto reason = judge(inner, true)) return reason;
      if (&e == &kEmbeddings[1]) return "endereço reservado (IPv4-compatível, obsoleto)";
      return std::nullopt;
    }
    return std::nullopt;
  }
  return judge(a, false);
}

}  // namespace cadastre::outbound
