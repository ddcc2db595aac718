// Copying what is under a project (layers, forms, fields, styles, additional layers and,
// when asked, geometries with their own labels, values, shares and history) under another
// project, remapping every id, including the field ids the styles name. Three routes use it: copiar-projeto and cadastro-imobiliario/nova-versao
// (within the tenant's database) and transferir (from a document exported from another
// tenant's database). It is three INSERT statements chained through CTEs (the layers and
// forms, the fields, the geometries with their values: each layer's table and columns are
// made by triggers at the end of the statement inserting its rows), the maps of one
// passed to the next as JSON: no temporary table, because a transfer's half must pass
// PREPARE TRANSACTION, which refuses sessions that used one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace soci {
class session;
}

namespace cadastre::platform::projects {

/// The members of an export_project() document ("projeto", "camadas", "geometrias"...), each
/// as its JSON text: views into the document, which must outlive them.
using DocumentParts = std::map<std::string, std::string_view, std::less<>>;

/// Where the rows come from: the tenant's own tables (with the SQL condition a layer must
/// meet to be copied, on alias `c`), or a document of export_project().
struct CopySource {
  std::string layer_filter = "true";       ///< local: e.g. the caller may see the layer
  const DocumentParts* document = nullptr;  ///< set: the rows come from this document
};

struct CopyOptions {
  bool geometries = false;
  bool values = false;   ///< needs geometries
  bool shares = false;   ///< the project's shares and the layers' per-user rights
  bool history = false;  ///< the values' audit rows and the project's events
  /// Keep who created or changed geometries and values; false (another tenant, whose user
  /// ids mean nothing here): those become null.
  bool keep_users = true;
};

/// One copied layer: its old id, new id and old main file (its files are copied apart:
/// FileCopies, files.hpp).
struct LayerCopy {
  std::int64_t from = 0, to = 0;
  std::optional<std::string> arquivo;
};

/// What was copied, by table, and the layers.
struct Copied {
  std::int64_t layers = 0, forms = 0, fields = 0, geometries = 0, values = 0;
  std::vector<LayerCopy> copies;
};

/// Copies under project `to` (already inserted) what is under project `from` in `source`,
/// as user `user` (the new layers' creator). Runs inside the caller's transaction.
Copied copy_contents(soci::session& s, const CopySource& source, std::int64_t from, std::int64_t to,
                     const CopyOptions& options, std::int64_t user);

/// Project `id` and everything under it as one JSON document (geometries as hex EWKB):
/// what copy_contents() reads in another database. Includes the project row ("projeto").
std::string export_project(soci::session& s, std::int64_t id);
/// `document` (of export_project()) parsed once into its members. It gains the parser's
/// padding as spare capacity, so that it is read in place: a transfer's document is tens
/// of megabytes, and each copy of it is as many page faults.
DocumentParts document_parts(std::string& document);
/// The JSON text of the project row in an export_project() document (its "projeto"),
/// "null" when it has none.
std::string document_project(const DocumentParts& parts);

/// Raises the statement timeout of the current transaction for a copy of a large project
/// (the pool's default is sized for requests, not for copying 100,000 geometries).
void allow_long_statements(soci::session& s);

}  // namespace cadastre::platform::projects
