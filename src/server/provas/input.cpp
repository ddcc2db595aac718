#include "server/provas/input.hpp"

#include <algorithm>
#include <cctype>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::provas {
namespace {

struct Column {
  const char* name;
  const char* type;
  bool writable;
  bool required;  ///< on create
};
constexpr Column kColumns[] = {
    {"id", "bigint", false, false},          {"numero_cadastro", "text", true, true},
    {"tipo", "text", true, true},            {"descricao", "text", true, false},
    {"arquivo_url", "text", true, true},     {"sha256", "text", true, true},
    {"data", "date", true, true},            {"criado_em", "timestamptz", false, false},
    {"atualizado_em", "timestamptz", false, false},
};

const Column* column(std::string_view name) {
  for (const auto& c : kColumns)
    if (name == c.name) return &c;
  return nullptr;
}

bool is_hex64(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isxdigit(ch) != 0; });
}

bool is_date(std::string_view s) {
  // The shape only: PostgreSQL checks the calendar (2024-02-30 → 400).
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// Checks the value of a writable field and returns it as stored.
std::optional<std::string> checked(const Column& c, std::optional<std::string> v) {
  const std::string field = c.name;
  if (!v) {
    if (field == "descricao") return v;
    throw Error(errc::invalid_argument, "o campo '" + field + "' não pode ser nulo", field);
  }
  if (field != "descricao" && v->empty()) throw Error(errc::invalid_argument, "o campo '" + field + "' está vazio", field);
  if (field == "arquivo_url" && !v->starts_with("http://") && !v->starts_with("https://"))
    throw Error(errc::invalid_argument, "arquivo_url deve ser um endereço http:// ou https://", field);
  if (field == "sha256") {
    if (!is_hex64(*v)) throw Error(errc::invalid_argument, "sha256 deve ter 64 caracteres hexadecimais", field);
    return http::lower_ascii(*v);
  }
  if (field == "data" && !is_date(*v)) throw Error(errc::invalid_argument, "data deve estar no formato AAAA-MM-DD", field);
  return v;
}

}  // namespace

std::vector<ProvaField> prova_fields(const std::string& body, bool create) {
  simdjson::dom::parser parser;
  auto obj = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  std::vector<ProvaField> out;
  for (auto [key, value] : obj) {
    const Column* c = column(key);
    if (!c) throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
    if (!c->writable)
      throw Error(errc::invalid_argument, "o campo '" + std::string(key) + "' é somente leitura", std::string(key));
    std::optional<std::string> v;
    if (!value.is_null()) v = jsonin::to_string(value, key);
    out.push_back({c->name, checked(*c, std::move(v)), c->type});
  }
  if (create) {
    for (const auto& c : kColumns)
      if (c.required && std::none_of(out.begin(), out.end(), [&](const ProvaField& f) { return f.column == c.name; }))
        throw Error(errc::missing_field, std::string("campo obrigatório ausente: '") + c.name + "'", c.name);
  } else if (out.empty()) {
    throw Error(errc::invalid_argument, "informe ao menos um campo a alterar", "corpo");
  }
  return out;
}

std::vector<ProvaField> prova_filters(const std::string& filtros) {
  simdjson::dom::parser parser;
  auto obj = jsonin::as_object(jsonin::parse(parser, filtros), "filtros");
  std::vector<ProvaField> out;
  for (auto [key, value] : obj) {
    const Column* c = column(key);
    if (!c || std::string_view(c->type) == "timestamptz")
      throw Error(errc::unknown_field, "filtro desconhecido: " + std::string(key), std::string(key));
    std::string text;
    if (value.is<std::int64_t>() || value.is<std::uint64_t>() || value.is<double>()) {
      text = simdjson::minify(value);
    } else if (value.is<std::string_view>()) {
      text = jsonin::to_string(value, key);
    } else {
      throw Error(errc::invalid_argument, "o filtro '" + std::string(key) + "' deve ser um texto ou um número",
                  std::string(key));
    }
    if (std::string_view(c->name) == "sha256") text = http::lower_ascii(text);
    out.push_back({c->name, std::move(text), c->type});
  }
  return out;
}

ListQuery parse_list(const http::Request& req) {
  ListQuery out;
  out.paging = query::normalize_paging(req.query);
  if (auto f = req.query_value("filtros")) out.filters = prova_filters(*f);
  return out;
}

std::string parse_id(const std::string& text) {
  return std::to_string(query::parse_integer(text, "id", 1, INT64_MAX));
}

}  // namespace cadastre::server::provas
