// Map library (/mapoteca): every SQL statement of the area, the reads and writes of
// mapoteca.item (db/migrations/tenant/0009_mapoteca.sql). Items are answered as GeoJSON
// Features: id, footprint (lon/lat, EPSG:4326 as RFC 7946 wants) and the metadata as
// properties (titulo, descricao, palavras_chave, data, escala, arquivo_url, criado_em,
// atualizado_em, criado_por).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/bbox.hpp"
#include "cadastre/query.hpp"
#include "server/mapoteca/input.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::mapoteca {

/// Audit table name of the items.
inline constexpr const char* kAuditTable = "mapoteca.item";

/// A page of features with the number of all matches.
struct Page {
  std::string features = "[]";
  long long returned = 0;
  long long total = 0;
};

/// Items whose footprint intersects `box` (a degenerate box is a point or a line), by id.
Page search_box(store::Pool& db, const geom::BBox& box, const query::Paging& paging);

/// Items matching the words (web search syntax: words are ANDed, "quoted phrases", OR,
/// -excluded), accent-insensitive and stemmed, ranked by ts_rank with the title above the
/// keywords above the description; each feature carries its "relevancia". Words that are
/// all stop words → Error 400.
Page search_words(store::Pool& db, const std::string& words, const query::Paging& paging);

/// Applies `changes` to item `id` with its audit row (one transaction) and returns the
/// feature after; Error(not_found) when there is no such item.
std::string update_item(store::Pool& db, std::int64_t id, const std::vector<Assignment>& changes,
                        const store::Principal& user);

/// Removes item `id` with its audit row (one transaction) and returns the feature it was;
/// Error(not_found) when there is no such item.
std::string delete_item(store::Pool& db, std::int64_t id, const store::Principal& user);

}  // namespace cadastre::server::mapoteca
