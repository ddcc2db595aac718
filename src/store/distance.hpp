// Distances in metres between layer records and a reference geometry, index-assisted.
//
// The GiST indexes are on SIRGAS 2000 lon/lat geometries, where the planar KNN operator
// (<->) orders by degrees, not metres: a degree of longitude is cos(latitude) shorter than
// a degree of latitude, so the planar order can differ from the metric one. Both helpers
// therefore use the index only to bound the search in degrees (generously) and decide on
// the spheroid (geography): the answers are exact in metres.
//
// Used by /caracterizacao (nearest records) and /visualizador360 (nearest panoramas).
#pragma once

#include <cstdint>
#include <string>

#include "store/catalog.hpp"

namespace cadastre::store {

/// SQL of a subquery yielding the `limit` records of `layer` nearest, in metres, to the
/// geometry of `reference` (a trusted scalar subquery text returning one geometry with
/// the layer's SRID, its values already bound in the same Sql). Columns: every column of
/// the layer plus distancia_m (metres, rounded to the centimetre) and ordem (1, 2, ...:
/// by the exact distance, then the key; aggregate with `order by ordem`). `exclude` is an optional
/// trusted condition on alias `t`. The layer needs a geometry column (checked by the caller).
std::string nearest_rows(const Layer& layer, const std::string& reference, std::int64_t limit,
                         const std::string& exclude = {});

/// Condition "geometry `column` lies within `metres` of geometry `reference`" (trusted SQL
/// expressions; `reference` is evaluated once when it is a scalar subquery).
std::string within_metres(const std::string& column, const std::string& reference,
                          const std::string& metres);

/// Spheroid distance in metres between two lon/lat geometry expressions.
std::string metres_between(const std::string& a, const std::string& b);

}  // namespace cadastre::store
