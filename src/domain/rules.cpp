#include "domain/rules.hpp"

#include <string>

#include "cadastre/domain.hpp"
#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::domain {
namespace detail {
namespace {

[[noreturn]] void invalid(std::string_view field, const std::string& why) {
  throw Error(errc::invalid_argument, "campo '" + std::string(field) + "' " + why,
              std::string(field));
}

bool is_blank(std::string_view s) noexcept {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

std::size_t char_count(std::string_view utf8) noexcept {
  std::size_t n = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

void check_code(std::string_view code, std::string_view field) {
  if (code.empty()) invalid(field, "não pode ser vazio");
  if (char_count(code) > max_code_length) {
    invalid(field, "deve ter no máximo " + std::to_string(max_code_length) + " caracteres");
  }
  for (unsigned char c : code) {
    if (c < 0x20 || c == 0x7f) invalid(field, "não pode conter caracteres de controle");
  }
  // A code with edge spaces looks equal to another on screen but is a different key.
  if (code.front() == ' ' || code.back() == ' ')
    invalid(field, "não pode começar nem terminar com espaço");
}

void check_description(std::string_view text) {
  if (is_blank(text)) invalid("descricao", "não pode ser vazio");
  if (char_count(text) > max_description_length) {
    invalid("descricao",
            "deve ter no máximo " + std::to_string(max_description_length) + " caracteres");
  }
  // PostgreSQL text cannot store the NUL character.
  if (text.find('\0') != std::string_view::npos)
    invalid("descricao", "não pode conter o caractere nulo");
}

}  // namespace detail

void Record::validate() const {
  detail::check_code(id, "id");
  detail::check_code(codigo, "codigo");
  if (id != codigo) {
    throw Error(errc::invalid_argument,
                "id e codigo devem ser iguais (id '" + id + "', codigo '" + codigo + "')",
                "codigo");
  }
  detail::check_description(descricao);
  for (std::size_t i = 0; i < extra.size(); ++i) {
    const auto& [name, value] = extra[i];
    query::check_identifier(name, name);
    if (name == "id" || name == "codigo" || name == "descricao") {
      throw Error(errc::invalid_argument, "campo '" + name + "' repetido", name);
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (extra[j].first == name)
        throw Error(errc::invalid_argument, "campo '" + name + "' repetido", name);
    }
    if (const auto* s = std::get_if<std::string>(&value); s && s->find('\0') != std::string::npos) {
      throw Error(errc::invalid_argument, "campo '" + name + "' não pode conter o caractere nulo",
                  name);
    }
  }
}

bool is_valid_table_name(std::string_view name) noexcept {
  return query::is_valid_identifier(name);
}

void check_table_name(std::string_view name) { query::check_identifier(name, "campo"); }

}  // namespace cadastre::domain
