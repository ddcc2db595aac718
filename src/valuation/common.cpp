#include "valuation/common.hpp"

#include <fmt/format.h>

namespace cadastre::valuation::detail {

std::string num(double v) {
  std::string s = fmt::format("{:.4f}", v);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s.erase(0, 1);  // -0.00001 rounds to "-0"
  return s;
}

std::string pct(double rate) { return num(rate * 100.0) + "%"; }

void invalid(std::string_view field, std::string_view why) {
  throw Error(errc::invalid_argument, fmt::format("campo '{}' {}", field, why), std::string(field));
}

void missing(std::string_view field, std::string_view message) {
  throw Error(errc::missing_field, std::string(message), std::string(field));
}

double lookup(const Table& table, std::string_view code, std::string_view field,
              std::string_view table_name, bool list_codes) {
  if (auto it = table.find(code); it != table.end()) return it->second;
  std::string msg = fmt::format("código desconhecido em '{}': '{}' não está na tabela {} do perfil",
                                field, code, table_name);
  if (list_codes) {
    std::string known;
    for (const auto& [k, v] : table) known += (known.empty() ? "" : ", ") + k;
    msg += known.empty() ? " (tabela vazia)" : " (códigos: " + known + ")";
  }
  throw Error(errc::unknown_code, std::move(msg), std::string(field));
}

}  // namespace cadastre::valuation::detail
