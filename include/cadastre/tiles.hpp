// XYZ ("slippy map") tile math over Web Mercator (EPSG:3857), as used by the vector-tile
// service and by map clients.
//
// Tile {x, y, z}: at zoom z the world is 2^z × 2^z tiles; x grows eastwards from -180°, y
// grows southwards from +85.0511287798° (the latitude where Web Mercator is square). Zooms
// 0–24 are supported (a z24 tile is about 2.4 m wide at the equator).
//
// Where a point falls exactly on a tile edge it belongs to the tile east and south of it
// (tiles own their west and north edges), except at lon 180 and at the southern limit, which
// belong to the last column and row. Latitudes beyond ±85.0511287798° are clamped.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "cadastre/bbox.hpp"

namespace cadastre::geom {
class Geometry;
}

namespace cadastre::tiles {

/// Highest supported zoom level.
inline constexpr int max_zoom = 24;
/// Latitude limit of Web Mercator tiles: atan(sinh(π)) in degrees.
inline constexpr double max_latitude = 85.0511287798066;
/// Half the width of the EPSG:3857 square, π × 6378137 m.
inline constexpr double mercator_half_extent = 20037508.342789244;
/// The cap callers use for tile covers (tiles_covering*, tiles_covering_bbox).
inline constexpr std::size_t default_max_tiles = 10'000;

/// Number of tiles along one side at zoom z (2^z), for 0 <= z <= 62.
constexpr std::int64_t tiles_per_side(int z) noexcept { return std::int64_t{1} << z; }

/// One XYZ tile. Ordered by zoom, then x, then y.
struct Tile {
  int x = 0;  ///< column, 0 at -180°, in [0, 2^z)
  int y = 0;  ///< row, 0 at the north, in [0, 2^z)
  int z = 0;  ///< zoom, in [0, max_zoom]

  /// True when z is in [0, 24] and x, y in [0, 2^z).
  constexpr bool is_valid() const noexcept {
    return z >= 0 && z <= max_zoom && x >= 0 && y >= 0 && x < tiles_per_side(z) && y < tiles_per_side(z);
  }
  /// Throws Error(errc::invalid_argument) naming "z", "x" or "y" when !is_valid().
  void validate() const;

  friend constexpr bool operator==(const Tile&, const Tile&) = default;
  friend constexpr std::strong_ordering operator<=>(const Tile& a, const Tile& b) noexcept {
    return std::tie(a.z, a.x, a.y) <=> std::tie(b.z, b.x, b.y);
  }
};

/// Tile bounds in EPSG:3857 metres.
struct MercatorBounds {
  double min_x = 0;
  double min_y = 0;
  double max_x = 0;
  double max_y = 0;
  bool operator==(const MercatorBounds&) const = default;
};

/// Zoom levels [min_z, max_z], both inclusive.
struct ZoomRange {
  int min_z = 0;
  int max_z = 0;
};

/// Throws Error(errc::invalid_argument, field "z") unless 0 <= z <= 24.
void validate_zoom(int z);

/// The tile containing (lon, lat) at zoom z. Latitude is clamped to ±max_latitude; lon 180
/// maps to the last column. Invalid z → Error naming "z"; lon outside [-180, 180] or a
/// non-finite coordinate → Error(errc::invalid_argument) naming "lon" or "lat".
Tile tile_for_lonlat(double lon, double lat, int z);

/// Bounds of a valid tile in lon/lat degrees (north edge of row 0 is +max_latitude).
/// The result for an invalid tile is unspecified.
geom::BBox tile_bounds_lonlat(const Tile& t) noexcept;

/// Bounds of a valid tile in EPSG:3857 metres. Exact: tile edges are dyadic fractions of
/// the square. The result for an invalid tile is unspecified.
constexpr MercatorBounds tile_bounds_mercator(const Tile& t) noexcept {
  const double size = 2 * mercator_half_extent / static_cast<double>(tiles_per_side(t.z));
  return {-mercator_half_extent + t.x * size, mercator_half_extent - (t.y + 1) * size,
          -mercator_half_extent + (t.x + 1) * size, mercator_half_extent - t.y * size};
}

/// The tile one zoom out that contains `t`; the z0 tile is its own parent.
constexpr Tile parent(const Tile& t) noexcept {
  if (t.z == 0) return t;
  return {t.x / 2, t.y / 2, t.z - 1};
}

namespace detail {
[[noreturn]] void throw_no_children(const Tile& t);
}

/// The four tiles one zoom in, in quadkey order: NW, NE, SW, SE. At max_zoom →
/// Error(errc::invalid_argument, field "z").
constexpr std::array<Tile, 4> children(const Tile& t) {
  if (t.z >= max_zoom) detail::throw_no_children(t);
  const int x = 2 * t.x, y = 2 * t.y, z = t.z + 1;
  return {Tile{x, y, z}, Tile{x + 1, y, z}, Tile{x, y + 1, z}, Tile{x + 1, y + 1, z}};
}

/// Bing Maps quadkey: one digit 0–3 per zoom level ("" at z0). Precondition: t is valid.
std::string quadkey(const Tile& t);

/// The tile of a quadkey. More than 24 digits or a digit other than 0–3 →
/// Error(errc::invalid_argument, field "quadkey").
Tile tile_from_quadkey(std::string_view quadkey);

/// Every tile at zoom z that overlaps the box, sorted. A tile that only shares an edge with
/// the box is not included; a degenerate box (a point or a line) gets the tiles that own it.
/// Antimeridian-crossing boxes (min_lon > max_lon, see geom::BBox) are covered on both
/// sides. Invalid box → Error naming the parameter; more than `max_tiles` tiles →
/// Error(errc::invalid_argument, field "z").
std::vector<Tile> tiles_covering_bbox(const geom::BBox& bbox, int z, std::size_t max_tiles = default_max_tiles);

/// Exactly the tiles at zoom z that the geometry touches, sorted.
///
/// The geometry is in lon/lat (SRID 0, 4674 or 4326; any other SRID is transformed to
/// EPSG:4326 first) and must not cross the antimeridian. A tile is included when the
/// geometry meets the tile's interior; a tile whose square (row 0 and the last row extended
/// to the poles) the geometry meets only along its edges is left out — an L-shaped polygon
/// does not get the tile in its notch, a polygon that is exactly one tile gets one tile —
/// unless that contact is not inside any included tile (a point on an edge, a line running
/// along an edge), in which case the tile that owns the contact by the edge rule above is
/// included. The search descends the tile pyramid with a prepared geometry, so its cost
/// follows the number of tiles touched, not the area of the bounding box. More than
/// `max_tiles` tiles → Error(errc::invalid_argument, field "z"); an empty geometry → none.
std::vector<Tile> tiles_covering(const geom::Geometry& geometry, int z, std::size_t max_tiles = default_max_tiles);

/// tiles_covering over every zoom of `zooms`, sorted by zoom, then x, then y; `max_tiles`
/// caps the total. min_z > max_z → Error(errc::invalid_argument, field "z").
std::vector<Tile> tiles_covering(const geom::Geometry& geometry, ZoomRange zooms,
                                 std::size_t max_tiles = default_max_tiles);

/// tiles_covering for a GeoJSON geometry (or Feature) in lon/lat; unreadable GeoJSON →
/// Error(errc::invalid_geometry).
std::vector<Tile> tiles_covering_geojson(std::string_view geojson, int z, std::size_t max_tiles = default_max_tiles);

}  // namespace cadastre::tiles
