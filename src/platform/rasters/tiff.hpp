// GeoTIFFs through GDAL for the raster routes: the check of an upload (a GeoTIFF with a
// coordinate system, within the size limits), its conversion to a Cloud Optimized GeoTIFF
// and the value of each band at a lon/lat point. Only the GTiff driver opens a file here,
// so bytes that merely claim to be a GeoTIFF are never handed to another driver.
//
// The conversion keeps the raster's own coordinate system: reprojecting would resample the
// values (a UTM grid of a kriging, for instance, would no longer hold the values computed),
// and every reader here (/valorPixel, /estilizarRaster, the extent) transforms on the fly.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/limits.hpp"

namespace cadastre::platform::rasters {

struct Info {
  int width = 0, height = 0, bands = 0;
  std::string crs;  ///< "EPSG:31983" when the CRS has an EPSG code, else its name
};

/// Checks the GeoTIFF at `path` from its header: 400 (field "file") naming why when it is
/// not a readable GeoTIFF or has no coordinate system or geotransform; 413 when what it
/// declares (sides, bands, pixels, decoded bytes, decoded bytes per byte of file) is over
/// `limits`, before a pixel is read.
Info inspect(const std::string& path, const limits::RasterLimits& limits);

/// Writes `src` as a Cloud Optimized GeoTIFF at `dst` (DEFLATE, tiled, with overviews).
/// `progress` gets 0..1 and returns false to stop (the conversion then throws). 422 when
/// GDAL fails.
void to_cog(const std::string& src, const std::string& dst, const std::function<bool(double)>& progress);

/// Whether `path` is a Cloud Optimized GeoTIFF by GDAL's own account (LAYOUT=COG).
bool is_cog(const std::string& path);

struct Pixel {
  int coluna = 0, linha = 0;  ///< 0-based, in the raster's grid
  double x = 0, y = 0;        ///< the point in the raster's CRS
  std::string crs;
  std::vector<std::optional<double>> valores;  ///< per band; nullopt: no data
};

/// The values at (lon, lat) in EPSG:4674. 404 when the point falls outside the raster.
Pixel pixel(const std::string& path, double lon, double lat);

}  // namespace cadastre::platform::rasters
