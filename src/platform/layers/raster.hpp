// Raster layers (tipo tiff) through GDAL: the extent of a GeoTIFF in lon/lat, and a window
// of one band reprojected to lon/lat (SIRGAS 2000, EPSG:4674) and coloured as a PNG for
// GET /estilizarRaster. Only the GTiff driver opens the stored files, so a file that is not
// a GeoTIFF is refused instead of handed to whichever driver claims it.
#pragma once

#include <optional>
#include <string>

namespace cadastre::platform::layers::raster {

struct Box {
  double minx = 0, miny = 0, maxx = 0, maxy = 0;
};

/// The raster's footprint in lon/lat (EPSG:4674); nullopt when it has no georeferencing.
/// 422 when the file is not a readable GeoTIFF.
std::optional<Box> extent(const std::string& path);

struct Style {
  Box bbox;                   ///< the window, lon/lat
  int width = 256, height = 256;
  int band = 1;               ///< 1-based
  std::string ramp = "cinza"; ///< a palette::ramp_names() name
  int classes = 0;            ///< 0: continuous; n ≥ 2: n flat classes
  double opacity = 1.0;       ///< 0..1
  /// The values mapped to the ramp's ends; absent: the band's minimum and maximum (of the
  /// whole raster, so that adjacent windows of one layer match).
  std::optional<double> min, max;
};

/// The styled window as PNG bytes (RGBA): no-data and outside the raster are transparent.
/// Nearest-neighbour sampling, so each output pixel shows one stored value. 400 for a band
/// the file lacks; 422 for a file GDAL cannot read or that has no coordinate system.
std::string render_png(const std::string& path, const Style& style);

}  // namespace cadastre::platform::layers::raster
