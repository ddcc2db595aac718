// Validity and planar operations on shapes whose results are known by hand.
#include <doctest/doctest.h>

#include <numbers>

#include "cadastre/geom.hpp"
#include "unit/geom/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::geom;
using doctest::Approx;
using geomtest::expect_error;

namespace {
Geometry wkt(const char* s) { return Geometry::from_wkt(s); }
}  // namespace

TEST_CASE("bow-tie: invalid with reason and location, make_valid gives two triangles") {
  // (0 0)→(2 2)→(2 0)→(0 2)→(0 0) crosses itself at (1 1); each lobe is a triangle of area 1.
  auto bow = wkt("POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))");
  Validity v = bow.validity();
  CHECK_FALSE(v.valid);
  CHECK(v.reason == "Autointerseção");
  REQUIRE(v.location.has_value());
  CHECK(*v.location == Point{1, 1});

  auto fixed = bow.make_valid();
  CHECK(fixed.is_valid());
  CHECK(fixed.type_name() == "MultiPolygon");
  CHECK(fixed.num_geometries() == 2);
  CHECK(fixed.area() == Approx(2.0));

  auto square = wkt("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))");
  CHECK(square.validity().valid);
  CHECK(square.validity().reason.empty());
  CHECK(square.make_valid().equals(square));

  auto hole_outside = wkt("POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (5 5, 6 5, 6 6, 5 6, 5 5))");
  CHECK(hole_outside.validity().reason == "Buraco fora do contorno externo");
}

TEST_CASE("intersection and union areas") {
  auto a = wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))");
  auto b = wkt("POLYGON ((5 5, 15 5, 15 15, 5 15, 5 5))");
  CHECK(a.intersects(b));
  CHECK(a.intersection(b).equals(wkt("POLYGON ((5 5, 10 5, 10 10, 5 10, 5 5))")));
  CHECK(a.intersection_area(b) == Approx(25.0));
  CHECK(a.difference(b).area() == Approx(75.0));

  auto far = wkt("POLYGON ((20 0, 30 0, 30 10, 20 10, 20 0))");
  CHECK_FALSE(a.intersects(far));
  CHECK(a.intersection(far).is_empty());

  // 100 + 100 − 25 overlap + 100 disjoint = 275.
  Geometry u = union_all({a, b, far});
  CHECK(u.area() == Approx(275.0));
  CHECK(u.type_name() == "MultiPolygon");
  CHECK(union_all({}).is_empty());

  // Two squares sharing an edge dissolve into one rectangle.
  auto left = wkt("SRID=4674;POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))");
  auto right = wkt("POLYGON ((1 0, 2 0, 2 1, 1 1, 1 0))");
  Geometry r = union_all({left, right});
  CHECK(r.type_name() == "Polygon");
  CHECK(r.equals(wkt("POLYGON ((0 0, 2 0, 2 1, 0 1, 0 0))")));
  CHECK(r.srid() == 4674);
}

TEST_CASE("split a square by a line into two known halves") {
  auto sq = wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))");
  auto pieces = sq.split(wkt("LINESTRING (4 -1, 4 11)"));
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].area() == Approx(60.0));  // largest first
  CHECK(pieces[1].area() == Approx(40.0));
  CHECK(pieces[0].equals(wkt("POLYGON ((4 0, 10 0, 10 10, 4 10, 4 0))")));
  CHECK(pieces[1].equals(wkt("POLYGON ((0 0, 4 0, 4 10, 0 10, 0 0))")));

  // A line that stops inside the polygon does not cut it.
  CHECK(sq.split(wkt("LINESTRING (4 -1, 4 5)")).size() == 1);
  // A line elsewhere returns the polygon itself.
  auto same = sq.split(wkt("LINESTRING (20 0, 20 10)"));
  REQUIRE(same.size() == 1);
  CHECK(same[0].equals(sq));
}

TEST_CASE("split keeps holes out and handles a concave polygon") {
  // A U shape (a 10×10 square without the notch [4,6]×[3,10]) cut along y = 5: the line
  // crosses the notch, which is outside, so the result is the base (10×5 minus the notch
  // part [4,6]×[3,5]) and the two arms 4×5 each.
  auto u = wkt("POLYGON ((0 0, 10 0, 10 10, 6 10, 6 3, 4 3, 4 10, 0 10, 0 0))");
  auto pieces = u.split(wkt("LINESTRING (-1 5, 11 5)"));
  REQUIRE(pieces.size() == 3);
  CHECK(pieces[0].area() == Approx(46.0));
  CHECK(pieces[1].area() == Approx(20.0));
  CHECK(pieces[2].area() == Approx(20.0));

  // A square with a hole cut through the hole: two halves, each with half the hole removed.
  auto holed = wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))");
  auto halves = holed.split(wkt("LINESTRING (5 -1, 5 11)"));
  REQUIRE(halves.size() == 2);
  CHECK(halves[0].area() == Approx(48.0));
  CHECK(halves[1].area() == Approx(48.0));

  expect_error([&] { wkt("LINESTRING (0 0, 1 1)").split(wkt("LINESTRING (0 1, 1 0)")); }, errc::invalid_argument);
  expect_error([&] { holed.split(holed); }, errc::invalid_argument);
}

TEST_CASE("buffer, distance, nearest points, centroid, point on surface") {
  auto origin = Geometry::point(0, 0);
  // 64 segments per quadrant: the inscribed 256-gon has area πr²·sin(2π/256)/(2π/256),
  // 0.01% below the circle.
  CHECK(origin.buffer(10, 64).area() == Approx(std::numbers::pi * 100).epsilon(0.001));
  CHECK(origin.buffer(10).area() == Approx(std::numbers::pi * 100).epsilon(0.013));
  expect_error([&] { origin.buffer(10, 0); }, errc::invalid_argument, "quadrant_segments");

  // The nearest point of the square [3,5]×[4,6] to the origin is its corner (3,4): distance 5.
  auto sq = wkt("POLYGON ((3 4, 5 4, 5 6, 3 6, 3 4))");
  CHECK(origin.distance(sq) == Approx(5.0));
  auto np = origin.nearest_points(sq);
  CHECK(np[0] == Point{0, 0});
  CHECK(np[1] == Point{3, 4});

  // Triangle (0 0, 6 0, 0 3): centroid is the mean of the vertices, (2, 1).
  auto tri = wkt("POLYGON ((0 0, 6 0, 0 3, 0 0))");
  Point c = tri.centroid().as_point();
  CHECK(c.x == Approx(2.0));
  CHECK(c.y == Approx(1.0));

  // C shape: the 10×10 square without [2,10]×[2,8]; centroid x = (100·5 − 48·6)/52 ≈ 4.08,
  // y = 5, which is in the opening. point_on_surface is always inside.
  auto cshape = wkt("POLYGON ((0 0, 10 0, 10 2, 2 2, 2 8, 10 8, 10 10, 0 10, 0 0))");
  CHECK_FALSE(cshape.covers(cshape.centroid()));
  CHECK(cshape.covers(cshape.point_on_surface()));

  CHECK(wkt("LINESTRING (0 0, 3 4)").length() == Approx(5.0));
  CHECK(sq.length() == Approx(8.0));
}
