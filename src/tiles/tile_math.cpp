// Tile math: tile of a coordinate, bounds, quadkeys, validation.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "cadastre/error.hpp"
#include "cadastre/tiles.hpp"
#include "tiles/edges.hpp"

namespace cadastre::tiles {

namespace edges {

double tile_lon(std::int64_t x, int z) noexcept {
  // x · 360 is exact and dividing by a power of two is exact, so edges are exact dyadics.
  return static_cast<double>(x) * 360.0 / static_cast<double>(tiles_per_side(z)) - 180.0;
}

double tile_lat(std::int64_t y, int z) noexcept {
  const double n = static_cast<double>(tiles_per_side(z));
  return std::atan(std::sinh(std::numbers::pi * (1.0 - 2.0 * static_cast<double>(y) / n))) * 180.0 / std::numbers::pi;
}

int column_for(double lon, int z) noexcept {
  const std::int64_t n = tiles_per_side(z);
  auto x = static_cast<std::int64_t>(std::floor((lon + 180.0) / 360.0 * static_cast<double>(n)));
  x = std::clamp<std::int64_t>(x, 0, n - 1);
  // The formula can land one off next to an edge; the edges themselves decide.
  while (x > 0 && lon < tile_lon(x, z)) --x;
  while (x < n - 1 && lon >= tile_lon(x + 1, z)) ++x;
  return static_cast<int>(x);
}

int row_for(double lat, int z) noexcept {
  const std::int64_t n = tiles_per_side(z);
  lat = std::clamp(lat, -max_latitude, max_latitude);
  const double phi = lat * std::numbers::pi / 180.0;
  const double fy = (1.0 - std::asinh(std::tan(phi)) / std::numbers::pi) / 2.0 * static_cast<double>(n);
  auto y = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(fy)), 0, n - 1);
  // atan/sinh and asinh/tan do not round-trip exactly: settle against the computed edges.
  while (y > 0 && lat > tile_lat(y, z)) --y;
  while (y < n - 1 && lat <= tile_lat(y + 1, z)) ++y;
  return static_cast<int>(y);
}

}  // namespace edges

namespace detail {
void throw_no_children(const Tile& t) {
  throw Error(errc::invalid_argument,
              "o tile no zoom " + std::to_string(t.z) + " não tem filhos: o zoom máximo é " + std::to_string(max_zoom),
              "z");
}
}  // namespace detail

void validate_zoom(int z) {
  if (z < 0 || z > max_zoom) {
    throw Error(errc::invalid_argument,
                "zoom deve estar entre 0 e " + std::to_string(max_zoom) + ", recebido " + std::to_string(z), "z");
  }
}

void Tile::validate() const {
  validate_zoom(z);
  const std::int64_t n = tiles_per_side(z);
  const std::string range = " deve estar entre 0 e " + std::to_string(n - 1) + " no zoom " + std::to_string(z);
  if (x < 0 || x >= n) throw Error(errc::invalid_argument, "x" + range + ", recebido " + std::to_string(x), "x");
  if (y < 0 || y >= n) throw Error(errc::invalid_argument, "y" + range + ", recebido " + std::to_string(y), "y");
}

Tile tile_for_lonlat(double lon, double lat, int z) {
  validate_zoom(z);
  if (!std::isfinite(lon) || lon < -180.0 || lon > 180.0) {
    throw Error(errc::invalid_argument, "longitude deve estar entre -180 e 180", "lon");
  }
  if (!std::isfinite(lat)) throw Error(errc::invalid_argument, "latitude deve ser um número finito", "lat");
  return {edges::column_for(lon, z), edges::row_for(lat, z), z};
}

geom::BBox tile_bounds_lonlat(const Tile& t) noexcept {
  return {edges::tile_lon(t.x, t.z), edges::tile_lat(t.y + 1, t.z), edges::tile_lon(t.x + 1, t.z),
          edges::tile_lat(t.y, t.z)};
}

std::string quadkey(const Tile& t) {
  std::string key;
  key.reserve(static_cast<std::size_t>(t.z));
  for (int i = t.z; i > 0; --i) {
    const int bit = 1 << (i - 1);
    key += static_cast<char>('0' + ((t.x & bit) ? 1 : 0) + ((t.y & bit) ? 2 : 0));
  }
  return key;
}

Tile tile_from_quadkey(std::string_view key) {
  if (key.size() > static_cast<std::size_t>(max_zoom)) {
    throw Error(errc::invalid_argument, "quadkey com mais de " + std::to_string(max_zoom) + " dígitos", "quadkey");
  }
  Tile t{0, 0, static_cast<int>(key.size())};
  for (char c : key) {
    if (c < '0' || c > '3') {
      throw Error(errc::invalid_argument, "quadkey deve conter apenas os dígitos 0 a 3", "quadkey");
    }
    const int d = c - '0';
    t.x = t.x * 2 + (d & 1);
    t.y = t.y * 2 + (d >> 1);
  }
  return t;
}

}  // namespace cadastre::tiles
