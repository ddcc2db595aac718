#include "http/params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

namespace cadastre::http {
namespace {

// A name or value as a message quotes it: at most 64 bytes, control bytes shown as '?'.
std::string shown(std::string_view s) {
  constexpr std::size_t limit = 64;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < limit; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    out.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
  }
  if (s.size() > limit) out += "...";
  return out + "'";
}

void refuse_nul(std::string_view text, std::string_view name, const char* what) {
  if (text.find('\0') == std::string_view::npos) return;
  throw Error(errc::invalid_argument,
              std::string(what) + " " + shown(name) + " contém o caractere nulo (%00)",
              std::string(name));
}

template <class T>
bool parses_as(std::string_view text) {
  T v{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(v);
  return true;
}

// The declared type and values of `p` hold for `value`.
void check_value(const Param& p, std::string_view value) {
  const char* expected = nullptr;
  if (p.type == "integer" && !parses_as<std::int64_t>(value)) expected = "um número inteiro";
  if (p.type == "number" && !parses_as<double>(value)) expected = "um número decimal (ex.: -47.06)";
  if (p.type == "boolean" && value != "true" && value != "false") expected = "true ou false";
  if (expected)
    throw Error(
        errc::invalid_argument,
        "parâmetro " + shown(p.name) + " deve ser " + expected + ", recebido " + shown(value),
        p.name);
  if (p.values.empty() || std::find(p.values.begin(), p.values.end(), value) != p.values.end())
    return;
  std::string list;
  for (const auto& v : p.values) list += (list.empty() ? "" : ", ") + v;
  throw Error(
      errc::invalid_argument,
      "parâmetro " + shown(p.name) + " deve ser um de: " + list + "; recebido " + shown(value),
      p.name);
}

const Param* declared(const Route& route, std::string_view key) {
  for (const auto& p : route.params)
    if (p.in == "query" && p.type != "object" && p.name == key) return &p;
  return nullptr;
}

}  // namespace

void validate_params(const Route& route, const Request& req) {
  for (const auto& [name, value] : req.params) refuse_nul(value, name, "o parâmetro de caminho");
  const bool free_fields =
      std::any_of(route.params.begin(), route.params.end(),
                  [](const Param& p) { return p.in == "query" && p.type == "object"; });
  for (std::size_t i = 0; i < req.query.size(); ++i) {
    const auto& [key, value] = req.query[i];
    refuse_nul(key, key, "o nome de parâmetro");
    refuse_nul(value, key, "o parâmetro");
    const Param* p = declared(route, key);
    if (!p) {
      if (free_fields) continue;
      throw Error(errc::unknown_field, "parâmetro desconhecido: " + shown(key), key);
    }
    for (std::size_t j = 0; j < i; ++j)
      if (req.query[j].first == key)
        throw Error(errc::invalid_argument,
                    "parâmetro " + shown(key) + " informado mais de uma vez", key);
    check_value(*p, value);
  }
}

}  // namespace cadastre::http
