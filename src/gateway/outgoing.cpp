#include "gateway/outgoing.hpp"

#include <algorithm>
#include <optional>

#include "gateway/credentials.hpp"
#include "gateway/url.hpp"

namespace cadastre::gateway {
namespace {

bool dropped(std::string_view key, const std::vector<std::string_view>& drop) {
  return is_legacy_credential_param(key) || std::find(drop.begin(), drop.end(), key) != drop.end();
}

// The raw query and path of the request target (undecoded, in the caller's order), so the
// destination receives them byte for byte. Empty target (requests built in tests) → nullopt.
std::optional<std::string_view> raw_query(const http::Request& req) {
  if (req.target.empty()) return std::nullopt;
  std::string_view t = req.target;
  auto q = t.find('?');
  if (q == std::string_view::npos) return std::string_view();
  return t.substr(q + 1);
}

std::optional<std::string_view> raw_path(const http::Request& req) {
  if (req.target.empty()) return std::nullopt;
  std::string_view t = req.target;
  return t.substr(0, t.find('?'));
}

std::string filter_raw_query(std::string_view raw, const std::vector<std::string_view>& drop) {
  std::string out;
  while (!raw.empty()) {
    auto amp = raw.find('&');
    std::string_view field = raw.substr(0, amp);
    std::string key = decode_component(field.substr(0, field.find('=')), true);
    if (!field.empty() && !dropped(key, drop)) {
      if (!out.empty()) out.push_back('&');
      out.append(field);
    }
    if (amp == std::string_view::npos) break;
    raw.remove_prefix(amp + 1);
  }
  return out;
}

void add_forwarding_headers(HeaderList& out, const http::Request& req) {
  out.emplace_back("X-Request-Id", req.request_id);
  std::string xff;
  if (const std::string* prior = req.header("X-Forwarded-For")) xff = *prior + ", ";
  out.emplace_back("X-Forwarded-For", xff + req.remote_addr);
  if (const std::string* host = req.header("Host")) out.emplace_back("X-Forwarded-Host", *host);
  const std::string* proto = req.header("X-Forwarded-Proto");
  out.emplace_back("X-Forwarded-Proto", proto ? *proto : "http");
}

}  // namespace

std::string path_after_segments(std::string_view path, std::size_t n) {
  std::size_t i = 0;
  while (n > 0 && i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;  // empty segments do not count
    if (i == path.size()) break;
    while (i < path.size() && path[i] != '/') ++i;
    --n;
  }
  return std::string(path.substr(i));
}

bool has_dot_segment(std::string_view decoded_path) {
  std::size_t i = 0;
  while (i <= decoded_path.size()) {
    auto j = decoded_path.find('/', i);
    if (j == std::string_view::npos) j = decoded_path.size();
    auto seg = decoded_path.substr(i, j - i);
    if (seg == "." || seg == "..") return true;
    i = j + 1;
  }
  return false;
}

std::string outgoing_path(const http::Request& req, std::size_t n) {
  if (auto raw = raw_path(req)) return path_after_segments(*raw, n);
  return encode_path(path_after_segments(req.path, n));
}

std::string outgoing_query(const http::Request& req, const std::vector<std::string_view>& drop) {
  if (auto raw = raw_query(req)) return filter_raw_query(*raw, drop);
  std::vector<std::pair<std::string, std::string>> kept;
  kept.reserve(req.query.size());
  for (const auto& [k, v] : req.query)
    if (!dropped(k, drop)) kept.emplace_back(k, v);
  return encode_query(kept);
}

HeaderList tenant_headers(const http::Request& req, const AuthResult& auth) {
  HeaderList out = request_headers_to_forward(req.headers.items);
  for (std::string_view h : {"Authorization", "X-Auth-Token", "X-Tn-Token", "X-Origin"}) remove_header(out, h);
  if (auth.principal) {
    if (!auth.jwt.empty()) {
      out.emplace_back("Authorization", "Bearer " + auth.jwt);
      out.emplace_back("X-Origin", "login_intranet");
    } else {
      out.emplace_back("Authorization", "Bearer " + auth.session_token);
      out.emplace_back("X-Auth-Token", auth.session_token);
    }
    out.emplace_back("X-Tn-Token", encode_tenant_token(auth.principal->tenant_id));
  }
  add_forwarding_headers(out, req);
  return out;
}

HeaderList provider_headers(const http::Request& req) {
  HeaderList out = request_headers_to_forward(req.headers.items);
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& h) { return is_credential_header(h.first); }),
            out.end());
  out.emplace_back("X-Request-Id", req.request_id);
  return out;
}

}  // namespace cadastre::gateway
