#include "core/json_in.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cadastre/json.hpp"

namespace cadastre::jsonin {
namespace {
[[noreturn]] void wrong_type(std::string_view field, std::string_view expected) {
  throw Error(errc::invalid_argument,
              "campo '" + std::string(field) + "' deve ser " + std::string(expected),
              std::string(field));
}
[[noreturn]] void missing(std::string_view field) {
  throw Error(errc::missing_field, "campo obrigatório ausente: '" + std::string(field) + "'",
              std::string(field));
}

// A key as a message shows it: JSON-quoted, at most 64 bytes of it.
std::string shown(std::string_view key) {
  constexpr std::size_t limit = 64;
  return key.size() <= limit ? json_quote(key) : json_quote(key.substr(0, limit)) + "...";
}

// PostgreSQL's text values are C strings: a NUL would cut the value short (a filter
// "%\0%" becomes "%", which matches everything), so no text may carry one.
bool has_nul(std::string_view s) { return s.find('\0') != std::string_view::npos; }

void refuse_nul_value(std::string_view s, std::string_view key) {
  if (!has_nul(s)) return;
  throw Error(errc::invalid_argument,
              key.empty() ? "texto com o caractere nulo (\\u0000) no JSON"
                          : "o valor de " + shown(key) + " contém o caractere nulo (\\u0000)",
              std::string(key));
}

// simdjson keeps every member of an object, so {"id":1,"id":2} would reach the code that
// reads it with two meanings (the first wins in at_key, both in a loop over members).
void refuse_repeated(std::vector<std::string_view>& keys) {
  std::sort(keys.begin(), keys.end());
  auto twice = std::adjacent_find(keys.begin(), keys.end());
  if (twice != keys.end())
    throw Error(errc::invalid_argument, "chave duplicada no JSON: " + shown(*twice),
                std::string(*twice));
}

// One pass over the document: every object without repeated keys, no NUL in any key or
// string. `key` is the member the element is the value of (for messages).
void check_element(element e, std::string_view key) {
  array a;
  object o;
  std::string_view s;
  if (!e.get(a)) {
    for (element item : a) check_element(item, key);
  } else if (!e.get(o)) {
    std::vector<std::string_view> keys;
    keys.reserve(o.size());
    for (auto [k, v] : o) {
      if (has_nul(k))
        throw Error(errc::invalid_argument,
                    "chave com o caractere nulo (\\u0000) no JSON: " + shown(k));
      keys.push_back(k);
      check_element(v, k);
    }
    refuse_repeated(keys);
  } else if (!e.get(s)) {
    refuse_nul_value(s, key);
  }
}
}  // namespace

element parse(simdjson::dom::parser& parser, std::string_view text) {
  element e;
  auto err = parser.parse(text.data(), text.size(), true).get(e);
  if (err) throw Error(errc::invalid_json, std::string("JSON inválido: ") + simdjson::error_message(err));
  check_element(e, {});
  return e;
}

object as_object(element e, std::string_view what) {
  object o;
  if (e.get(o)) wrong_type(what, "um objeto JSON");
  return o;
}

array as_array(element e, std::string_view what) {
  array a;
  if (e.get(a)) wrong_type(what, "uma lista JSON");
  return a;
}

std::optional<element> find(object o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e)) return std::nullopt;
  if (e.is_null()) return std::nullopt;
  return e;
}

double to_number(element e, std::string_view field) {
  double d;
  if (e.is<double>()) {
    d = e.get_double().value_unsafe();
  } else if (e.is<int64_t>()) {
    d = static_cast<double>(e.get_int64().value_unsafe());
  } else if (e.is<uint64_t>()) {
    d = static_cast<double>(e.get_uint64().value_unsafe());
  } else {
    wrong_type(field, "um número");
  }
  if (!std::isfinite(d)) wrong_type(field, "um número finito");
  return d;
}

std::string to_string(element e, std::string_view field) {
  std::string_view s;
  if (e.get(s)) wrong_type(field, "um texto");
  return std::string(s);
}

std::optional<double> opt_number(object o, std::string_view key) {
  auto e = find(o, key);
  if (!e) return std::nullopt;
  return to_number(*e, key);
}
double number(object o, std::string_view key) {
  auto v = opt_number(o, key);
  if (!v) missing(key);
  return *v;
}
std::optional<std::int64_t> opt_integer(object o, std::string_view key) {
  auto e = find(o, key);
  if (!e) return std::nullopt;
  int64_t i;
  if (!e->get(i)) return i;
  // Accept integral doubles such as 3.0 from clients that only have doubles.
  double d = to_number(*e, key);
  if (d != std::floor(d) || std::fabs(d) > 9.0e15) wrong_type(key, "um número inteiro");
  return static_cast<std::int64_t>(d);
}
std::int64_t integer(object o, std::string_view key) {
  auto v = opt_integer(o, key);
  if (!v) missing(key);
  return *v;
}
std::optional<std::string> opt_string(object o, std::string_view key) {
  auto e = find(o, key);
  if (!e) return std::nullopt;
  return to_string(*e, key);
}
std::string string(object o, std::string_view key) {
  auto v = opt_string(o, key);
  if (!v) missing(key);
  return *v;
}
std::optional<bool> opt_bool(object o, std::string_view key) {
  auto e = find(o, key);
  if (!e) return std::nullopt;
  bool b;
  if (e->get(b)) wrong_type(key, "verdadeiro ou falso");
  return b;
}

}  // namespace cadastre::jsonin
