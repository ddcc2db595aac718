// POST /converter/geojson?targetType=: a GeoJSON FeatureCollection converted by GDAL (in
// memory, /vsimem/) to a zipped Shapefile (UTF-8, with .cpg and .prj), KML, GeoPackage,
// DXF or CSV (geometry as WKT), or to the PVG profile (pvg.hpp).
#pragma once

#include <string>
#include <string_view>

namespace cadastre::platform::imports {

struct Converted {
  std::string bytes, content_type, file_name;
};

/// 400 (field "corpo") for a body GDAL cannot read as GeoJSON or that the target cannot
/// hold (a Shapefile of mixed geometry types). `municipio`: the PVG's default municipio.
Converted convert_geojson(std::string_view geojson, const std::string& target, const std::string& municipio);

}  // namespace cadastre::platform::imports
