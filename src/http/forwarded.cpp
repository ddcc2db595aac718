#include "http/forwarded.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>

#include <stdexcept>
#include <variant>

namespace cadastre::http {
namespace ip = boost::asio::ip;

struct TrustedProxies::Networks {
  std::vector<std::variant<ip::network_v4, ip::network_v6>> list;
};

namespace {

std::string_view trim_blanks(std::string_view s) {
  auto first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
  return first == std::string_view::npos ? std::string_view() : s.substr(first, last - first + 1);
}

// An address, IPv4-mapped IPv6 ones as IPv4; nullopt when malformed.
std::optional<ip::address> address_of(std::string_view text) {
  boost::system::error_code ec;
  ip::address a = ip::make_address(std::string(trim_blanks(text)), ec);
  if (ec) return std::nullopt;
  if (a.is_v6() && a.to_v6().is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, a.to_v6());
  return a;
}

}  // namespace

TrustedProxies::TrustedProxies(const std::vector<std::string>& entries) : nets_(std::make_unique<Networks>()) {
  for (const std::string& raw : entries) {
    std::string e(trim_blanks(raw));
    if (e.empty()) continue;
    boost::system::error_code ec;
    if (e.find('/') == std::string::npos) {
      auto a = address_of(e);
      if (!a) throw std::invalid_argument("--trusted-proxies: endereço inválido: " + e);
      e += a->is_v4() ? "/32" : "/128";
    }
    if (e.find(':') == std::string::npos) {
      auto n = ip::make_network_v4(e, ec);
      if (ec || n != n.canonical()) throw std::invalid_argument("--trusted-proxies: rede inválida: " + raw);
      nets_->list.emplace_back(n);
    } else {
      auto n = ip::make_network_v6(e, ec);
      if (ec || n != n.canonical()) throw std::invalid_argument("--trusted-proxies: rede inválida: " + raw);
      nets_->list.emplace_back(n);
    }
  }
}
TrustedProxies::~TrustedProxies() = default;
TrustedProxies::TrustedProxies(TrustedProxies&&) noexcept = default;
TrustedProxies& TrustedProxies::operator=(TrustedProxies&&) noexcept = default;

bool TrustedProxies::empty() const noexcept { return nets_->list.empty(); }

bool TrustedProxies::trusts(std::string_view text) const {
  auto a = address_of(text);
  if (!a) return false;
  for (const auto& n : nets_->list) {
    if (a->is_v4()) {
      if (const auto* v4 = std::get_if<ip::network_v4>(&n)) {
        auto host = ip::network_v4(a->to_v4(), static_cast<unsigned short>(v4->prefix_length())).canonical();
        if (host == v4->canonical()) return true;
      }
    } else if (const auto* v6 = std::get_if<ip::network_v6>(&n)) {
      auto host = ip::network_v6(a->to_v6(), v6->prefix_length()).canonical();
      if (host == v6->canonical()) return true;
    }
  }
  return false;
}

std::string TrustedProxies::client(const std::string& peer, const std::vector<std::string_view>& forwarded_for) const {
  if (empty() || !trusts(peer)) return peer;
  std::vector<std::string_view> chain;
  for (std::string_view header : forwarded_for) {
    std::size_t start = 0;
    while (start <= header.size()) {
      std::size_t comma = header.find(',', start);
      if (comma == std::string_view::npos) comma = header.size();
      chain.push_back(trim_blanks(header.substr(start, comma - start)));
      start = comma + 1;
    }
  }
  std::string client = peer;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    auto a = address_of(*it);
    if (!a) break;
    client = a->to_string();
    if (!trusts(client)) break;
  }
  return client;
}

}  // namespace cadastre::http
