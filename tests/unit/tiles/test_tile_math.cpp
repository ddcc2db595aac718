// XYZ tile math against hand-computed values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/tiles.hpp"

using namespace cadastre;
using namespace cadastre::tiles;
using doctest::Approx;

namespace {
template <class F>
void expect_error(F&& f, errc code, const std::string& field) {
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

// The pure parts are usable at compile time.
static_assert(parent(Tile{5, 9, 4}) == Tile{2, 4, 3});
static_assert(parent(Tile{0, 0, 0}) == Tile{0, 0, 0});
static_assert(children(Tile{1, 2, 3})[3] == Tile{3, 5, 4});
static_assert(tile_bounds_mercator(Tile{0, 0, 1}).max_y == mercator_half_extent);
static_assert(Tile{3, 1, 2}.is_valid() && !Tile{4, 0, 2}.is_valid() && !Tile{0, 0, 25}.is_valid());
static_assert(Tile{9, 9, 1} < Tile{0, 0, 2});  // ordered by zoom first

TEST_CASE("zoom 0 and 1") {
  CHECK(tile_for_lonlat(-46.6, -23.5, 0) == Tile{0, 0, 0});
  CHECK(tile_for_lonlat(180, -85.06, 0) == Tile{0, 0, 0});
  CHECK(tile_for_lonlat(-90, 45, 1) == Tile{0, 0, 1});
  CHECK(tile_for_lonlat(90, -45, 1) == Tile{1, 1, 1});
  // (0, 0) is the corner of all four z1 tiles: edges belong to the tile east and south.
  CHECK(tile_for_lonlat(0, 0, 1) == Tile{1, 1, 1});
  CHECK(tile_for_lonlat(-0.000001, 0.000001, 1) == Tile{0, 0, 1});

  geom::BBox b = tile_bounds_lonlat({0, 0, 0});
  CHECK(b.min_lon == -180);
  CHECK(b.max_lon == 180);
  CHECK(b.max_lat == Approx(85.0511287798066).epsilon(1e-15));
  CHECK(b.min_lat == Approx(-85.0511287798066).epsilon(1e-15));
  CHECK(tile_bounds_lonlat({1, 0, 1}) == geom::BBox{0, 0, 180, b.max_lat});

  MercatorBounds m = tile_bounds_mercator({0, 0, 0});
  CHECK(m == MercatorBounds{-mercator_half_extent, -mercator_half_extent, mercator_half_extent, mercator_half_extent});
  CHECK(tile_bounds_mercator({0, 1, 1}) == MercatorBounds{-mercator_half_extent, -mercator_half_extent, 0, 0});
}

TEST_CASE("São Paulo at zoom 12 and 22") {
  // lon -46.6333, lat -23.5505, z12, n = 2^12 = 4096:
  //   x = floor((lon + 180)/360 · n) = floor(133.3667/360 · 4096) = floor(1517.4167) = 1517
  //   φ = -23.5505° = -0.4110338 rad; tan φ = -0.4358608; asinh(tan φ) = -0.4231219
  //   y = floor((1 − asinh(tan φ)/π)/2 · n) = floor((1 + 0.1346839)/2 · 4096) = floor(2323.8326) = 2323
  CHECK(tile_for_lonlat(-46.6333, -23.5505, 12) == Tile{1517, 2323, 12});
  // z22 multiplies by 2^10 = 1024: 1517.4167 · 1024 = 1553834.7 → 1553834,
  // 2323.8326 · 1024 = 2379604.6 → 2379604.
  CHECK(tile_for_lonlat(-46.6333, -23.5505, 22) == Tile{1553834, 2379604, 22});
  CHECK(parent(parent(tile_for_lonlat(-46.6333, -23.5505, 14))) == Tile{1517, 2323, 12});

  // Bounds of 1517/2323/12: lon 1517·360/4096 − 180 = -46.669921875 to -46.58203125,
  // lat atan(sinh(π(1 − 2·2324/4096))) = -23.5639871 to -23.4834007.
  geom::BBox b = tile_bounds_lonlat({1517, 2323, 12});
  CHECK(b.min_lon == -46.669921875);
  CHECK(b.max_lon == -46.58203125);
  CHECK(b.min_lat == Approx(-23.56398712845122).epsilon(1e-12));
  CHECK(b.max_lat == Approx(-23.48340065432563).epsilon(1e-12));
  // Tile size at z12: 2·20037508.34/4096 = 9783.9396 m.
  MercatorBounds m = tile_bounds_mercator({1517, 2323, 12});
  CHECK(m.max_x - m.min_x == Approx(9783.93962050256));
}

TEST_CASE("antimeridian and latitude limits") {
  CHECK(tile_for_lonlat(180, 0, 12) == Tile{4095, 2048, 12});
  CHECK(tile_for_lonlat(-180, 0, 12) == Tile{0, 2048, 12});
  CHECK(tile_for_lonlat(179.9999, 10, 1).x == 1);
  CHECK(tile_for_lonlat(0, 85.0511287798, 12).y == 0);
  CHECK(tile_for_lonlat(0, 89.9, 12).y == 0);
  CHECK(tile_for_lonlat(0, 90, 22).y == 0);
  CHECK(tile_for_lonlat(0, -85.0511287798, 12).y == 4095);
  CHECK(tile_for_lonlat(0, -90, 22).y == (1 << 22) - 1);
  CHECK(tile_for_lonlat(180, -90, 22) == Tile{(1 << 22) - 1, (1 << 22) - 1, 22});

  expect_error([] { tile_for_lonlat(0, 0, 25); }, errc::invalid_argument, "z");
  expect_error([] { tile_for_lonlat(0, 0, -1); }, errc::invalid_argument, "z");
  expect_error([] { tile_for_lonlat(180.5, 0, 3); }, errc::invalid_argument, "lon");
  expect_error([] { tile_for_lonlat(0, std::nan(""), 3); }, errc::invalid_argument, "lat");
}

TEST_CASE("bounds round trip: a tile owns its NW corner, its centre and nothing east or south") {
  for (Tile t : {Tile{0, 0, 1}, Tile{1517, 2323, 12}, Tile{3, 1, 2}, Tile{1553834, 2379604, 22}, Tile{7, 7, 3}}) {
    CAPTURE(t.x);
    CAPTURE(t.z);
    geom::BBox b = tile_bounds_lonlat(t);
    CHECK(tile_for_lonlat(b.min_lon, b.max_lat, t.z) == t);
    CHECK(tile_for_lonlat((b.min_lon + b.max_lon) / 2, (b.min_lat + b.max_lat) / 2, t.z) == t);
    const int n = 1 << t.z;
    Tile se = tile_for_lonlat(b.max_lon, b.min_lat, t.z);
    CHECK(se.x == std::min(t.x + 1, n - 1));
    CHECK(se.y == std::min(t.y + 1, n - 1));
  }
}

TEST_CASE("parent, children and validation") {
  Tile t{1517, 2323, 12};
  auto kids = children(t);
  CHECK(kids[0] == Tile{3034, 4646, 13});
  CHECK(kids[1] == Tile{3035, 4646, 13});
  CHECK(kids[2] == Tile{3034, 4647, 13});
  CHECK(kids[3] == Tile{3035, 4647, 13});
  for (const Tile& k : kids) CHECK(parent(k) == t);
  expect_error([] { children(Tile{0, 0, 24}); }, errc::invalid_argument, "z");

  Tile{4095, 4095, 12}.validate();
  expect_error([] { Tile{4096, 0, 12}.validate(); }, errc::invalid_argument, "x");
  expect_error([] { Tile{0, -1, 12}.validate(); }, errc::invalid_argument, "y");
  expect_error([] { Tile{0, 0, 30}.validate(); }, errc::invalid_argument, "z");
}

TEST_CASE("quadkeys") {
  CHECK(quadkey({0, 0, 0}).empty());
  CHECK(tile_from_quadkey("") == Tile{0, 0, 0});
  // Bing Maps' documented example: tile (3, 5) at level 3 is "213".
  CHECK(quadkey({3, 5, 3}) == "213");
  CHECK(tile_from_quadkey("213") == Tile{3, 5, 3});
  CHECK(quadkey({1, 1, 1}) == "3");
  Tile deep{1553834, 2379604, 22};
  CHECK(quadkey(deep).size() == 22);
  CHECK(tile_from_quadkey(quadkey(deep)) == deep);
  CHECK(quadkey(children(Tile{3, 5, 3})[2]) == "2132");  // SW child appends digit 2
  expect_error([] { tile_from_quadkey("0124"); }, errc::invalid_argument, "quadkey");
  expect_error([] { tile_from_quadkey(std::string(25, '0')); }, errc::invalid_argument, "quadkey");
}
