// Other programs read a municipality's layers directly (issue #30 item 4): a read-only
// PostgreSQL login per tenant database that sees the schema `camadas` and nothing else of
// the tenant (no personal data of the cadastre, the ombudsman or the audit):
//   - camadas.g<id>, layer <id>'s geometries (its partition of projeto.geometrias, `geom`
//     in SRID 4674), which QGIS opens as an ordinary PostGIS layer;
//   - camadas.l<id>, the layer's values (`id` = the geometry, a typed column c_<campo id>
//     per field);
//   - the views camadas.camadas and camadas.campos, which name the tables and columns.
// docs/operations.md says how to use it.
#pragma once

#include <string>

namespace cadastre::store {

/// The reader login of a tenant database, and the DSN a client connects with.
struct LayerReader {
  std::string role, password, dsn;
};

/// Creates (or, when it exists, gives a new password to) the read-only login of the tenant
/// database behind `tenant_dsn`: `leitura_<database name>`, allowed to connect to that
/// database only, to use the schema camadas and to select from its tables and views, those
/// created later included. Every database the caller owns stops accepting connections
/// from logins it has not been granted to (CONNECT is revoked from PUBLIC), so that no
/// reader reaches another municipality's or the platform's database. The password is new
/// and random each time (the old one stops working); it is returned once and stored
/// nowhere. Run as the owner of the tenant's tables (the services' user).
LayerReader grant_layer_reader(const std::string& tenant_dsn);

}  // namespace cadastre::store
