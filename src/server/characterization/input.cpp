#include "server/characterization/input.hpp"

#include <simdjson.h>

#include <charconv>

#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/viewer360/tables.hpp"

namespace cadastre::server::characterization {
namespace {

constexpr std::size_t kMaxQueries = 50;  // json_build_array takes at most 100 arguments
constexpr std::int64_t kMaxRows = 1000;

const store::Column& plain_column(const store::Layer& t, std::string_view name,
                                  const std::string& field) {
  const store::Column& c = t.require_column(name, field);
  if (c.geometry)
    throw Error(errc::invalid_argument, "a coluna '" + c.name + "' é geométrica", field);
  return c;
}

// The filter value as text PostgreSQL casts to the column's type; numbers and booleans
// are checked here so a wrong type is a 400 naming this query, not a failed statement.
store::Value filter_value(const store::Column& c, simdjson::dom::element v,
                          const std::string& field) {
  if (v.is_null()) return std::nullopt;
  if (v.is_array() || v.is_object())
    throw Error(errc::invalid_argument, "o filtro aceita apenas valores simples", field);
  std::string text = v.is_string() ? std::string(std::string_view(v)) : simdjson::minify(v);
  if (c.integer()) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size())
      throw Error(errc::invalid_argument, "a coluna '" + c.name + "' espera um inteiro", field);
  } else if (c.numeric()) {
    double d = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec != std::errc() || end != text.data() + text.size())
      throw Error(errc::invalid_argument, "a coluna '" + c.name + "' espera um número", field);
  } else if (c.base_type == "bool" && text != "true" && text != "false") {
    throw Error(errc::invalid_argument, "a coluna '" + c.name + "' espera true ou false", field);
  }
  return text;
}

Lookup parse_lookup(const service::Scope& s, simdjson::dom::element e, std::size_t i) {
  const std::string where = "queries[" + std::to_string(i) + "]";
  auto o = jsonin::as_object(e, where);
  for (auto [key, value] : o) {
    if (key != "tabela" && key != "valor" && key != "rotulo" && key != "filtro" && key != "limite")
      throw Error(errc::unknown_field, "campo desconhecido: '" + std::string(key) + "'",
                  where + "." + std::string(key));
  }
  auto tabela = jsonin::find(o, "tabela");
  if (!tabela)
    throw Error(errc::missing_field, "informe 'tabela' (esquema.tabela)", where + ".tabela");
  Lookup q;
  q.limit = kMaxRows;
  CatalogTable table =
      catalog_table(s, jsonin::to_string(*tabela, where + ".tabela"), false, where + ".tabela");
  q.catalog = table.catalog;
  q.table = table.layer;
  const store::Layer& t = *q.table;
  const bool domain = t.schema == "dominio";
  auto named = [&](const char* key, const char* fallback) -> const store::Column* {
    if (auto v = jsonin::find(o, key))
      return &plain_column(t, jsonin::to_string(*v, where + "." + key), where + "." + key);
    if (fallback && t.column(fallback)) return t.column(fallback);
    return nullptr;
  };
  q.valor = named("valor", domain                  ? "codigo"
                           : t.primary_key.empty() ? nullptr
                                                   : t.primary_key.c_str());
  if (!q.valor)
    throw Error(errc::missing_field, "informe 'valor' (a tabela não tem chave simples)",
                where + ".valor");
  q.rotulo = named("rotulo", domain ? "descricao" : "nome");
  if (!q.rotulo) q.rotulo = named("rotulo", "descricao");
  if (!q.rotulo)
    throw Error(errc::missing_field, "informe 'rotulo' (a tabela não tem nome nem descricao)",
                where + ".rotulo");
  if (auto f = jsonin::find(o, "filtro")) {
    for (auto [key, value] : jsonin::as_object(*f, where + ".filtro")) {
      const std::string field = where + ".filtro." + std::string(key);
      const store::Column& c = plain_column(t, key, field);
      q.filters.push_back({&c, filter_value(c, value, field)});
    }
  }
  if (auto l = jsonin::find(o, "limite")) {
    std::int64_t n = 0;
    if (l->get(n) != simdjson::SUCCESS || n < 1 || n > kMaxRows)
      throw Error(errc::invalid_argument,
                  "'limite' deve ser um inteiro de 1 a " + std::to_string(kMaxRows),
                  where + ".limite");
    q.limit = n;
  }
  return q;
}

}  // namespace

std::vector<Lookup> parse_lookups(const service::Scope& s, std::string_view text) {
  simdjson::dom::parser parser;
  auto body = jsonin::as_object(jsonin::parse(parser, text), "corpo");
  for (auto [key, value] : body) {
    if (key != "queries")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'",
                  std::string(key));
  }
  auto list = jsonin::find(body, "queries");
  if (!list) throw Error(errc::missing_field, "informe 'queries': a lista de consultas", "queries");
  auto items = jsonin::as_array(*list, "queries");
  if (items.size() == 0 || items.size() > kMaxQueries)
    throw Error(errc::invalid_argument,
                "'queries' deve ter de 1 a " + std::to_string(kMaxQueries) + " consultas",
                "queries");
  std::vector<Lookup> lookups;
  std::size_t i = 0;
  for (auto e : items) {
    try {
      lookups.push_back(parse_lookup(s, e, i));
    } catch (const Error& err) {
      throw LookupError{err, i};
    }
    ++i;
  }
  return lookups;
}

}  // namespace cadastre::server::characterization
