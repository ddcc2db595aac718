// Azimuths: geodesic (lon/lat on GRS80) and grid (projected).
#include <doctest/doctest.h>

#include "cadastre/geom.hpp"
#include "unit/geom/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::geom;
using doctest::Approx;
using geomtest::expect_error;

TEST_CASE("geodesic azimuth: cardinal directions and a diagonal") {
  // Meridians and the equator are geodesics, so these are exact.
  CHECK(azimuth_deg({-46, -23}, {-46, -22}) == Approx(0.0));
  CHECK(azimuth_deg({0, 0}, {1, 0}) == Approx(90.0));
  CHECK(azimuth_deg({-46, -23}, {-46, -24}) == Approx(180.0));
  CHECK(azimuth_deg({0, 0}, {-1, 0}) == Approx(270.0));
  // A small step of equal degrees north and east at the equator: a degree of longitude is
  // longer than one of latitude by 1/(1 − e²), so tan(az) = N/M = 1/(1 − 0.00669438) and
  // az = 45.1924°, not 45°.
  CHECK(azimuth_deg({0, 0}, {0.001, 0.001}) == Approx(45.1924).epsilon(1e-5));
  CHECK(azimuth_deg({0, 0}, {-0.001, -0.001}) == Approx(225.1924).epsilon(1e-5));
  // Due "east" along a southern parallel the geodesic starts slightly poleward: > 90°.
  CHECK(azimuth_deg({-47, -23}, {-46, -23}) > 90.0);
  expect_error([] { azimuth_deg({1, 1}, {1, 1}); }, errc::invalid_argument);
  expect_error([] { azimuth_deg({1, 91}, {1, 1}); }, errc::invalid_argument);
}

TEST_CASE("grid azimuth in projected coordinates") {
  CHECK(grid_azimuth_deg({0, 0}, {0, 10}) == Approx(0.0));
  CHECK(grid_azimuth_deg({0, 0}, {10, 0}) == Approx(90.0));
  CHECK(grid_azimuth_deg({0, 0}, {0, -10}) == Approx(180.0));
  CHECK(grid_azimuth_deg({0, 0}, {-10, 0}) == Approx(270.0));
  CHECK(grid_azimuth_deg({0, 0}, {10, 10}) == Approx(45.0));
  CHECK(grid_azimuth_deg({0, 0}, {-10, 10}) == Approx(315.0));
  CHECK(grid_azimuth_deg({333000, 7394000}, {333000 + 3, 7394000 - 3 * 1.7320508075688772}) == Approx(150.0));
  expect_error([] { grid_azimuth_deg({5, 5}, {5, 5}); }, errc::invalid_argument);
}
