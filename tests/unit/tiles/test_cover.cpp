// Tile covers of boxes and geometries, checked tile by tile.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/geom.hpp"
#include "cadastre/tiles.hpp"

using namespace cadastre;
using namespace cadastre::tiles;
using cadastre::geom::BBox;
using cadastre::geom::Geometry;

namespace {
using Tiles = std::vector<Tile>;

Geometry wkt(const std::string& s) { return Geometry::from_wkt(s); }

// Edges at z2: lon -180, -90, 0, 90, 180; lat 85.05, 66.51326044311186, 0, -66.51..., -85.05.
const std::string lat1 = "66.51326044311186";

void expect_error(const std::function<void()>& f, errc code, const std::string& field) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(static_cast<int>(e.code()) == static_cast<int>(code));
    CHECK(e.field() == field);
    return;
  }
  FAIL("expected cadastre::Error");
}
}  // namespace

TEST_CASE("bbox cover: inclusive, edge-exact, antimeridian, capped") {
  CHECK(tiles_covering_bbox({-10, -10, 10, 10}, 1) == Tiles{{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}});
  CHECK(tiles_covering_bbox({-10, -10, 10, 10}, 0) == Tiles{{0, 0, 0}});
  // A box that is exactly a tile covers that tile only.
  CHECK(tiles_covering_bbox(tile_bounds_lonlat({1517, 2323, 12}), 12) == Tiles{{1517, 2323, 12}});
  CHECK(tiles_covering_bbox(tile_bounds_lonlat({1517, 2323, 12}), 13).size() == 4);
  // A point on the corner (0, 0) belongs to the tile south-east of it.
  CHECK(tiles_covering_bbox({0, 0, 0, 0}, 1) == Tiles{{1, 1, 1}});
  // 170°E → 170°W at z2 (columns of 90°): column 3 east of 90°, column 0 west of -90°;
  // latitudes -10..10 span rows 1 and 2.
  CHECK(tiles_covering_bbox({170, -10, -170, 10}, 2) == Tiles{{0, 1, 2}, {0, 2, 2}, {3, 1, 2}, {3, 2, 2}});
  CHECK(tiles_covering_bbox({170, -10, -170, 10}, 0, 1) == Tiles{{0, 0, 0}});
  // 10°E eastwards all the way round to 5°E: every column; lat 0..1 is row 0 only, since
  // a box ending on the equator (the north edge of row 1) does not reach row 1.
  CHECK(tiles_covering_bbox({10, 0, 5, 1}, 1, 2) == Tiles{{0, 0, 1}, {1, 0, 1}});
  // Whole world at z3: 8 × 8.
  CHECK(tiles_covering_bbox({-180, -90, 180, 90}, 3).size() == 64);
  // Brazil at z12 is ~455 × 470 tiles.
  expect_error([] { tiles_covering_bbox({-74, -34, -34, 5.3}, 12); }, errc::invalid_argument, "z");
  CHECK(tiles_covering_bbox({-74, -34, -34, 5.3}, 6).size() == 8 * 8);
  expect_error([] { tiles_covering_bbox({0, 0, 1, 1}, 25); }, errc::invalid_argument, "z");
  expect_error([] { tiles_covering_bbox({0, 2, 1, 1}, 2); }, errc::invalid_argument, "minLatitude");
}

TEST_CASE("L shape: the notch tile is left out") {
  // Built from z2 tile edges: tiles (1,1), (2,1) and (1,2), which touch (2,2) along two edges.
  auto aligned = wkt("POLYGON ((-90 0, -90 " + lat1 + ", 90 " + lat1 + ", 90 0, 0 0, 0 -" + lat1 + ", -90 -" +
                     lat1 + ", -90 0))");
  CHECK(tiles_covering(aligned, 2) == Tiles{{1, 1, 2}, {1, 2, 2}, {2, 1, 2}});
  // Inside the edges: its bounding box spans 4 tiles, the L only 3.
  auto inset = wkt("POLYGON ((-80 10, -80 60, 80 60, 80 10, -10 10, -10 -60, -80 -60, -80 10))");
  CHECK(tiles_covering_bbox(inset.bbox(), 2).size() == 4);
  CHECK(tiles_covering(inset, 2) == Tiles{{1, 1, 2}, {1, 2, 2}, {2, 1, 2}});
  // z1: all within tiles (0,0), (0,1), (1,0); the L does not reach (1,1) (lon > 0, lat < 0).
  CHECK(tiles_covering(inset, 1) == Tiles{{0, 0, 1}, {0, 1, 1}, {1, 0, 1}});
}

