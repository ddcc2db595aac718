// Tables named as "schema.table" text (the viewer's forms, record values, last change and
// batch writes). Only the tenant's catalog schemas are addressable: `cadastro` (layers,
// permission per layer) and `dominio` (domain tables, governed as the one layer "dominio").
// Order of checks: the shape and identifier rules of the text (400), the schema (400), the
// permission (403), then the catalog (404), so hostile or system names
// (pg_catalog.pg_authid, plataforma.usuarios) never reach SQL and unreadable tables are not
// probed. Also the error shape of one element of a request list (shared with
// characterization).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "service/scope.hpp"
#include "store/catalog.hpp"

namespace cadastre::server {

struct CatalogTable {
  std::shared_ptr<const store::Catalog> catalog;  ///< keeps `layer` alive
  const store::Layer* layer = nullptr;
  std::string name;  ///< "schema.table", as auditoria.registro.tabela writes it

  const store::Layer& operator*() const { return *layer; }
  const store::Layer* operator->() const { return layer; }
};

/// The table `text` ("cadastro.lote", "dominio.uso") of the scope's tenant, if the caller
/// may read (or write) it (the guard's Scope::may); `catalogs` gives the catalog of the
/// table's schema; `field` names the parameter in errors.
CatalogTable catalog_table(const service::Scope& s, std::string_view text, bool write,
                           std::string_view field = "schema_table");

/// The shared error shape for an error of one element of a request list, extended with
/// `lista` (the list's name) and `linha` (1-based position), the message prefixed with
/// "<lista>[<index>]: " and `suffix` appended.
http::Response list_error(const Error& e, std::string_view lista, std::size_t index, std::string_view suffix = {});

}  // namespace cadastre::server
