// BBox validation, query parsing and output.
#include <doctest/doctest.h>

#include <map>

#include "cadastre/geom.hpp"
#include "unit/geom/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::geom;
using doctest::Approx;
using geomtest::expect_error;

namespace {
QueryGetter query(std::map<std::string, std::string, std::less<>> q) {
  return [q = std::move(q)](std::string_view name) -> std::optional<std::string> {
    auto it = q.find(name);
    if (it == q.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

TEST_CASE("from_query reads all four or none") {
  auto b = BBox::from_query(query({{"minLongitude", "-46.7"},
                                   {"minLatitude", "-23.6"},
                                   {"maxLongitude", "-46.6"},
                                   {"maxLatitude", "-23.5"}}));
  REQUIRE(b.has_value());
  CHECK(*b == BBox{-46.7, -23.6, -46.6, -23.5});
  CHECK_FALSE(BBox::from_query(query({{"outro", "1"}})).has_value());

  auto msg = expect_error(
      [] { BBox::from_query(query({{"minLongitude", "-46.7"}, {"minLatitude", "-23.6"}, {"maxLatitude", "-23.5"}})); },
      errc::invalid_argument, "maxLongitude");
  CHECK(msg.find("maxLongitude") != std::string::npos);
  expect_error([] { BBox::from_query(query({{"maxLatitude", "1"}})); }, errc::invalid_argument, "minLongitude");

  auto numbers = [](std::string v) {
    return query({{"minLongitude", "1"}, {"minLatitude", std::move(v)}, {"maxLongitude", "2"}, {"maxLatitude", "3"}});
  };
  expect_error([&] { BBox::from_query(numbers("abc")); }, errc::invalid_argument, "minLatitude");
  expect_error([&] { BBox::from_query(numbers("")); }, errc::invalid_argument, "minLatitude");
  expect_error([&] { BBox::from_query(numbers("1,5")); }, errc::invalid_argument, "minLatitude");
  expect_error([&] { BBox::from_query(numbers("2x")); }, errc::invalid_argument, "minLatitude");
  expect_error([&] { BBox::from_query(numbers("nan")); }, errc::invalid_argument, "minLatitude");
  CHECK(BBox::from_query(numbers("-1e-3"))->min_lat == -0.001);
}

TEST_CASE("validate: ranges, order and the antimeridian") {
  BBox{-180, -90, 180, 90}.validate();
  BBox{10, 10, 10, 10}.validate();  // a point is a valid, degenerate box
  expect_error([] { BBox{-181, 0, 0, 1}.validate(); }, errc::invalid_argument, "minLongitude");
  expect_error([] { BBox{0, 0, 180.5, 1}.validate(); }, errc::invalid_argument, "maxLongitude");
  expect_error([] { BBox{0, -91, 1, 1}.validate(); }, errc::invalid_argument, "minLatitude");
  expect_error([] { BBox{0, 0, 1, 90.1}.validate(); }, errc::invalid_argument, "maxLatitude");
  expect_error([] { BBox{0, 2, 1, 1}.validate(); }, errc::invalid_argument, "minLatitude");

  BBox pacific{170, -20, -170, -10};
  CHECK(pacific.crosses_antimeridian());
  expect_error([&] { pacific.validate(); }, errc::invalid_argument, "minLongitude");
  pacific.validate(true);
  auto q = query({{"minLongitude", "170"}, {"minLatitude", "-20"}, {"maxLongitude", "-170"}, {"maxLatitude", "-10"}});
  expect_error([&] { BBox::from_query(q); }, errc::invalid_argument, "minLongitude");
  CHECK(*BBox::from_query(q, true) == pacific);
}

TEST_CASE("to_wkt and to_polygon") {
  BBox b{-46.7, -23.6, -46.6, -23.5};
  CHECK(b.to_wkt() == "POLYGON ((-46.7 -23.6, -46.6 -23.6, -46.6 -23.5, -46.7 -23.5, -46.7 -23.6))");
  Geometry p = b.to_polygon();
  CHECK(p.srid() == 4674);
  CHECK(p.equals(Geometry::from_wkt(b.to_wkt())));
  CHECK(p.bbox() == b);
  CHECK(p.area() == Approx(0.01));

  BBox pacific{170, -20, -170, -10};
  CHECK(pacific.to_wkt() ==
        "MULTIPOLYGON (((170 -20, 180 -20, 180 -10, 170 -10, 170 -20)), "
        "((-180 -20, -170 -20, -170 -10, -180 -10, -180 -20)))");
  Geometry m = pacific.to_polygon(4326);
  CHECK(m.type_name() == "MultiPolygon");
  CHECK(m.srid() == 4326);
  CHECK(m.area() == Approx(200.0));  // 20° × 10°
}
