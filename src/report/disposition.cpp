// The file names of the report files (Content-Disposition) and the Brazilian number notation.
#include <cctype>
#include <cmath>
#include <cstdio>

#include "http/http.hpp"
#include "report/table.hpp"

namespace cadastre::report {
namespace {

// ASCII file name from the report name: accents dropped (via Windows-1252), other
// characters replaced by '_', so the header needs no quoting rules beyond the quotes.
std::string ascii_file_name(const std::string& name, std::int64_t id) {
  // Windows-1252 0xC0..0xFF without their accents ('_' where no letter fits).
  static constexpr std::string_view kBase = "AAAAAAACEEEEIIIIDNOOOOO_OUUUUY_saaaaaaaceeeeiiiidnooooo_ouuuuy_y";
  std::string out;
  for (char ch : to_cp1252(name)) {
    auto b = static_cast<unsigned char>(ch);
    char c = b >= 0xC0 ? kBase[b - 0xC0] : (std::isalnum(b) || ch == '-' || ch == '.') ? ch : '_';
    if (c == '_' && (out.empty() || out.back() == '_')) continue;
    out += c;
    if (out.size() >= 100) break;
  }
  while (!out.empty() && (out.back() == '_' || out.back() == '.')) out.pop_back();
  return out.empty() ? "relatorio-" + std::to_string(id) : out;
}

}  // namespace

std::string content_disposition(const std::string& name, std::int64_t id, std::string_view extension) {
  return "attachment; filename=\"" + ascii_file_name(name, id) + std::string(extension) + "\"; filename*=UTF-8''" +
         http::percent_encode(name) + std::string(extension);
}

std::string number_br(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(value));
  std::string digits(buf), fraction;
  if (auto dot = digits.find('.'); dot != std::string::npos) {
    fraction = "," + digits.substr(dot + 1);
    digits.resize(dot);
  }
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += '.';
    out += digits[i];
  }
  bool zero = out.find_first_not_of("0.") == std::string::npos && fraction.find_first_not_of(",0") == std::string::npos;
  return (value < 0 && !zero ? "-" : "") + out + fraction;
}

}  // namespace cadastre::report
