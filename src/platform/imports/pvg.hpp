// The generic value map exchange file (PVG, "planta de valores genéricos"): a GeoJSON
// profile (RFC 7946, coordinates in WGS 84 unless the import says srid), documented in
// docs/platform-imports.md:
//   {"type": "FeatureCollection",
//    "pvg": {"municipio": "...", "versao": "...", "data": "AAAA-MM-DD", "unidade": "R$/m²"},
//    "features": [{"type": "Feature", "geometry": LineString | MultiLineString (block faces)
//                  or Polygon | MultiPolygon (zones), "properties": {"codigo": "...",
//                  "valor_m2": 123.45}}, ...]}
// All features are faces or all are zones; codigo is unique; valor_m2 > 0. POST
// /importar/pvg reads it into a layer (fields codigo and valor_m2) and POST
// /converter/geojson?targetType=pvg writes it from a GeoJSON FeatureCollection.
#pragma once

#include <string>
#include <cstdint>
#include <string_view>

namespace cadastre::platform::imports {

/// GDAL's GeoJSON driver holds a whole document as json-c objects, about 1 KB per vertex
/// (+1.1 GB measured for 1.1 million): a GeoJSON document (a PVG import, the body of
/// /converter/geojson) may hold at most this many vertices, counted before GDAL reads it.
inline constexpr std::uint64_t kMaxGeoJsonVertices = 500'000;

/// 400 (field "file") naming the first rule `doc` breaks; 413 for more than
/// kMaxGeoJsonVertices vertices.
void check_pvg(std::string_view doc);

/// 413 (field `field`) when the GeoJSON FeatureCollection `doc` holds more than
/// kMaxGeoJsonVertices vertices; 400 when it is not JSON. Counted with simdjson, whose
/// memory is a few times the document's.
void check_geojson_vertices(std::string_view doc, std::string_view field);

/// The "pvg" member of a checked document (JSON object text).
std::string pvg_header(std::string_view doc);

/// The PVG document of a GeoJSON FeatureCollection whose features carry codigo and
/// valor_m2 (other properties dropped). Its own "pvg" member, when present, is kept (and
/// checked); otherwise municipio = `municipio`, versao "1", data = today (UTC).
std::string export_pvg(std::string_view geojson, const std::string& municipio);

}  // namespace cadastre::platform::imports
