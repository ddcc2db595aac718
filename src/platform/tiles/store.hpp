// The statements of the platform's vector tiles: a layer's geometries (projeto.geometrias,
// SIRGAS 2000 with a GiST index) rendered by PostGIS as one Mapbox Vector Tile in one
// statement, prepared once per pooled connection and read as binary bytea
// (store::run_prepared_binary, shared with the cadastre's tile service). /vt2's features
// carry values read from the layer's table (camadas.l<id>, platform/common/layer_table.hpp),
// so its statement is built per layer and style.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/tiles.hpp"
#include "platform/tiles/cache.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::tiles {

/// What a tile route asks for.
struct TileRequest {
  std::int64_t tenant = 0;  ///< whose database `layer` is in (the cache's key)
  std::int64_t layer = 0;
  cadastre::tiles::Tile tile;
  /// /vt2: each feature carries the values of the fields the layer's stored style reads
  /// (categorias.idCampo, rotulo.campos[].id, rotulo.rotacao.id; at most kMaxAttributes),
  /// as properties named after each field's chave, plus the geometry's own label override
  /// (_rotulo, _rotacao). /vt carries none. The feature id is the geometry id in both.
  bool attributes = false;
  /// /svt: the layer must be active, not private, of an active published project;
  /// otherwise it is not found.
  bool published_only = false;
};

inline constexpr int kMaxAttributes = 16;

/// A tile as the routes answer it.
struct TileAnswer {
  std::string etag;           ///< quoted: the layer's generation, the attributes and the statement
  bool not_modified = false;  ///< `fresh(etag)` held: nothing rendered
  std::string mvt;            ///< the tile; empty when no feature falls in it
};

/// The MVT layer name of a platform layer's tiles: "camada_<id>" (MapLibre's source-layer).
std::string mvt_layer_name(std::int64_t layer);

/// Renders `r` from `db` unless the client holds it already: `listed` are the entity tags
/// its If-None-Match names (http::etag_list; "*" matches any). Throws Error not_found for a
/// layer that is not a vector layer of this tenant (or, for published_only, not public).
/// /vt and /svt take one statement (the layer's generation and the tile together), /vt2
/// two (its attributes depend on the layer's style, read first). /vt's and /svt's tiles are
/// kept in `cache`: the statement then renders nothing while the layer's generation is the
/// one the cached tile was rendered at, and the cached bytes are answered.
TileAnswer render(store::Pool& db, TileCache& cache, const TileRequest& r,
                  const std::vector<std::string_view>& listed);

}  // namespace cadastre::platform::tiles
