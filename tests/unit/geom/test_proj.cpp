// PROJ transforms, UTM zone choice and metric measurements.
#include <doctest/doctest.h>

#include "cadastre/geom.hpp"
#include "unit/geom/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::geom;
using doctest::Approx;
using geomtest::expect_error;

TEST_CASE("utm_epsg_for picks SIRGAS 2000 / UTM south zones in both hemispheres") {
  CHECK(utm_epsg_for(-46.6333, -23.5505) == 31983);  // São Paulo, zone 23 (-48..-42)
  CHECK(utm_epsg_for(-43.1729, -22.9068) == 31983);  // Rio de Janeiro
  CHECK(utm_epsg_for(-60.0217, -3.1190) == 31980);   // Manaus, zone 20 (-66..-60)
  CHECK(utm_epsg_for(-60.6733, 2.8235) == 31980);    // Boa Vista, north of the equator: still 20S
  CHECK(utm_epsg_for(-51.0664, 0.0349) == 31982);    // Macapá, zone 22
  CHECK(utm_epsg_for(-72.6756, -7.6306) == 31978);   // Cruzeiro do Sul (AC), zone 18
  CHECK(utm_epsg_for(-32.4240, -3.8540) == 31985);   // Fernando de Noronha, zone 25
  CHECK(utm_epsg_for(-29.3200, -20.5100) == 5396);   // Trindade, zone 26
  CHECK(utm_epsg_for(-48.0, -15.0) == 31983);        // a zone's west edge belongs to it
  expect_error([] { utm_epsg_for(-9.14, 38.72); }, errc::invalid_argument);  // Lisboa
  expect_error([] { utm_epsg_for(-46, -70); }, errc::invalid_argument);
}

TEST_CASE("point transforms keep lon/lat order") {
  // On the central meridian of zone 23 (-45°) at the equator: E = 500 000, N = 10 000 000.
  Point utm = transform(Point{-45, 0}, 4674, 31983);
  CHECK(utm.x == Approx(500000.0).epsilon(1e-9));
  CHECK(utm.y == Approx(10000000.0).epsilon(1e-9));

  // Web Mercator: x = lon·π·R/180, y = R·ln(tan(π/4 + φ/2)), R = 6 378 137.
  Point m = transform(Point{-46.6333, -23.5505}, 4326, 3857);
  CHECK(m.x == Approx(-5191195.2100).epsilon(1e-9));
  CHECK(m.y == Approx(-2698729.4562).epsilon(1e-9));
  CHECK(transform(Point{180, 0}, 4326, 3857).x == Approx(20037508.342789244));

  Point back = transform(m, 3857, 4674);
  CHECK(back.x == Approx(-46.6333).epsilon(1e-12));
  CHECK(back.y == Approx(-23.5505).epsilon(1e-12));

  // SIRGAS 2000 and WGS 84 coincide at this precision.
  Point w = transform(Point{-46.6333, -23.5505}, 4674, 4326);
  CHECK(w.x == Approx(-46.6333).epsilon(1e-12));
  CHECK(w.y == Approx(-23.5505).epsilon(1e-12));

  expect_error([] { transform(Point{0, 0}, 4674, 999999); }, errc::invalid_argument, "srid");
  expect_error([] { transform(Point{0, 0}, 0, 4674); }, errc::invalid_argument, "srid");
  expect_error([] { transform(Point{0, 95}, 4326, 3857); }, errc::invalid_geometry);
}

