// The file names of the report exports (the writers: xlsx.cpp, pdf.cpp).
#include <cctype>

#include "http/http.hpp"
#include "server/explorer/export.hpp"

namespace cadastre::server::explorer {
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

}  // namespace cadastre::server::explorer
