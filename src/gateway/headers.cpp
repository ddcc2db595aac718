#include "gateway/headers.hpp"

#include <strings.h>

#include <algorithm>
#include <array>

#include "http/http.hpp"

namespace cadastre::gateway {
namespace {

constexpr std::array<std::string_view, 9> kHopByHop = {
    "Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Proxy-Connection",
    "TE",         "Trailer",    "Transfer-Encoding",  "Upgrade"};

// Request headers the gateway never passes on (besides hop-by-hop ones).
constexpr std::array<std::string_view, 12> kDroppedRequest = {
    "Host",        "Content-Length", "Expect",         "X-Request-Id",
    "REMOTE_ADDR", "REMOTE_PORT",    "LOCAL_ADDR",     "LOCAL_PORT",        "X-Forwarded-For",
    "X-Forwarded-Host", "X-Forwarded-Proto", "Forwarded"};

// Response headers the gateway sets itself.
constexpr std::array<std::string_view, 4> kDroppedResponse = {"Content-Length", "Content-Type", "X-Request-Id",
                                                              "X-Target-URL"};

constexpr std::array<std::string_view, 5> kCredentials = {"Authorization", "X-Auth-Token", "X-Tn-Token", "X-Origin",
                                                          "Cookie"};

template <std::size_t N>
bool in(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return header_is(n, name); });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Names listed in every Connection header ("Connection: keep-alive, X-Foo").
std::vector<std::string> connection_tokens(const HeaderList& headers) {
  std::vector<std::string> out;
  for (const auto& [k, v] : headers) {
    if (!header_is(k, "Connection")) continue;
    std::string_view rest = v;
    while (!rest.empty()) {
      auto comma = rest.find(',');
      auto token = trim(rest.substr(0, comma));
      if (!token.empty()) out.emplace_back(token);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return out;
}

}  // namespace

bool header_is(std::string_view a, std::string_view b) noexcept { return http::equal_ignoring_case(a, b); }

bool is_hop_by_hop(std::string_view name) noexcept { return in(kHopByHop, name); }

bool is_credential_header(std::string_view name) noexcept { return in(kCredentials, name); }

HeaderList without_hop_by_hop(const HeaderList& headers) {
  auto listed = connection_tokens(headers);
  HeaderList out;
  out.reserve(headers.size());
  for (const auto& h : headers) {
    if (is_hop_by_hop(h.first)) continue;
    if (std::any_of(listed.begin(), listed.end(), [&](const std::string& t) { return header_is(t, h.first); })) continue;
    out.push_back(h);
  }
  return out;
}

void remove_header(HeaderList& headers, std::string_view name) {
  headers.erase(std::remove_if(headers.begin(), headers.end(), [&](const auto& h) { return header_is(h.first, name); }),
                headers.end());
}

void set_header(HeaderList& headers, std::string_view name, std::string value) {
  remove_header(headers, name);
  headers.emplace_back(std::string(name), std::move(value));
}

const std::string* find_header(const HeaderList& headers, std::string_view name) noexcept {
  for (const auto& [k, v] : headers)
    if (header_is(k, name)) return &v;
  return nullptr;
}

HeaderList request_headers_to_forward(const HeaderList& incoming) {
  HeaderList out = without_hop_by_hop(incoming);
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& h) { return in(kDroppedRequest, h.first); }), out.end());
  return out;
}

HeaderList response_headers_to_return(const HeaderList& upstream) {
  HeaderList out = without_hop_by_hop(upstream);
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const auto& h) {
                             return in(kDroppedResponse, h.first) ||
                                    (h.first.size() >= 15 && strncasecmp(h.first.data(), "Access-Control-", 15) == 0);
                           }),
            out.end());
  return out;
}

}  // namespace cadastre::gateway
