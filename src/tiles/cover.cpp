// Tile covers of boxes and geometries.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>

#include "cadastre/error.hpp"
#include "cadastre/geom.hpp"
#include "cadastre/tiles.hpp"
#include "geom/geos.hpp"
#include "tiles/edges.hpp"

namespace cadastre::tiles {
namespace {

using geom::GeometryAccess;
using geom::GeosPtr;
using geom::PreparedPtr;
using geom::geos;

[[noreturn]] void too_many(std::size_t max_tiles, int z) {
  throw Error(errc::invalid_argument,
              "a área pedida cobre mais de " + std::to_string(max_tiles) + " tiles no zoom " + std::to_string(z) +
                  ": reduza a área ou o zoom",
              "z");
}

// ---- boxes ----------------------------------------------------------------------------

struct Span {
  int lo, hi;
  std::int64_t size() const { return std::int64_t{hi} - lo + 1; }
};

// Columns overlapping [w, e]: a box ending exactly on a column's west edge does not reach it.
Span columns(double w, double e, int z) {
  Span s{edges::column_for(w, z), edges::column_for(e, z)};
  if (e > w && s.hi > s.lo && e == edges::tile_lon(s.hi, z)) --s.hi;
  return s;
}

// Rows overlapping [south, north]: a box ending exactly on a row's north edge does not reach it.
Span rows(double south, double north, int z) {
  south = std::clamp(south, -max_latitude, max_latitude);
  north = std::clamp(north, -max_latitude, max_latitude);
  Span s{edges::row_for(north, z), edges::row_for(south, z)};
  if (south < north && s.hi > s.lo && south == edges::tile_lat(s.hi, z)) --s.hi;
  return s;
}

// ---- geometries ---------------------------------------------------------------------------

// The square a tile stands for when testing geometries: its lon/lat bounds, with row 0 and
// the last row reaching the poles, since latitudes beyond ±max_latitude clamp into them.
struct Square {
  double w, s, e, n;
  bool last_col, last_row;
};

Square square_of(const Tile& t) {
  const std::int64_t n = tiles_per_side(t.z);
  return {edges::tile_lon(t.x, t.z),
          t.y == n - 1 ? -90.0 : edges::tile_lat(t.y + 1, t.z),
          edges::tile_lon(t.x + 1, t.z),
          t.y == 0 ? 90.0 : edges::tile_lat(t.y, t.z),
          t.x == n - 1,
          t.y == n - 1};
}

GeosPtr rectangle(double w, double s, double e, double n) {
  GeosPtr r(GEOSGeom_createRectangle_r(geos(), w, s, e, n));
  if (!r) geom::throw_geos("falha ao criar retângulo do tile");
  return r;
}

GeosPtr box_of(const Square& q) { return rectangle(q.w, q.s, q.e, q.n); }

// Whether the tile owns (x, y), a point on or inside its square (see tiles.hpp).
bool owns_point(const Square& q, double x, double y) {
  return x >= q.w && (x < q.e || (q.last_col && x <= q.e)) && y <= q.n && (y > q.s || (q.last_row && y >= q.s));
}

// Whether the tile owns some part of `g`, a contact set lying on the tile's edges: a point
// of it, or the midpoint of one of its segments (a segment on an edge is owned wholly or
// not at all, apart from its ends).
bool owns_part(const Square& q, const GEOSGeometry* g) {
  auto h = geos();
  switch (GEOSGeomTypeId_r(h, g)) {
    case GEOS_POINT: {
      double x = 0, y = 0;
      return GEOSisEmpty_r(h, g) == 0 && GEOSGeomGetX_r(h, g, &x) && GEOSGeomGetY_r(h, g, &y) && owns_point(q, x, y);
    }
    case GEOS_LINESTRING:
    case GEOS_LINEARRING: {
      const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(h, g);
      unsigned n = 0;
      if (!seq || !GEOSCoordSeq_getSize_r(h, seq, &n)) return true;  // unreadable: keep the tile
      double px = 0, py = 0;
      for (unsigned i = 0; i < n; ++i) {
        double x = 0, y = 0;
        GEOSCoordSeq_getXY_r(h, seq, i, &x, &y);
        if ((n == 1 || i > 0) && owns_point(q, n == 1 ? x : (px + x) / 2, n == 1 ? y : (py + y) / 2)) return true;
        px = x;
        py = y;
      }
      return false;
    }
    case GEOS_POLYGON:
      return owns_part(q, GEOSGetExteriorRing_r(h, g));
    default:
      for (int i = 0, n = GEOSGetNumGeometries_r(h, g); i < n; ++i) {
        if (owns_part(q, GEOSGetGeometryN_r(h, g, i))) return true;
      }
      return false;
  }
}

std::int64_t key(int x, int y) { return (std::int64_t{x} << 32) | static_cast<std::uint32_t>(y); }

enum class Contact { none, interior, edge_only };

// A geometry prepared for many tile tests. GEOS 3.11 cannot relate or overlay heterogeneous
// GeometryCollections, so a collection is handled as its flattened parts.
class Cover {
 public:
  explicit Cover(const GEOSGeometry* g) { add(g); }

