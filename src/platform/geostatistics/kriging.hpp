// Kriging of a variogram's samples over a domain polygon (no database, no HTTP): the grid
// in UTM metres over the polygon's box kriged by the library (geostat::krige_grid), cells
// whose centre is outside the polygon or without neighbours nodata, and a
// log model's estimates back-transformed to the scale of the samples
// (geostat::lognormal_back_transform).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cadastre/geostat.hpp"

namespace cadastre::platform::geostatistics {

constexpr double kNoData = -9999.0;
/// The most cells a kriging grid may have (a bound on the request's time and memory).
constexpr std::size_t kMaxCells = 250000;

struct KrigingRequest {
  std::string domain_wkt;  ///< polygon in the samples' UTM CRS
  double minx = 0, miny = 0, maxx = 0, maxy = 0;
  std::optional<double> cell;  ///< metres; absent: the longer side / 200
  geostat::Model model;
  bool log = false;
  geostat::KrigingOptions options;
};

struct KrigingResult {
  /// Values and variances (of a log model: back-transformed by the library's ordinary
  /// lognormal kriging, exp(ŷ + σ²/2 − μ) and its variance); kNoData outside.
  geostat::Grid grid;
  std::size_t inside = 0;     ///< cells whose centre is in the domain
  std::size_t kriged = 0;     ///< of those, the cells with neighbours
  double min = 0, max = 0, mean = 0, mean_variance = 0;
};

/// Krige `samples` (metres, values already ln() for a log model) as `request` says. A cell
/// count over kMaxCells → 400 naming "celula"; the library's errors (singular system) pass.
KrigingResult krige_domain(std::span<const geostat::Sample> samples, const KrigingRequest& request);

/// The grid as a GeoTIFF (band 1 value, band 2 kriging variance, Float64, nodata kNoData,
/// CRS `epsg`) written at `path` (a file, or a /vsimem/ name).
void write_geotiff(const std::string& path, const geostat::Grid& grid, int epsg);
/// The GeoTIFF bytes of the grid.
std::string geotiff_bytes(const geostat::Grid& grid, int epsg);

/// Band 1 of a GeoTIFF sampled at points given in lon/lat (EPSG:4674): nullopt outside the
/// raster or at nodata. 422 when the file is not a georeferenced GeoTIFF.
std::vector<std::optional<double>> sample_raster(const std::string& path, std::span<const std::pair<double, double>> lonlat);

}  // namespace cadastre::platform::geostatistics
