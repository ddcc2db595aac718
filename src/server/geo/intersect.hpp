// Spatial intersection of a layer with a query geometry, measured on the ellipsoid.
//
// Each intersecting feature comes out as a GeoJSON Feature whose properties carry, besides
// the record's columns:
//   area_intersecao_m2  ST_Area(ST_Intersection(geom, query)::geography), m², 2 decimals;
//   percentual_coberto  the share of the feature covered by the query geometry, 0–100:
//                       by area for polygons, by length for lines, 100 for points.
// Candidates are found with `&&` and ST_Intersects, so the layer's GiST index is used; the
// (costly) intersection is computed only for the rows of the requested page.
#pragma once

#include <string>

#include "store/features.hpp"

namespace soci {
class session;
}

namespace cadastre::server {

struct IntersectResult {
  std::string features = "[]";  ///< JSON array of Features
  long long returned = 0;       ///< features in this page
  long long total = 0;          ///< every intersecting feature (for the same filters)
};

/// Runs the intersection of `q.layer` (which must have geometry) with `ewkb_hex` (a valid
/// EPSG:4674 geometry as hex EWKB), honouring q's field filters, sort and paging.
IntersectResult intersect_layer(soci::session& s, const store::FeatureQuery& q, const std::string& ewkb_hex);

}  // namespace cadastre::server
