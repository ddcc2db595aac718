#include <algorithm>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {

FilterType parse_filter_type(std::string_view text) {
  if (text == "exact") return FilterType::exact;
  if (text == "contains") return FilterType::contains;
  if (text == "icontains") return FilterType::icontains;
  throw Error(errc::invalid_argument,
              "tipo de filtro desconhecido: '" + detail::printable(text) +
                  "' (use exact, contains ou icontains)",
              "type");
}

std::string_view to_string(FilterType type) noexcept {
  switch (type) {
    case FilterType::exact:
      return "exact";
    case FilterType::contains:
      return "contains";
    case FilterType::icontains:
      return "icontains";
  }
  return "exact";
}

std::string_view sql_operator(FilterType type) noexcept {
  switch (type) {
    case FilterType::exact:
      return "=";
    case FilterType::contains:
      return "LIKE";
    case FilterType::icontains:
      return "ILIKE";
  }
  return "=";
}

std::string escape_like(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 8);
  for (char c : value) {
    if (c == '%' || c == '_' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string like_pattern(FilterType type, std::string_view value) {
  if (type == FilterType::exact) return std::string(value);
  return "%" + escape_like(value) + "%";
}

bool is_reserved(std::string_view key) noexcept {
  return std::find(reserved_params.begin(), reserved_params.end(), key) != reserved_params.end();
}

std::vector<Filter> parse_filters(const QueryParams& params) {
  FilterType type = FilterType::exact;
  if (auto t = detail::single(params, {"type"})) type = parse_filter_type(t->value);

  std::vector<Filter> filters;
  for (const auto& [key, value] : params) {
    if (is_reserved(key)) continue;
    check_identifier(key, key);
    // Two values for one field would have to mean AND (never true for exact) or OR;
    // neither is what a single-valued search form means, so it is an error.
    bool repeated = std::any_of(filters.begin(), filters.end(),
                                [&](const Filter& f) { return f.field == key; });
    if (repeated) {
      throw Error(errc::invalid_argument, "filtro '" + key + "' informado mais de uma vez", key);
    }
    filters.push_back(Filter{key, type, value});
  }
  return filters;
}

}  // namespace cadastre::query
