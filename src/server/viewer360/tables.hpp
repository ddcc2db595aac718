// Tables named as "schema.table" text (the viewer's forms, record values, last change and
// batch writes, the characterization's lookups). Only the tenant's catalog schemas are
// addressable: `cadastro` (layers, permission per layer) and `dominio` (domain tables,
// governed as the one layer "dominio"). Order of checks: the shape and identifier rules of
// the text (400), the schema (400), the permission (403), then the catalog (404), so
// hostile or system names (pg_catalog.pg_authid, plataforma.usuarios) never reach SQL and
// unreadable tables are not probed.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "server/app.hpp"
#include "store/catalog.hpp"

namespace cadastre::server {

struct CatalogTable {
  std::shared_ptr<const store::Catalog> catalog;  ///< keeps `layer` alive
  const store::Layer* layer = nullptr;
  std::string name;  ///< "schema.table", as auditoria.registro.tabela writes it

  const store::Layer& operator*() const { return *layer; }
  const store::Layer* operator->() const { return layer; }
};

/// The table `text` ("cadastro.lote", "dominio.uso") of the request's tenant, if the
/// caller may read (or write) it; `field` names the parameter in errors.
CatalogTable catalog_table(App& app, const http::Request& req, std::string_view text, bool write,
                           std::string_view field = "schema_table");

/// The name under which the permission rules govern a catalog table: the layer name for
/// `cadastro`, "dominio" for every domain table.
std::string permission_layer(std::string_view schema, std::string_view table);

/// The shared error shape for an error of one element of a request list, extended with
/// `lista` (the list's name) and `linha` (1-based position), the message prefixed with
/// "<lista>[<index>]: " and `suffix` appended.
http::Response list_error(const Error& e, std::string_view lista, std::size_t index, std::string_view suffix = {});

}  // namespace cadastre::server