  bool meets(const Tile& t) const {
    GeosPtr box = box_of(square_of(t));
    for (const auto& p : parts_) {
      if (check(GEOSPreparedIntersects_r(geos(), p.prepared.get(), box.get()))) return true;
    }
    return false;
  }

  Contact classify(const Tile& t) const {
    const Square q = square_of(t);
    // Fast path: meeting a square shrunk by a billionth of the tile is meeting the interior.
    const double dx = (q.e - q.w) * 1e-9, dy = (q.n - q.s) * 1e-9;
    GeosPtr inner = rectangle(q.w + dx, q.s + dy, q.e - dx, q.n - dy);
    GeosPtr box = box_of(q);
    Contact c = Contact::none;
    for (const auto& p : parts_) {
      if (check(GEOSPreparedIntersects_r(geos(), p.prepared.get(), inner.get()))) return Contact::interior;
      if (!check(GEOSPreparedIntersects_r(geos(), p.prepared.get(), box.get()))) continue;
      // touches: the two meet, but their interiors do not.
      if (!check(GEOSPreparedTouches_r(geos(), p.prepared.get(), box.get()))) return Contact::interior;
      c = Contact::edge_only;
    }
    return c;
  }

  // For an edge-only tile: whether part of its contact with the geometry lies in no
  // neighbouring interior tile and is owned by this tile.
  bool owns_unexplained_contact(const Tile& t, const std::unordered_set<std::int64_t>& interior) const {
    auto h = geos();
    const Square q = square_of(t);
    GeosPtr box = box_of(q);
    const std::int64_t n = tiles_per_side(t.z);
    for (const auto& p : parts_) {
      GeosPtr residual(GEOSIntersection_r(h, p.geometry, box.get()));
      for (int dy = -1; dy <= 1 && residual; ++dy) {
        for (int dx = -1; dx <= 1 && residual; ++dx) {
          const int nx = t.x + dx, ny = t.y + dy;
          if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= n || ny >= n) continue;
          if (!interior.contains(key(nx, ny))) continue;
          GeosPtr neighbour = box_of(square_of({nx, ny, t.z}));
          residual.reset(GEOSDifference_r(h, residual.get(), neighbour.get()));
        }
      }
      if (!residual) {
        // Overlay failed (only invalid input makes it fail): keep the tile rather than lose data.
        geom::take_geos_message();
        return true;
      }
      if (GEOSisEmpty_r(h, residual.get()) == 0 && owns_part(q, residual.get())) return true;
    }
    return false;
  }

 private:
  struct Part {
    const GEOSGeometry* geometry;
    PreparedPtr prepared;
  };

  static bool check(char r) {
    if (r == 2) geom::throw_geos("falha ao testar tile");
    return r == 1;
  }

  void add(const GEOSGeometry* g) {
    auto h = geos();
    if (GEOSisEmpty_r(h, g) == 1) return;
    if (GEOSGeomTypeId_r(h, g) == GEOS_GEOMETRYCOLLECTION) {
      for (int i = 0, n = GEOSGetNumGeometries_r(h, g); i < n; ++i) add(GEOSGetGeometryN_r(h, g, i));
      return;
    }
    PreparedPtr prepared(GEOSPrepare_r(h, g));
    if (!prepared) geom::throw_geos("falha ao preparar geometria");
    parts_.push_back({g, std::move(prepared)});
  }

