// geom::parts: the coordinates a renderer draws, by kind.
#include <doctest/doctest.h>

#include "cadastre/geom.hpp"

using namespace cadastre::geom;

TEST_CASE("parts gives a polygon's exterior ring first, then its holes, closed as stored") {
  auto p = parts(Geometry::from_wkt("POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))"));
  REQUIRE(p.polygons.size() == 1);
  REQUIRE(p.polygons[0].size() == 2);
  CHECK(p.polygons[0][0] == std::vector<Point>{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 0}});
  CHECK(p.polygons[0][1] == std::vector<Point>{{1, 1}, {2, 1}, {2, 2}, {1, 1}});
  CHECK(p.lines.empty());
  CHECK(p.points.empty());
}

TEST_CASE("parts flattens multi geometries and collections in their order and skips empty members") {
  auto p = parts(Geometry::from_wkt(
      "GEOMETRYCOLLECTION (MULTIPOINT ((1 2), (3 4)), LINESTRING (0 0, 5 5), POINT EMPTY, "
      "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((10 10, 11 10, 11 11, 10 10))))"));
  CHECK(p.points == std::vector<Point>{{1, 2}, {3, 4}});
  REQUIRE(p.lines.size() == 1);
  CHECK(p.lines[0] == std::vector<Point>{{0, 0}, {5, 5}});
  REQUIRE(p.polygons.size() == 2);
  CHECK(p.polygons[1][0].front() == Point{10, 10});
}

TEST_CASE("parts of an empty geometry is empty") {
  auto p = parts(Geometry::from_wkt("POLYGON EMPTY"));
  CHECK(p.polygons.empty());
  CHECK(p.lines.empty());
  CHECK(p.points.empty());
}
