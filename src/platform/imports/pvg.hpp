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
#include <string_view>

namespace cadastre::platform::imports {

/// 400 (field "file") naming the first rule `doc` breaks.
void check_pvg(std::string_view doc);

/// The "pvg" member of a checked document (JSON object text).
std::string pvg_header(std::string_view doc);

/// The PVG document of a GeoJSON FeatureCollection whose features carry codigo and
/// valor_m2 (other properties dropped). Its own "pvg" member, when present, is kept (and
/// checked); otherwise municipio = `municipio`, versao "1", data = today (UTC).
std::string export_pvg(std::string_view geojson, const std::string& municipio);

}  // namespace cadastre::platform::imports
