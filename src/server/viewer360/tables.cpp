#include "server/viewer360/tables.hpp"

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server {

CatalogTable catalog_table(const service::Scope& s, std::string_view text, bool write,
                           std::string_view field) {
  const std::string f(field);
  // Exactly one dot, two identifiers: quotes, spaces, a second dot or SQL text fail here.
  const auto dot = text.find('.');
  if (text.size() > 2 * query::max_identifier_length + 1 || dot == std::string_view::npos ||
      text.find('.', dot + 1) != std::string_view::npos)
    throw Error(errc::invalid_identifier,
                "informe a tabela como esquema.tabela (ex.: cadastro.lote)", f);
  const std::string_view schema = text.substr(0, dot), table = text.substr(dot + 1);
  query::check_identifier(schema, f);
  query::check_identifier(table, f);
  if (schema != "cadastro" && schema != "dominio")
    throw Error(
        errc::invalid_argument,
        "apenas tabelas do catálogo do município (cadastro.<tabela> ou dominio.<tabela>): " +
            std::string(text),
        f);

  // The permission before the catalog: an unreadable table is not probed.
  const std::string rule = schema == "dominio" ? std::string("dominio") : std::string(table);
  s.require(rule, write);

  CatalogTable t;
  t.catalog = s.catalog(schema);
  if (!t.catalog->find(table)) t.catalog = s.reload_catalog(schema);  // a new table?
  t.layer = t.catalog->find(table);
  if (!t.layer)
    throw Error(errc::layer_not_found, "tabela não encontrada no catálogo: " + std::string(text),
                f);
  t.name = std::string(text);
  return t;
}

http::Response list_error(const Error& e, std::string_view lista, std::size_t index,
                          std::string_view suffix) {
  return http::Response::json(
      http::error_body(e.code(), std::string(lista) + "[" + std::to_string(index) + "]: " + e.what() + std::string(suffix),
                       [&](JsonWriter& w) {
                         w.key("lista").value(lista).key("linha").value(static_cast<std::int64_t>(index + 1));
                         if (!e.field().empty()) w.key("campo").value(e.field());
                       }),
      http_status(e.code()));
}

}  // namespace cadastre::server
