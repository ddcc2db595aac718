// Database side of /midia: every SQL statement of the area, on the media records of a
// tenant (midia.arquivo). Every record change is one transaction with its audit row
// (tabela "midia.arquivo"); records are answered with every column plus the download link.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/media/files.hpp"
#include "server/media/input.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::server::media {

/// Creates the record of stored file `f` with the record fields given; lote_id or
/// imobiliario_id that do not exist → 400. Returns the record.
std::string create_record(store::Pool& db, const store::Principal& user, const StoredFile& f,
                          const std::vector<Column>& columns);
/// The record `id`; 404 when missing.
std::string read_record(store::Pool& db, const std::string& id);
/// Applies `changes` to record `id` and returns it; 404 when missing.
std::string update_record(store::Pool& db, const store::Principal& user, const std::string& id,
                          const std::vector<Column>& changes);

struct Removed {
  std::string key;     ///< the file of the record, to remove after the commit
  std::string record;  ///< the record as it was
};
/// Deletes record `id`; 404 when missing, 409 while an inspection uses it as a photo.
Removed delete_record(store::Pool& db, const store::Principal& user, const std::string& id);

/// How a tenant file is served: its display name (with its extension) and content type.
struct Served {
  std::string nome, content_type;
};
/// The record of file `key` in the tenant's database; nullopt when there is none.
std::optional<Served> served_file(store::Pool& db, const std::string& key);

}  // namespace cadastre::server::media
