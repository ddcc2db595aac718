#include "outbound/url.hpp"

#include <algorithm>
#include <charconv>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "outbound/address.hpp"

namespace cadastre::outbound {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

// RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
bool is_scheme(std::string_view s) {
  return !s.empty() && is_alpha(s[0]) && std::all_of(s.begin(), s.end(), [](char c) {
    return is_alpha(c) || is_digit(c) || c == '+' || c == '-' || c == '.';
  });
}

[[noreturn]] void malformed(std::string_view url, std::string_view why) {
  throw Error(errc::invalid_argument,
              "URL inválida (" + std::string(why) + "): " + std::string(url), "url");
}

// True when the last label (of a lowercase host) is a number as inet_aton() and the WHATWG
// URL standard read one: decimal digits, or 0x and hex digits. Such a host is an address.
bool ends_in_number(std::string_view host) {
  std::string_view last = host.substr(host.rfind('.') + 1);
  if (last.starts_with("0x")) return std::all_of(last.begin() + 2, last.end(), is_hex);
  return !last.empty() && std::all_of(last.begin(), last.end(), is_digit);
}

// A DNS name in ASCII (IDNs come as punycode): labels of 1–63 letters, digits, '-' or '_'.
bool is_name(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  for (;;) {
    auto dot = host.find('.');
    std::string_view label = host.substr(0, dot);
    if (label.empty() || label.size() > 63 || !std::all_of(label.begin(), label.end(), [](char c) {
          return is_alpha(c) || is_digit(c) || c == '-' || c == '_';
        }))
      return false;
    if (dot == std::string_view::npos) return true;
    host.remove_prefix(dot + 1);
  }
}

// Percent-encodes the bytes that may not appear in a request-target; '%' escapes, reserved
// and unreserved characters stay as written.
std::string encode_target(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7f ||
        std::string_view("\"<>\\^`{|}").find(ch) != std::string_view::npos) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

// RFC 3986 §5.2.4.
std::string remove_dot_segments(std::string_view in) {
  std::string out;
  auto drop_last = [&out] { out.erase(std::min(out.size(), out.rfind('/'))); };
  while (!in.empty()) {
    if (in.starts_with("../")) {
      in.remove_prefix(3);
    } else if (in.starts_with("./") || in.starts_with("/./")) {
      in.remove_prefix(2);
    } else if (in == "/.") {
      in = "/";
    } else if (in.starts_with("/../")) {
      in.remove_prefix(3);
      drop_last();
    } else if (in == "/..") {
      in = "/";
      drop_last();
    } else if (in == "." || in == "..") {
      in = {};
    } else {
      auto next = std::min(in.size(), in.find('/', 1));
      out.append(in.substr(0, next));
      in.remove_prefix(next);
    }
  }
  return out;
}

}  // namespace

std::string Target::authority() const {
  std::string a = literal && host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port != (scheme == "https" ? 443 : 80)) a += ":" + std::to_string(port);
  return a;
}

std::string Target::str() const { return scheme + "://" + authority() + target; }

Target parse_target(std::string_view url) {
  Target t;
  auto colon = url.find(':');
  if (colon == std::string_view::npos || !is_scheme(url.substr(0, colon)))
    malformed(url, "sem esquema http:// ou https://");
  t.scheme = http::lower_ascii(url.substr(0, colon));
  if (t.scheme != "http" && t.scheme != "https")
    throw Error(errc::forbidden,
                "destino não permitido: esquema '" + t.scheme + "' (só http e https)");
  std::string_view rest = url.substr(colon + 1);
  if (!rest.starts_with("//")) malformed(url, "falta // depois do esquema");
  rest.remove_prefix(2);
  rest = rest.substr(0, rest.find('#'));

  auto end_authority = std::min(rest.size(), rest.find_first_of("/?"));
  std::string_view authority = rest.substr(0, end_authority), port;
  rest.remove_prefix(end_authority);
  if (authority.find('@') != std::string_view::npos)
    throw Error(errc::forbidden, "destino não permitido: URL com credenciais (usuário@host)");

  std::string_view host = authority;
  if (authority.starts_with('[')) {
    auto close = authority.find(']');
    if (close == std::string_view::npos) malformed(url, "colchete sem par");
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') malformed(url, "lixo depois do endereço IPv6");
      port = authority.substr(close + 2);
    }
    if (host.find(':') == std::string_view::npos || !Address::parse(host))
      malformed(url, "endereço IPv6 inválido");
    t.literal = true;
  } else if (auto c = authority.rfind(':'); c != std::string_view::npos) {
    host = authority.substr(0, c);
    port = authority.substr(c + 1);
  }
  t.host = http::lower_ascii(host);
  if (!t.literal) {
    if (t.host.ends_with('.')) t.host.pop_back();
    if (t.host.empty()) malformed(url, "sem host");
    if (ends_in_number(t.host)) {
      if (!Address::parse(t.host))
        throw Error(
            errc::forbidden,
            "destino não permitido: endereço numérico fora da forma canônica '" + t.host + "'");
      t.literal = true;
    } else if (!is_name(t.host)) {
      malformed(url, "host inválido");
    }
  }

  t.port = t.scheme == "https" ? 443 : 80;
  if (!port.empty()) {
    auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), t.port);
    if (port.size() > 5 || ec != std::errc() || p != port.data() + port.size() || t.port < 1 ||
        t.port > 65535)
      malformed(url, "porta inválida");
  }
  t.target = encode_target(rest);
  if (!t.target.starts_with('/')) t.target.insert(0, "/");
  return t;
}

std::string resolve_reference(const Target& base, std::string_view reference) {
  reference = reference.substr(0, reference.find('#'));
  auto colon = reference.find(':');
  if (colon != std::string_view::npos && colon < reference.find_first_of("/?") &&
      is_scheme(reference.substr(0, colon)))
    return std::string(reference);  // absolute
  if (reference.starts_with("//")) return base.scheme + ":" + std::string(reference);

  const auto question = reference.find('?');
  std::string_view path = reference.substr(0, question);
  std::string_view base_path = std::string_view(base.target).substr(0, base.target.find('?'));
  std::string out = base.scheme + "://" + base.authority();
  if (path.empty()) {
    out += base_path;
    if (question == std::string_view::npos) {  // "" keeps the base's query
      auto base_query = base.target.find('?');
      if (base_query != std::string::npos) out += base.target.substr(base_query);
      return out;
    }
  } else if (path.starts_with('/')) {
    out += remove_dot_segments(path);
  } else {
    std::string merged(base_path.substr(0, base_path.rfind('/') + 1));
    if (merged.empty()) merged = "/";
    out += remove_dot_segments(merged + std::string(path));
  }
  if (question != std::string_view::npos) out += reference.substr(question);
  return out;
}

}  // namespace cadastre::outbound
