#include "gateway/url.hpp"

#include <algorithm>
#include <cctype>

#include "http/http.hpp"

namespace cadastre::gateway {
namespace {

// What each encoding keeps besides ASCII letters and digits (RFC 3986): the unreserved
// characters; in a path also the sub-delimiters, ':', '@' (and '/' between segments); in a
// query component the same except '&', '=' and '+' (form decoding reads '+' as a space),
// plus '/' and '?'.
constexpr std::string_view kUnreserved = "-._~";
constexpr std::string_view kSegment = "-._~!$&'()*+,;=:@";
constexpr std::string_view kPath = "-._~!$&'()*+,;=:@/";
constexpr std::string_view kQueryComponent = "-._~!$'()*,;:@/?";

}  // namespace

std::string Url::origin() const {
  bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  return scheme + "://" + host + (default_port ? "" : ":" + std::to_string(port));
}

std::string Url::target() const {
  std::string t = path.empty() ? "/" : path;
  if (!query.empty()) t += "?" + query;
  return t;
}

std::string Url::str() const { return origin() + target(); }

std::optional<Url> parse_url(std::string_view text) {
  Url u;
  auto sep = text.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  u.scheme = http::lower_ascii(text.substr(0, sep));
  if (u.scheme != "http" && u.scheme != "https") return std::nullopt;
  std::string_view rest = text.substr(sep + 3);
  if (rest.find('#') != std::string_view::npos) return std::nullopt;
  std::size_t end_authority = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, end_authority);
  rest = end_authority == std::string_view::npos ? std::string_view() : rest.substr(end_authority);
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;

  std::string_view host = authority, port;
  if (authority.front() == '[') {  // IPv6 literal
    auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port = authority.substr(close + 2);
    }
  } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return std::nullopt;
  u.host = http::lower_ascii(host);
  u.port = u.scheme == "https" ? 443 : 80;
  if (!port.empty()) {
    if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); }))
      return std::nullopt;
    u.port = std::stoi(std::string(port));
    if (u.port <= 0 || u.port > 65535) return std::nullopt;
  }
  auto q = rest.find('?');
  u.path = std::string(rest.substr(0, q));
  if (q != std::string_view::npos) u.query = std::string(rest.substr(q + 1));
  return u;
}

std::vector<std::string> template_variables(std::string_view tmpl) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while ((i = tmpl.find('{', i)) != std::string_view::npos) {
    auto j = tmpl.find('}', i);
    if (j == std::string_view::npos) break;
    out.emplace_back(tmpl.substr(i + 1, j - i - 1));
    i = j + 1;
  }
  return out;
}

std::string expand_template(std::string_view tmpl, const std::map<std::string, std::string, std::less<>>& vars) {
  std::string out;
  out.reserve(tmpl.size() + 16);
  std::size_t i = 0;
  while (i < tmpl.size()) {
    auto open = tmpl.find('{', i);
    if (open == std::string_view::npos) break;
    auto close = tmpl.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(tmpl.substr(i, open - i));
    auto it = vars.find(tmpl.substr(open + 1, close - open - 1));
    if (it != vars.end()) {
      // Only unreserved characters stay, so a value is safe in a path and in a query alike.
      out += http::percent_encode(it->second, kUnreserved);
    } else {
      out.append(tmpl.substr(open, close - open + 1));
    }
    i = close + 1;
  }
  if (i < tmpl.size()) out.append(tmpl.substr(i));
  return out;
}

std::string encode_path(std::string_view decoded) { return http::percent_encode(decoded, kPath); }

std::string encode_segment(std::string_view decoded) { return http::percent_encode(decoded, kSegment); }

std::string encode_query_component(std::string_view decoded) { return http::percent_encode(decoded, kQueryComponent); }

std::string decode_component(std::string_view encoded, bool plus_as_space) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(encoded.size());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    char c = encoded[i];
    if (c == '%' && i + 2 < encoded.size() && hex(encoded[i + 1]) >= 0 && hex(encoded[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(encoded[i + 1]) * 16 + hex(encoded[i + 2])));
      i += 2;
    } else if (c == '+' && plus_as_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string encode_query(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out.push_back('&');
    out += encode_query_component(k);
    out.push_back('=');
    out += encode_query_component(v);
  }
  return out;
}

std::string join_path(std::string_view base_path, std::string_view rest) {
  std::string out(base_path);
  if (rest.empty()) return out;
  if (!out.empty() && out.back() == '/' && rest.front() == '/') rest.remove_prefix(1);
  out.append(rest);
  return out;
}

std::string join_query(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out(a);
  if (out.back() != '&') out.push_back('&');
  out.append(b);
  return out;
}

std::optional<Url> compose_url(std::string_view tmpl, const std::map<std::string, std::string, std::less<>>& vars,
                               std::string_view rest, std::string_view query) {
  std::string expanded = expand_template(tmpl, vars);
  if (expanded.find('{') != std::string::npos) return std::nullopt;
  auto url = parse_url(expanded);
  if (!url) return std::nullopt;
  url->path = join_path(url->path, rest);
  url->query = join_query(url->query, query);
  return url;
}

}  // namespace cadastre::gateway
