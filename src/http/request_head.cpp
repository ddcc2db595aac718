#include "http/request_head.hpp"

#include "http/http.hpp"

namespace cadastre::http::wire {
namespace {

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

}  // namespace

HeadCheck check_head(const HeadView& head, std::size_t max_fields) {
  HeadCheck out;
  auto refuse = [&out](int status, std::string reason) {
    out.status = status;
    out.reason = std::move(reason);
    return out;
  };
  // A line that starts with a space or tab continues the previous one (obs-fold, RFC 9112
  // §5.2): Beast joins them, another parser may not.
  for (std::size_t at = head.raw.find('\n'); at != std::string_view::npos;
       at = head.raw.find('\n', at + 1))
    if (at + 1 < head.raw.size() && (head.raw[at + 1] == ' ' || head.raw[at + 1] == '\t'))
      return refuse(400, "campo de cabeçalho dobrado em várias linhas (obs-fold) não é aceito");
  const bool asterisk = head.target == "*" && head.method == "OPTIONS";
  if (head.target.empty() || (head.target.front() != '/' && !asterisk))
    return refuse(400, "alvo da requisição deve começar com /");
  if (head.fields->size() > max_fields) return refuse(431, "campos de cabeçalho demais");
  int hosts = 0;
  for (const auto& [name, value] : *head.fields) {
    if (equal_ignoring_case(name, "Host")) {
      ++hosts;
    } else if (equal_ignoring_case(name, "Transfer-Encoding")) {
      if (!equal_ignoring_case(trim(value), "chunked"))
        return refuse(
            400, "Transfer-Encoding não suportado: " + value + " (use chunked ou Content-Length)");
    } else if (equal_ignoring_case(name, "Expect")) {
      if (!equal_ignoring_case(trim(value), "100-continue"))
        return refuse(417, "Expect não suportado: " + value);
      out.expect_continue = true;
    }
  }
  if (head.version == 11 && hosts != 1)
    return refuse(400, hosts == 0 ? "falta o cabeçalho Host" : "mais de um cabeçalho Host");
  if (hosts > 1) return refuse(400, "mais de um cabeçalho Host");
  return out;
}

bool names_other_http_version(std::string_view request_start) {
  std::string_view line = request_start.substr(0, request_start.find('\r'));
  auto at = line.rfind(" HTTP/");
  if (at == std::string_view::npos) return false;
  std::string_view v = line.substr(at + 6);
  return !v.empty() && v.front() >= '0' && v.front() <= '9' && v.front() != '1';
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
