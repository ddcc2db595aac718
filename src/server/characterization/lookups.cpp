// POST /caracterizacao/{municipio}/lookups/batch: the option lists of a form's selects in
// one round trip. Body {"queries": [q0, q1, ...]} (1..50), each
//   {"tabela": "dominio.uso"}                                    → valor codigo, rotulo descricao
//   {"tabela": "cadastro.bairro", "valor": "id", "rotulo": "nome",
//    "filtro": {"coluna": valor, ...}, "limite": 100}            → equality filters, AND-ed
// Answer {"resultados": [[{"valor", "rotulo"}, ...], ...]} in the order of the queries,
// each list ordered by rotulo then valor. Every query is checked (names against the
// catalog, read permission, filter values) before the one statement runs; the first
// invalid query answers 4xx naming its index (lista "queries", linha from 1) and nothing
// is answered for the others.
#include <simdjson.h>
#include <soci/soci.h>

#include <charconv>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/characterization/routes.hpp"
#include "server/viewer360/tables.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

constexpr std::size_t kMaxQueries = 50;  // json_build_array takes at most 100 arguments
constexpr std::int64_t kMaxRows = 1000;

struct Filter {
  const store::Column* column;
  store::Value value;  // nullopt: IS NULL
};

struct Lookup {
  CatalogTable table;
  const store::Column* valor = nullptr;
  const store::Column* rotulo = nullptr;
  std::vector<Filter> filters;
  std::int64_t limit = kMaxRows;
};

const store::Column& plain_column(const CatalogTable& t, std::string_view name, const std::string& field) {
  const store::Column& c = t->require_column(name, field);
  if (c.geometry) throw Error(errc::invalid_argument, "a coluna '" + c.name + "' é geométrica", field);
  return c;
}

// The filter value as text PostgreSQL casts to the column's type; numbers and booleans
// are checked here so a wrong type is a 400 naming this query, not a failed statement.
store::Value filter_value(const store::Column& c, simdjson::dom::element v, const std::string& field) {
  if (v.is_null()) return std::nullopt;
  if (v.is_array() || v.is_object()) throw Error(errc::invalid_argument, "o filtro aceita apenas valores simples", field);
  std::string text = v.is_string() ? std::string(std::string_view(v)) : simdjson::minify(v);
  const bool integer = c.base_type == "int2" || c.base_type == "int4" || c.base_type == "int8";
  if (integer) {
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

Lookup parse_lookup(App& app, const http::Request& req, simdjson::dom::element e, std::size_t i) {
  const std::string where = "queries[" + std::to_string(i) + "]";
  auto o = jsonin::as_object(e, where);
  for (auto [key, value] : o) {
    if (key != "tabela" && key != "valor" && key != "rotulo" && key != "filtro" && key != "limite")
      throw Error(errc::unknown_field, "campo desconhecido: '" + std::string(key) + "'", where + "." + std::string(key));
  }
  auto tabela = jsonin::find(o, "tabela");
  if (!tabela) throw Error(errc::missing_field, "informe 'tabela' (esquema.tabela)", where + ".tabela");
  Lookup q;
  q.table = catalog_table(app, req, jsonin::to_string(*tabela, where + ".tabela"), false, where + ".tabela");
  const store::Layer& t = *q.table;
  const bool domain = t.schema == "dominio";
  auto named = [&](const char* key, const char* fallback) -> const store::Column* {
    if (auto v = jsonin::find(o, key)) return &plain_column(q.table, jsonin::to_string(*v, where + "." + key), where + "." + key);
    if (fallback && t.column(fallback)) return t.column(fallback);
    return nullptr;
  };
  q.valor = named("valor", domain ? "codigo" : t.primary_key.empty() ? nullptr : t.primary_key.c_str());
  if (!q.valor) throw Error(errc::missing_field, "informe 'valor' (a tabela não tem chave simples)", where + ".valor");
  q.rotulo = named("rotulo", domain ? "descricao" : "nome");
  if (!q.rotulo) q.rotulo = named("rotulo", "descricao");
  if (!q.rotulo) throw Error(errc::missing_field, "informe 'rotulo' (a tabela não tem nome nem descricao)", where + ".rotulo");
  if (auto f = jsonin::find(o, "filtro")) {
    for (auto [key, value] : jsonin::as_object(*f, where + ".filtro")) {
      const std::string field = where + ".filtro." + std::string(key);
      const store::Column& c = plain_column(q.table, key, field);
      q.filters.push_back({&c, filter_value(c, value, field)});
    }
  }
  if (auto l = jsonin::find(o, "limite")) {
    std::int64_t n = 0;
    if (l->get(n) != simdjson::SUCCESS || n < 1 || n > kMaxRows)
      throw Error(errc::invalid_argument, "'limite' deve ser um inteiro de 1 a " + std::to_string(kMaxRows), where + ".limite");
    q.limit = n;
  }
  return q;
}

void append_lookup(store::Sql& sql, const Lookup& q) {
  const std::string v = "t." + query::quote_identifier(q.valor->name), r = "t." + query::quote_identifier(q.rotulo->name);
  sql << "(select coalesce(json_agg(json_build_object('valor', x.v, 'rotulo', x.r) order by x.r, x.v), '[]') from "
      << "(select " << v << " as v, " << r << " as r from " << q.table->qualified() << " t";
  const char* glue = " where ";
  for (const Filter& f : q.filters) {
    sql << glue << "t." << query::quote_identifier(f.column->name);
    if (f.value) {
      sql << " = ";
      sql.bind(f.value, f.column->type);
    } else {
      sql << " is null";
    }
    glue = " and ";
  }
  sql << " order by " << r << ", " << v << " limit " << std::to_string(q.limit) << ") x)";
}

}  // namespace

http::Response batch_lookups(App& app, http::Request& req) {
  simdjson::dom::parser parser;
  auto body = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
  for (auto [key, value] : body) {
    if (key != "queries")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'", std::string(key));
  }
  auto list = jsonin::find(body, "queries");
  if (!list) throw Error(errc::missing_field, "informe 'queries': a lista de consultas", "queries");
  auto items = jsonin::as_array(*list, "queries");
  if (items.size() == 0 || items.size() > kMaxQueries)
    throw Error(errc::invalid_argument, "'queries' deve ter de 1 a " + std::to_string(kMaxQueries) + " consultas", "queries");

  std::vector<Lookup> lookups;
  std::size_t i = 0;
  for (auto e : items) {
    try {
      lookups.push_back(parse_lookup(app, req, e, i));
    } catch (const Error& err) {
      return list_error(err, "queries", i);
    }
    ++i;
  }
  store::Sql sql("select json_build_object('resultados', json_build_array(");
  for (std::size_t k = 0; k < lookups.size(); ++k) {
    if (k) sql << ", ";
    append_lookup(sql, lookups[k]);
  }
  sql << "))::text";
  auto answer = context(req).db->with([&](soci::session& s) { return store::fetch_value(s, sql); });
  return http::Response::json(answer.value_or("{\"resultados\":[]}"));
}

}  // namespace cadastre::server
