// Geometry parsing, output and properties.
#include <doctest/doctest.h>

#include "cadastre/geom.hpp"
#include "unit/geom/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::geom;
using geomtest::expect_error;

TEST_CASE("WKT round trip, EWKT prefix and properties") {
  auto g = Geometry::from_wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))");
  CHECK(g.to_wkt() == "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))");
  CHECK(g.type_name() == "Polygon");
  CHECK(g.num_points() == 5);
  CHECK(g.num_geometries() == 1);
  CHECK(g.dimension() == 2);
  CHECK(g.srid() == 0);
  CHECK_FALSE(g.is_empty());
  CHECK(g.area() == 100.0);

  auto e = Geometry::from_wkt("SRID=4674;POINT(-46.6333 -23.5505)");
  CHECK(e.srid() == 4674);
  CHECK(e.as_point() == Point{-46.6333, -23.5505});
  CHECK(e.to_wkt() == "POINT (-46.6333 -23.5505)");
  CHECK(e.to_wkt(2) == "POINT (-46.63 -23.55)");
  e.set_srid(4326);
  CHECK(e.srid() == 4326);

  CHECK(Geometry::from_wkt("POINT EMPTY").is_empty());
  CHECK(Geometry().is_empty());
  CHECK(Geometry().type_name() == "GeometryCollection");
}

TEST_CASE("WKB and hex WKB round trips, with and without SRID") {
  auto p = Geometry::point(1, 2, 4674);
  // Little-endian Point: 01 | type 1 | x = 1.0 (3FF0...) | y = 2.0 (4000...).
  CHECK(p.to_hex_wkb() == "0101000000000000000000F03F0000000000000040");
  // EWKB sets the SRID flag 0x20000000 in the type and inserts SRID 4674 = 0x00001242
  // (bytes 42 12 00 00) before the coordinates.
  CHECK(p.to_hex_wkb(true) == "010100002042120000000000000000F03F0000000000000040");

  auto back = Geometry::from_hex_wkb("\\x010100002042120000000000000000f03f0000000000000040");
  CHECK(back.srid() == 4674);
  CHECK(back.as_point() == Point{1, 2});

  auto poly = Geometry::from_wkt("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))");
  std::vector<std::uint8_t> bytes = poly.to_wkb();
  CHECK(bytes.size() == 1 + 4 + 4 + 2 * (1 + 4 + 4 + 4 + 4 * 16));
  CHECK(Geometry::from_wkb(bytes).equals(poly));
  std::string binary(bytes.begin(), bytes.end());
  CHECK(Geometry::from_wkb(binary).to_wkt() == poly.to_wkt());
}

TEST_CASE("GeoJSON round trip and features") {
  auto g = Geometry::from_geojson(R"({"type":"LineString","coordinates":[[-46.6,-23.5],[-46.5,-23.4]]})");
  CHECK(g.type_name() == "LineString");
  CHECK(g.srid() == 4326);
  CHECK(g.to_geojson() == R"({"type":"LineString","coordinates":[[-46.6,-23.5],[-46.5,-23.4]]})");
  CHECK(Geometry::from_geojson(g.to_geojson()).equals(g));

  auto f = Geometry::from_geojson(
      R"({"type":"Feature","properties":{"inscricao":"123"},"geometry":{"type":"Point","coordinates":[1,2]}})", 4674);
  CHECK(f.as_point() == Point{1, 2});
  CHECK(f.srid() == 4674);
}

TEST_CASE("parse errors are invalid_geometry") {
  expect_error([] { Geometry::from_wkt("POLYGON ((0 0, 1 0"); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_wkt(""); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_wkt("SRID=abc;POINT(1 2)"); }, errc::invalid_geometry);
  auto msg = expect_error([] { Geometry::from_wkt("PONTO (1 2)"); }, errc::invalid_geometry);
  CHECK(msg.rfind("WKT inválido", 0) == 0);
  expect_error([] { Geometry::from_hex_wkb("01020Z"); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_hex_wkb(""); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_wkb(std::string("\x01\x01\x00", 3)); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_geojson(R"({"type":"Point","coordinates":)"); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_geojson(R"({"type":"Circle","coordinates":[1,2]})"); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_geojson("  "); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_wkt("LINESTRING (0 0, 1 1)").as_point(); }, errc::invalid_geometry);
  expect_error([] { Geometry::from_wkt("POINT EMPTY").bbox(); }, errc::invalid_geometry);
}

TEST_CASE("copies are independent; moved-from geometries refuse use") {
  auto a = Geometry::point(1, 2, 4674);
  Geometry b = a;
  b.set_srid(4326);
  CHECK(a.srid() == 4674);
  Geometry c = std::move(a);
  CHECK(c.as_point() == Point{1, 2});
  expect_error([&] { (void)a.srid(); }, errc::internal);  // NOLINT(bugprone-use-after-move)
  a = b;  // assignment revives it
  CHECK(a.srid() == 4326);
}

TEST_CASE("components and bbox") {
  auto m = Geometry::from_wkt("MULTIPOINT ((1 2), (3 -4))");
  CHECK(m.num_geometries() == 2);
  CHECK(m.geometry_n(1).as_point() == Point{3, -4});
  expect_error([&] { m.geometry_n(2); }, errc::invalid_argument);
  CHECK(m.bbox() == BBox{1, -4, 3, 2});
  CHECK(m.envelope().to_wkt() == "POLYGON ((1 -4, 3 -4, 3 2, 1 2, 1 -4))");
}
