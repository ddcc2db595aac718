// GEOS and PROJ contexts are per thread: concurrent use from several threads is safe.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "cadastre/geom.hpp"

using namespace cadastre::geom;

TEST_CASE("parsing, operations and transforms run concurrently") {
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&good, t] {
      for (int i = 0; i < 50; ++i) {
        double d = t + i * 0.001;
        auto sq = Geometry::from_wkt("SRID=31983;POLYGON ((333000 7394000, 333100 7394000, 333100 7394100, "
                                     "333000 7394100, 333000 7394000))");
        Geometry lonlat = transform(sq, 4674);
        bool ok = std::abs(area_m2(lonlat, Measure::utm) - 10000.0) < 1e-3 &&
                  Geometry::point(d, d).buffer(1).intersects(Geometry::point(d + 0.5, d));
        try {
          Geometry::from_wkt("POLYGON ((");
          ok = false;
        } catch (const cadastre::Error&) {
        }
        if (ok) ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(good == 200);
  // A geometry made on one thread can be used and destroyed on another.
  Geometry made;
  std::thread([&made] { made = Geometry::point(1, 2, 4674); }).join();
  CHECK(made.as_point() == Point{1, 2});
}
