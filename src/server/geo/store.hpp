// Every SQL statement of the advanced geospatial section (/geo).
//
// Intersection of a layer with a query geometry, measured on the ellipsoid: each
// intersecting feature comes out as a GeoJSON Feature whose properties carry, besides the
// record's columns,
//   area_intersecao_m2  ST_Area(ST_Intersection(geom, query)::geography), m², 2 decimals;
//   percentual_coberto  the share of the feature covered by the query geometry, 0–100:
//                       by area for polygons, by length for lines, 100 for points.
// Candidates are found with `&&` and ST_Intersects, so the layer's GiST index is used; the
// (costly) intersection is computed only for the rows of the requested page.
//
// How the records of a layer relate to one lot (filtro_relacionamentos):
// by key ("chave"), read from the catalog by the naming convention of the cadastre schema:
//   - the layer has a column `lote_id` (edificacao, imobiliario, ...): its records whose
//     lote_id is the lot's id;
//   - the lot has a column `<camada>_id` (quadra_id, face_quadra_id, logradouro_id): the
//     record of that layer the lot points to.
// Spatially ("espacial"), for layers with geometry: the records whose geometry shares
// interior points with the lot's (ST_Intersects and not ST_Touches, so neighbouring lots or
// a street that only runs along the boundary do not count); for the layer lote itself the
// lot is left out. Without a forced mode the key is used when there is one, else the geometry.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/catalog.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::geo {

// ---------------------------------------------------------------- intersect

struct IntersectResult {
  std::string features = "[]";  ///< JSON array of Features
  long long returned = 0;       ///< features in this page
  long long total = 0;          ///< every intersecting feature (for the same filters)
};

/// Runs the intersection of `q.layer` (which must have geometry) with `ewkb_hex` (a valid
/// EPSG:4674 geometry as hex EWKB), honouring q's field filters, sort and paging.
IntersectResult intersect_layer(soci::session& s, const store::FeatureQuery& q, const std::string& ewkb_hex);

// ---------------------------------------------------------------- filtro_relacionamentos

enum class RelationMode { key, spatial };

struct LotRelation {
  RelationMode mode = RelationMode::key;
  std::string condition;  ///< SQL condition on `t` referring to the lot's row (lote_ref)
};

/// The relation of `layer` to lots, in `forced` mode when given; nullopt when there is none
/// (no key and no geometry, or the forced mode is not available for this layer).
std::optional<LotRelation> lot_relation(const store::Layer& lote, const store::Layer& layer,
                                        std::optional<RelationMode> forced);

/// A layer related to the lot and how.
struct Related {
  const store::Layer* layer = nullptr;
  LotRelation relation;
};

/// The number of records of each of `related` that relate to lot `id` (checked against
/// lote's key), in the same order; 404 when the lot does not exist.
std::vector<long long> relation_counts(soci::session& s, const store::Layer& lote, const std::string& id,
                                       const std::vector<Related>& related);

/// The page of `q` (its extra_where the relation's condition) of the records related to
/// lot `id`: (features, returned); 404 when the lot does not exist.
std::pair<std::string, long long> related_page(soci::session& s, const store::Layer& lote, const std::string& id,
                                               const store::FeatureQuery& q);

}  // namespace cadastre::server::geo
