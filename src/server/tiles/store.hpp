// Every statement of the vector tile service, built from a catalog layer (names already
// checked against the tenant catalog and emitted only through query::quote_identifier),
// and the libpq runner of named prepared statements with binary results that tiles (and
// the layers' detail) read through.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cadastre/tiles.hpp"
#include "store/catalog.hpp"
#include "store/pool.hpp"

namespace soci {
class session;
}

namespace cadastre::server::tiles {

/// The one statement that renders a Mapbox Vector Tile of `layer` (which must have a
/// geometry column with a known SRID). Parameters, all text: $1 z, $2 x, $3 y, $4 the MVT
/// layer name, $5 the geometry column name. One row, one bytea column (empty when no
/// feature falls in the tile).
std::string tile_sql(const store::Layer& layer);

/// The statement giving the generation of a layer ($1, its name) as text: the counter
/// of auditoria.geracao_camada, "0" for a layer never written through the API.
/// (store::generation() reports 1 both for that case and after the first write, since
/// store::bump_generation() creates the row at 1: an ETag built on it would not change
/// on a layer's first write.)
std::string generation_sql();

/// The statement giving the layer's extent in lon/lat: one row (xmin, ymin, xmax, ymax)
/// as text (shortest exact float8 form), all NULL when the layer is empty.
std::string extent_sql(const store::Layer& layer);

/// The properties a tile carries for `layer`, each with its TileJSON type ("Number",
/// "String" or "Boolean"), in column order.
std::vector<std::pair<std::string, std::string>> tile_fields(const store::Layer& layer);

/// Throws Error (404 for a layer without geometry, 400 for one without SRID) unless tiles
/// can be made of `layer`.
void require_tileable(const store::Layer& layer);

/// A tile as the route answers it.
struct TileAnswer {
  std::string etag;           ///< quoted: the layer generation and the statement digest
  bool not_modified = false;  ///< `fresh(etag)` held: nothing rendered
  std::string mvt;            ///< the tile (empty when no feature falls in it)
};
/// Tile `t` of `layer` (tileable), unless `fresh(etag)` says the client has it already.
TileAnswer render_tile(store::Pool& db, const store::Layer& layer, const cadastre::tiles::Tile& t,
                       const std::function<bool(const std::string&)>& fresh);

/// The layer's extent in lon/lat (xmin, ymin, xmax, ymax); nullopt for an empty layer.
std::optional<std::array<double, 4>> extent(store::Pool& db, const store::Layer& layer);

}  // namespace cadastre::server::tiles
