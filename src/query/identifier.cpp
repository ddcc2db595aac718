#include <string>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {
namespace {
constexpr bool is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
}  // namespace

bool is_valid_identifier(std::string_view name) noexcept {
  if (name.empty() || name.size() > max_identifier_length) return false;
  if (!is_letter(name.front()) && name.front() != '_') return false;
  for (char c : name) {
    if (!is_letter(c) && !is_digit(c) && c != '_') return false;
  }
  return true;
}

void check_identifier(std::string_view name, std::string_view what) {
  if (is_valid_identifier(name)) return;
  throw Error(errc::invalid_identifier,
              "identificador inválido em '" + std::string(what) + "': '" + detail::printable(name) +
                  "' (use 1 a 63 letras ASCII, dígitos ou '_', começando por letra ou '_')",
              std::string(what));
}

std::string quote_identifier(std::string_view name) {
  if (name.empty() || name.size() > max_identifier_length ||
      name.find('\0') != std::string_view::npos) {
    throw Error(errc::invalid_identifier,
                "identificador não pode ser vazio, conter o byte nulo nem passar de 63 bytes",
                "identificador");
  }
  std::string out;
  out.reserve(name.size() + 2);
  out.push_back('"');
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string quote_qualified(std::string_view schema, std::string_view name) {
  return quote_identifier(schema) + "." + quote_identifier(name);
}

}  // namespace cadastre::query
