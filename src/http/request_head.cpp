#include "http/request_head.hpp"

#include "http/http.hpp"

namespace cadastre::http::wire {
namespace {

// tchar of RFC 9110 §5.6.2: the characters of methods and field names.
bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
      return true;
    default:
      return false;
  }
}

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_tchar(c)) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Content-Length: 1*DIGIT, or a list of identical values (RFC 9110 §8.6 lets a recipient
// accept "42, 42"). False for anything else.
bool parse_length(std::string_view value, std::uint64_t& out) {
  std::optional<std::uint64_t> seen;
  while (true) {
    auto comma = value.find(',');
    std::string_view item = trim(value.substr(0, comma));
    if (item.empty() || item.size() > 18) return false;  // 18 digits cannot overflow
    std::uint64_t n = 0;
    for (char c : item) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (seen && *seen != n) return false;
    seen = n;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  out = *seen;
  return true;
}

// Applies one "Connection" field's options to the keep-alive decision.
void apply_connection(std::string_view value, int minor, bool& keep_alive) {
  while (!value.empty()) {
    auto comma = value.find(',');
    std::string_view option = trim(value.substr(0, comma));
    if (equal_ignoring_case(option, "close"))
      keep_alive = false;
    else if (equal_ignoring_case(option, "keep-alive") && minor == 0)
      keep_alive = true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

}  // namespace

HeadParse parse_request_head(std::string_view bytes, RequestHead& out, std::string& reason) {
  // A client may send blank lines between requests (RFC 9112 §2.2).
  std::size_t start = 0;
  while (bytes.size() - start >= 2 && bytes[start] == '\r' && bytes[start + 1] == '\n') start += 2;
  auto end = bytes.find("\r\n\r\n", start);
  if (end == std::string_view::npos)
    return bytes.size() > kMaxRequestHeadBytes ? HeadParse::too_large : HeadParse::incomplete;
  if (end + 4 - start > kMaxRequestHeadBytes) return HeadParse::too_large;
  out = RequestHead{};
  out.size = end + 4;
  std::string_view head = bytes.substr(start, end + 2 - start);  // every line ends in CRLF

  auto line_end = head.find("\r\n");
  std::string_view line = head.substr(0, line_end);
  head.remove_prefix(line_end + 2);
  auto sp1 = line.find(' ');
  auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    reason = "linha de requisição malformada";
    return HeadParse::bad;
  }
  std::string_view method = line.substr(0, sp1), target = line.substr(sp1 + 1, sp2 - sp1 - 1),
                   version = line.substr(sp2 + 1);
  if (!is_token(method)) {
    reason = "método inválido";
    return HeadParse::bad;
  }
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' ||
      version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9') {
    reason = "versão do protocolo malformada";
    return HeadParse::bad;
  }
  if (version[5] != '1' || (version[7] != '0' && version[7] != '1')) {
    reason = "versão do protocolo não suportada (use HTTP/1.1)";
    return HeadParse::bad_version;
  }
  out.minor_version = version[7] - '0';
  out.keep_alive = out.minor_version == 1;
  bool asterisk = target == "*" && method == "OPTIONS";
  if (target.empty() || (target.front() != '/' && !asterisk)) {
    reason = "alvo da requisição deve começar com /";
    return HeadParse::bad;
  }
  for (char c : target)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
      reason = "alvo da requisição com caractere inválido";
      return HeadParse::bad;
    }
  out.method = std::string(method);
  out.target = std::string(target);

  int hosts = 0;
  bool has_length = false;
  while (!head.empty()) {
    line_end = head.find("\r\n");
    line = head.substr(0, line_end);
    head.remove_prefix(line_end + 2);
    if (line.front() == ' ' || line.front() == '\t') {
      reason = "campo de cabeçalho dobrado em várias linhas (obs-fold) não é aceito";
      return HeadParse::bad;
    }
    auto colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) {
      reason = "campo de cabeçalho malformado";
      return HeadParse::bad;
    }
    std::string_view name = line.substr(0, colon), value = trim(line.substr(colon + 1));
    for (char c : value)
      if (c == '\0' || c == '\r' || c == '\n') {
        reason = "valor de cabeçalho com caractere de controle";
        return HeadParse::bad;
      }
    if (out.headers.size() == kMaxRequestHeaders) return HeadParse::too_large;
    if (equal_ignoring_case(name, "Host")) {
      ++hosts;
    } else if (equal_ignoring_case(name, "Content-Length")) {
      std::uint64_t n = 0;
      if (!parse_length(value, n) || (has_length && n != out.content_length)) {
        reason = "Content-Length inválido";
        return HeadParse::bad;
      }
      has_length = true;
      out.content_length = n;
    } else if (equal_ignoring_case(name, "Transfer-Encoding")) {
      out.transfer_encoding = true;
    } else if (equal_ignoring_case(name, "Connection")) {
      apply_connection(value, out.minor_version, out.keep_alive);
    } else if (equal_ignoring_case(name, "Expect")) {
      if (!equal_ignoring_case(value, "100-continue")) {
        reason = "Expect não suportado: " + std::string(value);
        return HeadParse::bad;
      }
      out.expect_continue = true;
    }
    out.headers.emplace_back(std::string(name), std::string(value));
  }
  if (out.minor_version == 1 && hosts != 1) {
    reason = hosts == 0 ? "falta o cabeçalho Host" : "mais de um cabeçalho Host";
    return HeadParse::bad;
  }
  if (out.transfer_encoding && has_length) {
    reason = "Content-Length e Transfer-Encoding juntos";
    return HeadParse::bad;
  }
  return HeadParse::complete;
}

std::string percent_decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size()) {
      int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view field = query.substr(0, amp);
    if (!field.empty()) {
      auto eq = field.find('=');
      std::string_view name = field.substr(0, eq);
      std::string_view value =
          eq == std::string_view::npos ? std::string_view() : field.substr(eq + 1);
      out.emplace_back(percent_decode(name, true), percent_decode(value, true));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

}  // namespace cadastre::http::wire
