#include <string>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

}  // namespace

std::vector<Sort> parse_sort(const QueryParams& params) {
  auto sort = detail::single(params, {"sort", "orderBy"});
  auto order = detail::single(params, {"order", "direction"});
  std::vector<Sort> keys;
  if (!sort) {
    if (order) {
      throw Error(
          errc::invalid_argument,
          "'" + std::string(order->name) + "' exige o parâmetro 'sort' com o campo de ordenação",
          std::string(order->name));
    }
    return keys;
  }

  std::string_view rest = sort->value;
  while (true) {
    auto comma = rest.find(',');
    std::string_view key = rest.substr(0, comma);
    Sort s;
    if (!key.empty() && key.front() == '-') {
      s.descending = true;
      key.remove_prefix(1);
    }
    if (key.empty()) {
      throw Error(errc::invalid_argument,
                  "campo de ordenação vazio em '" + std::string(sort->name) + "'",
                  std::string(sort->name));
    }
    check_identifier(key, sort->name);
    s.field = std::string(key);
    keys.push_back(std::move(s));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }

  if (order) {
    std::string field(order->name);
    if (keys.size() != 1 || keys.front().descending) {
      throw Error(errc::invalid_argument,
                  "'" + field + "' só pode acompanhar um único campo de ordenação sem '-'", field);
    }
    if (iequals(order->value, "desc")) {
      keys.front().descending = true;
    } else if (!iequals(order->value, "asc")) {
      throw Error(errc::invalid_argument,
                  "direção de ordenação inválida: '" + detail::printable(order->value) +
                      "' (use asc ou desc)",
                  field);
    }
  }
  return keys;
}

}  // namespace cadastre::query
