// The formulas of valuation.md, pinned with hand-checked values.
#include <doctest/doctest.h>

#include "cadastre/valuation.hpp"

using namespace cadastre::valuation;
using doctest::Approx;

TEST_CASE("depth factor Fp at the documented check values") {
  const DepthParams p;
  CHECK(depth_factor(10, p) == Approx(0.6325).epsilon(1e-4));  // (10/25)^0.5
  CHECK(depth_factor(20, p) == Approx(0.8944).epsilon(1e-4));  // (20/25)^0.5
  CHECK(depth_factor(50, p) == Approx(0.8944).epsilon(1e-4));  // (40/50)^0.5
  CHECK(depth_factor(80, p) == Approx(0.7071).epsilon(1e-4));  // (40/80)^0.5
}

TEST_CASE("depth factor Fp is 1 from 25 to 40 and 0.6 from 105 on") {
  const DepthParams p;
  CHECK(depth_factor(25, p) == 1.0);
  CHECK(depth_factor(32.5, p) == 1.0);
  CHECK(depth_factor(40, p) == 1.0);
  CHECK(depth_factor(40.0001, p) < 1.0);
  CHECK(depth_factor(104, p) == Approx(0.620174).epsilon(1e-6));  // (40/104)^0.5, still the curve
  CHECK(depth_factor(105, p) == 0.6);                             // Pe ≥ 105: fixed minimum
  CHECK(depth_factor(500, p) == 0.6);
}

TEST_CASE("frontage factor Ft clamps the frontage to [Fr/2, 2Fr]") {
  const FrontageParams p;
  CHECK(frontage_factor(10, p) == 1.0);
  CHECK(frontage_factor(12, p) == Approx(1.0466351).epsilon(1e-7));  // 1.2^0.25
  CHECK(frontage_factor(5, p) == Approx(0.8408964).epsilon(1e-7));   // 0.5^0.25
  CHECK(frontage_factor(3, p) == frontage_factor(5, p));             // below Fr/2 → Fe = 5
  CHECK(frontage_factor(20, p) == Approx(1.1892071).epsilon(1e-7));  // 2^0.25
  CHECK(frontage_factor(80, p) == frontage_factor(20, p));           // above 2Fr → Fe = 20
}

TEST_CASE("large plot factor Fg for 10,000 m2 with 50 m frontage") {
  CHECK(large_plot_factor(10000, 50, LargePlotParams{}) == Approx(0.2746).epsilon(1e-4));
  CHECK(large_plot_factor(10000, 50, LargePlotParams{}) == Approx(0.27464014).epsilon(1e-8));
}

TEST_CASE("Ross-Heidecke depreciation at the documented check values") {
  CHECK(ross_alpha(0.10) == Approx(0.055));
  CHECK(ross_heidecke(0.10, 0.0252) == Approx(0.0788).epsilon(1e-4));  // state c
  CHECK(ross_heidecke(0.10, 0.0252) == Approx(0.078814).epsilon(1e-9));
  CHECK(ross_heidecke(0.50, 0.1810) == Approx(0.4881).epsilon(1e-4));  // state e
  CHECK(ross_heidecke(0.50, 0.1810) == Approx(0.488125).epsilon(1e-9));
  // Column b at x = 2%: 1.34% (published tables often print 1.05%).
  CHECK(ross_heidecke(0.02, 0.0032) == Approx(0.013368).epsilon(1e-6));
}

TEST_CASE("Ross-Heidecke clamps x at 1: a building past its useful life keeps only R") {
  CHECK(ross_alpha(1.0) == 1.0);
  CHECK(ross_alpha(2.5) == 1.0);
  CHECK(ross_heidecke(3.0, 0.0) == 1.0);
  CHECK(ross_heidecke(0.0, 0.0) == 0.0);
  CHECK(ross_heidecke(0.0, 0.752) == Approx(0.752));
}
