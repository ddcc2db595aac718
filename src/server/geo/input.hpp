// Query geometries of the /geo routes: a WKT, a GeoJSON geometry or a bbox sent by the
// client, checked with GEOS (invalid geometry → 400 with GEOS's reason, in Portuguese) and
// brought to SIRGAS 2000 (EPSG:4674), the storage CRS, as hex EWKB ready to bind.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/geom.hpp"
#include "http/http.hpp"
#include "server/geo/store.hpp"

namespace cadastre::server {

/// A valid, non-empty geometry in EPSG:4674 and the same as hex EWKB (SRID included),
/// which PostgreSQL reads as `geometry` from a bound text value.
struct QueryGeometry {
  geom::Geometry geometry;
  std::string ewkb_hex;
};

/// The query geometry of GET /geo/{m}/{camada}/intersect: exactly one of `wkt`, `geojson`
/// or the bbox parameters (minLongitude, minLatitude, maxLongitude, maxLatitude).
QueryGeometry geometry_from_query(const http::Request& req);

/// A GeoJSON geometry (lon/lat) sent in a body member named `field`.
QueryGeometry geometry_from_geojson(std::string_view geojson, std::string_view field);

/// Checks a parsed geometry and brings it to EPSG:4674. SRID 0, 4326 and 4674 are taken as
/// lon/lat (they coincide here); any other SRID (e.g. an EWKT "SRID=31983;" in UTM) is
/// transformed. Empty, too large, invalid or out-of-range geometries → 400 naming `field`.
QueryGeometry prepare_geometry(geom::Geometry g, std::string_view field);

}  // namespace cadastre::server

namespace cadastre::server::geo {

/// POST /geo/{m}/camadas/intersect/: {"geometria": <GeoJSON geometry in lon/lat>,
/// "camadas": [names] (1 to 20, no repeats), "limite"?: features per layer (1..1000, 100)}.
struct LayersBody {
  QueryGeometry area;
  std::vector<std::string> layers;
  std::int64_t limit = 100;

  static LayersBody parse(const std::string& body);
};

/// "chave" / "espacial" → mode; anything else → 400 naming "modo".
RelationMode parse_relation_mode(std::string_view text);
std::string_view to_string(RelationMode mode) noexcept;

}  // namespace cadastre::server::geo