TEST_CASE("a 100 m square in UTM 23S measures 10 000 m² after a trip through EPSG:4674") {
  // Near São Paulo, 167 km west of the central meridian, where the UTM scale factor is
  // k ≈ 0.9996·(1 + 167²/(2·6371²)) ≈ 0.99994: grid and ground areas differ by ~0.01%.
  auto square = Geometry::from_wkt(
      "SRID=31983;POLYGON ((333000 7394000, 333100 7394000, 333100 7394100, 333000 7394100, 333000 7394000))");
  Geometry lonlat = transform(square, 4674);
  CHECK(lonlat.srid() == 4674);
  CHECK(lonlat.bbox().min_lon == Approx(-46.63).epsilon(0.001));
  CHECK(area_m2(lonlat) == Approx(10000.0).epsilon(0.001));
  CHECK(area_m2(lonlat, Measure::utm) == Approx(10000.0).epsilon(1e-6));
  CHECK(length_m(lonlat) == Approx(400.0).epsilon(0.001));
  CHECK(length_m(lonlat, Measure::utm) == Approx(400.0).epsilon(1e-6));
  // A projected geometry is measured after transforming it to lon/lat.
  CHECK(area_m2(square, Measure::utm) == Approx(10000.0).epsilon(1e-6));

  // On the central meridian (E = 500 000) k = 0.9996, so the ground area of a 100 m grid
  // square is 10 000 / 0.9996² = 10 008.0 m²: the geodesic measure sees it, UTM does not.
  auto on_cm = Geometry::from_wkt(
      "SRID=31983;POLYGON ((500000 7394000, 500100 7394000, 500100 7394100, 500000 7394100, 500000 7394000))");
  CHECK(area_m2(on_cm) == Approx(10008.0).epsilon(1e-4));
  CHECK(area_m2(on_cm, Measure::utm) == Approx(10000.0).epsilon(1e-6));
}

TEST_CASE("ellipsoidal areas and lengths of degree cells") {
  // Area of the cell lon 0..1, lat 0..1 on GRS80 (a = 6378137, f = 1/298.257222101):
  //   A = Δλ · b²/2 · [q(1°) − q(0)],  q(φ) = sinφ/(1 − e²sin²φ) + ln((1 + e sinφ)/(1 − e sinφ))/(2e)
  //     = 12 308 463 893.6 m²  (12 308.46 km²).
  // Our edges are geodesics; the northern edge bulges ~4 m poleward of the parallel, a
  // 3·10⁻⁵ relative difference.
  auto cell = Geometry::from_wkt("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))");
  CHECK(area_m2(cell) == Approx(12308463893.6).epsilon(1e-4));
  // The same formula for lat -24..-23 gives 11 312 085 322.1 m² (a cell over São Paulo state).
  auto sp_cell = Geometry::from_wkt("SRID=4674;POLYGON ((-47 -24, -46 -24, -46 -23, -47 -23, -47 -24))");
  CHECK(area_m2(sp_cell) == Approx(11312085322.1).epsilon(1e-4));
  // UTM 23S (central meridian -45°, the cell 1.5° west of it): within 0.1%.
  CHECK(area_m2(sp_cell, Measure::utm) == Approx(11312085322.1).epsilon(1e-3));

  // One degree of the equator is a·π/180 = 111 319.4908 m; one degree of meridian from the
  // equator is ∫ a(1−e²)/(1−e²sin²φ)^{3/2} dφ = 110 574.3886 m.
  CHECK(length_m(Geometry::from_wkt("LINESTRING (0 0, 1 0)")) == Approx(111319.4908).epsilon(1e-9));
  CHECK(length_m(Geometry::from_wkt("LINESTRING (0 0, 0 1)")) == Approx(110574.3886).epsilon(1e-9));
  CHECK(geodesic_distance_m({0, 0}, {1, 0}) == Approx(111319.4908).epsilon(1e-9));

  // A hole is subtracted; points have no area.
  auto holed = Geometry::from_wkt("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0), (0 0, 1 0, 1 0.5, 0 0.5, 0 0))");
  CHECK(area_m2(holed) == Approx(12308463893.6 / 2).epsilon(1e-3));
  CHECK(area_m2(Geometry::point(-46, -23)) == 0.0);
  CHECK(length_m(Geometry::point(-46, -23)) == 0.0);
}

TEST_CASE("whole geometries transform and keep their shape") {
  auto line = Geometry::from_wkt("SRID=4674;LINESTRING (-45 0, -45 -1)");
  Geometry utm = transform(line, 31983);
  CHECK(utm.srid() == 31983);
  // Along the central meridian UTM northing is 0.9996 × meridian arc: 110 574.3886 × 0.9996.
  CHECK(utm.length() == Approx(110574.3886 * 0.9996).epsilon(1e-7));
  Geometry back = transform(utm, 4674);
  CHECK(back.bbox().min_lat == Approx(-1.0).epsilon(1e-12));

  expect_error([] { transform(Geometry::point(0, 0), 4674); }, errc::invalid_geometry, "srid");
  CHECK(transform(line, 4674, 4674).srid() == 4674);
}