  std::vector<Part> parts_;
};

// The tiles at one zoom that the geometry touches exactly, from those whose squares it meets.
std::vector<Tile> exact(const Cover& cover, const std::vector<Tile>& meeting) {
  std::vector<Tile> out, edge_only;
  std::unordered_set<std::int64_t> interior;
  for (const Tile& t : meeting) {
    switch (cover.classify(t)) {
      case Contact::interior:
        out.push_back(t);
        interior.insert(key(t.x, t.y));
        break;
      case Contact::edge_only:
        edge_only.push_back(t);
        break;
      case Contact::none:
        break;
    }
  }
  for (const Tile& t : edge_only) {
    if (cover.owns_unexplained_contact(t, interior)) out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<Tile> tiles_covering_bbox(const geom::BBox& bbox, int z, std::size_t max_tiles) {
  validate_zoom(z);
  bbox.validate(true);
  std::vector<std::pair<double, double>> lon_parts;
  if (bbox.crosses_antimeridian()) {
    lon_parts = {{bbox.min_lon, 180.0}, {-180.0, bbox.max_lon}};
  } else {
    lon_parts = {{bbox.min_lon, bbox.max_lon}};
  }
  const Span r = rows(bbox.min_lat, bbox.max_lat, z);
  std::vector<Span> cols;
  for (auto [w, e] : lon_parts) cols.push_back(columns(w, e, z));
  // The eastern half ends at the last column and the western one starts at column 0, so if
  // they overlap (a box nearly all the way round, or any box at z0) they cover every column.
  if (cols.size() == 2 && cols[0].lo <= cols[1].hi) cols = {Span{0, static_cast<int>(tiles_per_side(z) - 1)}};
  std::int64_t count = 0;
  for (const Span& c : cols) count += c.size() * r.size();
  if (count > static_cast<std::int64_t>(std::min<std::size_t>(max_tiles, std::numeric_limits<std::int64_t>::max()))) {
    too_many(max_tiles, z);
  }
  std::vector<Tile> out;
  out.reserve(static_cast<std::size_t>(count));
  for (const Span& c : cols) {
    for (int x = c.lo; x <= c.hi; ++x) {
      for (int y = r.lo; y <= r.hi; ++y) out.push_back({x, y, z});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Tile> tiles_covering(const geom::Geometry& geometry, ZoomRange zooms, std::size_t max_tiles) {
  validate_zoom(zooms.min_z);
  validate_zoom(zooms.max_z);
  if (zooms.min_z > zooms.max_z) {
    throw Error(errc::invalid_argument, "zoom mínimo maior que o zoom máximo", "z");
  }
  const int srid = geometry.srid();
  const bool lonlat = srid == 0 || srid == geom::epsg_sirgas2000 || srid == geom::epsg_wgs84;
  std::optional<geom::Geometry> transformed;
  if (!lonlat) transformed = geom::transform(geometry, geom::epsg_wgs84);
  Cover cover(GeometryAccess::raw(transformed ? *transformed : geometry));

  // Descend the pyramid keeping the tiles whose closed squares the geometry meets (if it
  // meets a square it meets one of its four children, so nothing is lost). Each tile left
  // out of the exact result is a neighbour of one kept, so at most 9 × max_tiles squares
  // can be met at the last zoom without the result exceeding max_tiles.
  const std::size_t examine_limit =
      max_tiles > std::numeric_limits<std::size_t>::max() / 9 ? std::numeric_limits<std::size_t>::max() : 9 * max_tiles;
  std::vector<Tile> level;
  if (cover.meets({0, 0, 0})) level.push_back({0, 0, 0});
  std::vector<Tile> out;
  for (int z = 0; z <= zooms.max_z && !level.empty(); ++z) {
    if (z > 0) {
      std::vector<Tile> next;
      for (const Tile& t : level) {
        for (const Tile& c : children(t)) {
          if (cover.meets(c)) next.push_back(c);
        }
        if (next.size() > examine_limit) too_many(max_tiles, zooms.max_z);
      }
      level = std::move(next);
    }
    if (z >= zooms.min_z) {
      std::vector<Tile> tiles = exact(cover, level);
      if (out.size() + tiles.size() > max_tiles) too_many(max_tiles, z);
      out.insert(out.end(), tiles.begin(), tiles.end());
    }
  }
  return out;
}

std::vector<Tile> tiles_covering(const geom::Geometry& geometry, int z, std::size_t max_tiles) {
  return tiles_covering(geometry, ZoomRange{z, z}, max_tiles);
}

std::vector<Tile> tiles_covering_geojson(std::string_view geojson, int z, std::size_t max_tiles) {
  validate_zoom(z);
  return tiles_covering(geom::Geometry::from_geojson(geojson), z, max_tiles);
}

}  // namespace cadastre::tiles
