#include <charconv>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {

std::int64_t parse_integer(std::string_view text, std::string_view field, std::int64_t min,
                           std::int64_t max) {
  auto fail = [&](std::string why) -> std::int64_t {
    throw Error(errc::invalid_argument,
                "parâmetro '" + std::string(field) + "' " + why + " (recebido: '" +
                    detail::printable(text) + "')",
                std::string(field));
  };
  // Digits only: from_chars alone would accept a leading '-' and stop silently at "10abc".
  if (text.empty()) return fail("deve ser um número inteiro");
  for (char c : text) {
    if (c < '0' || c > '9')
      return fail(text.front() == '-' ? "não pode ser negativo" : "deve ser um número inteiro");
  }
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range || v > max) {
    return fail("deve ser no máximo " + std::to_string(max));
  }
  if (ec != std::errc() || ptr != text.data() + text.size())
    return fail("deve ser um número inteiro");
  if (v < min) return fail("deve ser no mínimo " + std::to_string(min));
  return v;
}

}  // namespace cadastre::query