TEST_CASE("a polygon that is exactly one tile covers it and its descendants only") {
  Geometry t = tile_bounds_lonlat({1517, 2323, 12}).to_polygon();
  CHECK(tiles_covering(t, 12) == Tiles{{1517, 2323, 12}});
  CHECK(tiles_covering(t, 11) == Tiles{{758, 1161, 11}});
  Tiles z13 = tiles_covering(t, 13);
  CHECK(z13 == Tiles{{3034, 4646, 13}, {3034, 4647, 13}, {3035, 4646, 13}, {3035, 4647, 13}});
  // The range variant: z10 1, z11 1, z12 1, z13 4, z14 16.
  Tiles range = tiles_covering(t, ZoomRange{10, 14});
  CHECK(range.size() == 23);
  CHECK(range.front() == Tile{379, 580, 10});
  CHECK(range.back() == Tile{6071, 9295, 14});
  expect_error([&] { tiles_covering(t, ZoomRange{10, 14}, 22); }, errc::invalid_argument, "z");
  expect_error([&] { tiles_covering(t, ZoomRange{14, 10}); }, errc::invalid_argument, "z");
}

TEST_CASE("points: inside, on an edge, on a corner, at the antimeridian") {
  CHECK(tiles_covering(Geometry::point(-46.6333, -23.5505), 12) == Tiles{{1517, 2323, 12}});
  CHECK(tiles_covering(Geometry::point(-46.6333, -23.5505), 22) == Tiles{{1553834, 2379604, 22}});
  CHECK(tiles_covering(Geometry::point(0, 0), 1) == Tiles{{1, 1, 1}});  // corner: south-east tile
  CHECK(tiles_covering(Geometry::point(0, 45), 1) == Tiles{{1, 0, 1}});  // edge: east tile
  CHECK(tiles_covering(Geometry::point(180, 0), 2) == Tiles{{3, 2, 2}});  // lon 180: last column
  CHECK(tiles_covering(Geometry::point(-180, 0), 2) == Tiles{{0, 2, 2}});
  CHECK(tiles_covering(Geometry::point(10, 89), 3) == Tiles{{4, 0, 3}});  // beyond 85.05: row 0
  CHECK(tiles_covering(Geometry::point(10, -89), 3) == Tiles{{4, 7, 3}});
  CHECK(tiles_covering(Geometry::point(10, -85.0511287798066), 3) == Tiles{{4, 7, 3}});
  CHECK(tiles_covering(Geometry::from_wkt("POINT EMPTY"), 5).empty());
  CHECK(tiles_covering(Geometry::point(200, 0), 5).empty());  // outside the world
}

TEST_CASE("lines: crossing, through a corner, along an edge") {
  // From the middle of tile (0,0) to the middle of (1,0) at z1: both.
  CHECK(tiles_covering(wkt("LINESTRING (-90 45, 90 45)"), 1) == Tiles{{0, 0, 1}, {1, 0, 1}});
  // Through the corner (0,0) from NW to SE: (0,0) and (1,1); (1,0) and (0,1) are only
  // touched at the corner, which the other two already contain.
  CHECK(tiles_covering(wkt("LINESTRING (-170 80, 170 -80)"), 1) == Tiles{{0, 0, 1}, {1, 1, 1}});
  // Along the equator, the edge between rows 0 and 1: owned by the southern row.
  CHECK(tiles_covering(wkt("LINESTRING (-100 0, -10 0)"), 1) == Tiles{{0, 1, 1}});
  // Along the meridian 0 between rows: owned by the eastern column.
  CHECK(tiles_covering(wkt("LINESTRING (0 10, 0 60)"), 1) == Tiles{{1, 0, 1}});
  // Ending exactly on an edge does not reach the next tile.
  CHECK(tiles_covering(wkt("LINESTRING (-90 45, 0 45)"), 1) == Tiles{{0, 0, 1}});
}

