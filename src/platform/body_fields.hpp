// Small readers of JSON body members shared by the platform's input parsers, with the
// platform's wording of their errors (400 naming the member).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "core/utf8.hpp"

namespace cadastre::platform::body {

/// The string member `key`, at most `max` characters; `required`: not only blanks.
inline std::string text(jsonin::object o, const std::string& key, std::size_t max, bool required) {
  std::string v = jsonin::string(o, key);
  if (required && v.find_first_not_of(" \t") == std::string::npos)
    throw Error(errc::invalid_argument, key + " não pode ser vazio", key);
  if (utf8::characters(v) > max)
    throw Error(errc::invalid_argument, key + " longo demais (máx. " + std::to_string(max) + ")", key);
  return v;
}

/// An id: an integer ≥ 1.
inline std::int64_t positive_id(jsonin::element e, const std::string& key) {
  std::int64_t id = 0;
  if (e.get(id) || id < 1) throw Error(errc::invalid_argument, key + " deve ser um id (inteiro positivo)", key);
  return id;
}

/// The id member `key`: 400 campo_obrigatorio when absent (or null), else positive_id.
inline std::int64_t required_id(jsonin::object o, const std::string& key) {
  auto e = jsonin::find(o, key);
  if (!e) throw Error(errc::missing_field, "informe " + key, key);
  return positive_id(*e, key);
}

/// The id member `key` when present (not null).
inline std::optional<std::int64_t> optional_id(jsonin::object o, const std::string& key) {
  auto e = jsonin::find(o, key);
  if (!e) return std::nullopt;
  return positive_id(*e, key);
}

/// 400 campo_desconhecido naming the member `key`: what a parser that dispatches on its
/// members throws for one it does not know.
inline Error unknown_member(const std::string& key) {
  return Error(errc::unknown_field, "campo desconhecido: " + key, key);
}

/// 400 campo_desconhecido for a member of `o` not in `allowed`; `where` names the object
/// in the message when it is not the body itself ("condicoes[]").
inline void only_members(jsonin::object o, std::initializer_list<std::string_view> allowed, std::string_view where = {}) {
  for (auto [key, value] : o) {
    bool known = false;
    for (auto a : allowed) known = known || a == key;
    if (!known)
      throw Error(errc::unknown_field,
                  "campo desconhecido" + (where.empty() ? std::string() : " em " + std::string(where)) + ": " +
                      std::string(key),
                  std::string(key));
  }
}

/// Whether the member is there (null included).
inline bool present(jsonin::object o, std::string_view key) { return !o.at_key(key).error(); }

}  // namespace cadastre::platform::body