TEST_CASE("multipolygons and collections at city zooms") {
  // Two 100 m lots in São Paulo and in Rio de Janeiro.
  auto lots = wkt(
      "MULTIPOLYGON (((-46.6335 -23.5507, -46.6325 -23.5507, -46.6325 -23.5497, -46.6335 -23.5497, -46.6335 -23.5507)),"
      " ((-43.1730 -22.9070, -43.1720 -22.9070, -43.1720 -22.9060, -43.1730 -22.9060, -43.1730 -22.9070)))");
  // Rio at z12: x = (−43.1725 + 180)/360 · 4096 = 1556.79 → 1556;
  // y = (1 − asinh(tan(−22.9065°))/π)/2 · 4096 = 2315.86 → 2315.
  Tiles z12 = tiles_covering(lots, 12);
  CHECK(z12 == Tiles{{1517, 2323, 12}, {1556, 2315, 12}});
  CHECK(z12[1] == tile_for_lonlat(-43.1725, -22.9065, 12));
  // An axis-parallel rectangle not on tile edges covers exactly its bounding box.
  for (int z : {16, 18, 20, 22}) {
    auto lot = lots.geometry_n(0);
    CHECK(tiles_covering(lot, z) == tiles_covering_bbox(lot.bbox(), z));
  }
  CHECK(tiles_covering(lots.geometry_n(0), 22).size() > 100);

  auto mixed = wkt("GEOMETRYCOLLECTION (POINT (-46.6333 -23.5505), LINESTRING (-90 45, 90 45))");
  CHECK(tiles_covering(mixed, 1) == Tiles{{0, 0, 1}, {0, 1, 1}, {1, 0, 1}});

  // A triangle over the diagonal of a 2×2 block at z12 misses the opposite corner tile.
  geom::BBox nw = tile_bounds_lonlat({1517, 2323, 12}), se = tile_bounds_lonlat({1518, 2324, 12});
  auto tri = geom::Geometry::from_wkt("POLYGON ((" + std::to_string(nw.min_lon + 0.001) + " " +
                                      std::to_string(nw.max_lat - 0.001) + ", " + std::to_string(se.max_lon - 0.001) +
                                      " " + std::to_string(nw.max_lat - 0.001) + ", " +
                                      std::to_string(se.max_lon - 0.001) + " " + std::to_string(se.min_lat + 0.001) +
                                      ", " + std::to_string(nw.min_lon + 0.001) + " " +
                                      std::to_string(nw.max_lat - 0.001) + "))");
  CHECK(tiles_covering(tri, 12) == Tiles{{1517, 2323, 12}, {1518, 2323, 12}, {1518, 2324, 12}});
}

TEST_CASE("caps, projected input and GeoJSON") {
  auto brazil = wkt("POLYGON ((-74 -34, -34 -34, -34 5.3, -74 5.3, -74 -34))");
  expect_error([&] { tiles_covering(brazil, 12); }, errc::invalid_argument, "z");
  CHECK(tiles_covering(brazil, 12, 300'000).size() == tiles_covering_bbox(brazil.bbox(), 12, 300'000).size());
  expect_error([&] { tiles_covering(brazil, 25); }, errc::invalid_argument, "z");

  auto mercator = geom::transform(Geometry::point(-46.6333, -23.5505, 4674), 3857);
  CHECK(tiles_covering(mercator, 12) == Tiles{{1517, 2323, 12}});

  CHECK(tiles_covering_geojson(R"({"type":"Point","coordinates":[-46.6333,-23.5505]})", 12) ==
        Tiles{{1517, 2323, 12}});
  try {
    tiles_covering_geojson("{", 12);
    FAIL("expected error");
  } catch (const Error& e) {
    CHECK(e.code() == errc::invalid_geometry);
  }
}
