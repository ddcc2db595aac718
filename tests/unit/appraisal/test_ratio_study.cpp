// IAAO ratio study (Standard on Ratio Studies, 2013). Expected values computed by hand; the
// arithmetic is in the comments (logs to 9 decimals).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cadastre/appraisal.hpp"
#include "cadastre/error.hpp"

using namespace cadastre;
using namespace cadastre::appraisal;

TEST_CASE("ratio study of a uniform, unbiased roll: every statistic by hand") {
  // A = 90, 200, 190, 420, 110; S = 100, 200, 200, 400, 100
  // r = 0.90, 1.00, 0.95, 1.05, 1.10 → sorted 0.90 0.95 1.00 1.05 1.10, median 1.00
  // mean = 5.00 / 5 = 1.00; weighted mean = ΣA / ΣS = 1010 / 1000 = 1.01
  // COD = 100 · ((0.10 + 0 + 0.05 + 0.05 + 0.10) / 5) / 1.00 = 100 · 0.06 = 6.0
  // PRD = 1.00 / 1.01 = 0.990099
  const std::vector<double> A{90, 200, 190, 420, 110}, S{100, 200, 200, 400, 100};
  const RatioStudy rs = ratio_study(A, S);
  CHECK(rs.n == 5);
  CHECK(rs.ratios[2] == doctest::Approx(0.95));
  CHECK(rs.median.value == doctest::Approx(1.0));
  CHECK(rs.median.pass);
  CHECK(rs.median.lower == 0.90);
  CHECK(rs.median.upper == 1.10);
  CHECK(rs.mean == doctest::Approx(1.0));
  CHECK(rs.weighted_mean == doctest::Approx(1.01));
  CHECK(rs.cod.value == doctest::Approx(6.0));
  CHECK(rs.cod.upper == 15.0);
  CHECK(rs.cod.pass);
  CHECK(rs.prd.value == doctest::Approx(0.9900990099));
  CHECK(rs.prd.pass);
  // PRB: V = ½A/1.00 + ½S = 95, 200, 195, 410, 105
  //   x = log2 V = 6.569855608, 7.643856190, 7.607330314, 8.679480100, 6.714245518
  //   y = (r − 1)/1 = −0.10, 0, −0.05, 0.05, 0.10 (mean 0)
  //   x̄ = 37.214767730 / 5 = 7.442953546
  //   Sxx = Σ(x − x̄)² = 0.762297 + 0.040411 + 0.027107 + 1.527713 + 0.532167 = 2.889695
  //   Sxy = Σ(x − x̄)·y = 0.087310 + 0 − 0.008219 + 0.061826 − 0.072871 = 0.068046
  //   β1 = Sxy / Sxx = 0.068046 / 2.889695 = 0.023548
  //   β0 = ȳ − β1 x̄ = −0.175267; SSE = 0.023398; se(β1) = √(SSE / 3 / Sxx) = 0.051952
  //   95%: t(0.975, 3) = 3.182446 → 0.023548 ± 0.165333 = [−0.141785, 0.188881]
  CHECK(rs.prb.value == doctest::Approx(0.0235479808).epsilon(1e-8));
  CHECK(rs.prb.pass);
  CHECK(rs.prb_ci.level == 0.95);
  CHECK(rs.prb_ci.lower == doctest::Approx(0.0235479808 - 3.182446305 * 0.0519516600).epsilon(1e-6));
  CHECK(rs.prb_ci.upper == doctest::Approx(0.0235479808 + 3.182446305 * 0.0519516600).epsilon(1e-6));
  // t = 0.023548 / 0.051952 = 0.45327 with 3 df → p ≈ 0.68 (far from significant)
  CHECK(rs.prb_p > 0.6);
  CHECK(rs.prb_p < 0.75);
  // median CI, n = 5: j = round(2.5 − 1.959964·√5/2) = round(0.3087) = 0 → 1,
  // k = round(1 + 2.5 + 2.1913) = 6 → 5: the whole range [0.90, 1.10]
  CHECK(rs.median_ci_lower_rank == 1);
  CHECK(rs.median_ci_upper_rank == 5);
  CHECK(rs.median_ci.lower == doctest::Approx(0.90));
  CHECK(rs.median_ci.upper == doctest::Approx(1.10));
  CHECK(rs.pass);
}

TEST_CASE("ratio study of a regressive roll fails COD, PRD and PRB") {
  // A = 100, 150, 200, 240, 270, 300; S = 80, 150, 220, 300, 360, 430
  // r = 1.25, 1.00, 0.909091, 0.80, 0.75, 0.697674
  // sorted 0.697674 0.75 0.80 0.909091 1.00 1.25 → median (0.80 + 0.909091)/2 = 0.854545
  // mean = 5.406765 / 6 = 0.901128; weighted mean = 1260 / 1540 = 0.818182
  // PRD = 0.901128 / 0.818182 = 1.101378 (> 1.03: regressive)
  // COD = 100 · (Σ|r − 0.854545| / 6) / 0.854545
  //     = 100 · ((0.395455 + 0.145455 + 0.054545 + 0.054545 + 0.104545 + 0.156871) / 6) / 0.854545
  //     = 100 · (0.911417 / 6) / 0.854545 = 17.7759 (> 15)
  // PRB: V = ½A/0.854545 + ½S; y = (r − 0.854545)/0.854545; β1 = −0.319044 (< −0.05)
  const std::vector<double> A{100, 150, 200, 240, 270, 300}, S{80, 150, 220, 300, 360, 430};
  const RatioStudy rs = ratio_study(A, S);
  CHECK(rs.median.value == doctest::Approx(0.8545454545));
  CHECK_FALSE(rs.median.pass);  // below 0.90
  CHECK(rs.mean == doctest::Approx(0.9011275546));
  CHECK(rs.weighted_mean == doctest::Approx(0.8181818182));
  CHECK(rs.prd.value == doctest::Approx(1.1013781223));
  CHECK_FALSE(rs.prd.pass);
  CHECK(rs.cod.value == doctest::Approx(17.775853538));
  CHECK_FALSE(rs.cod.pass);
  CHECK(rs.prb.value == doctest::Approx(-0.3190441862).epsilon(1e-8));
  CHECK_FALSE(rs.prb.pass);
  CHECK_FALSE(rs.pass);

  // the COD limit of another class (vacant land, 25.0) accepts the same dispersion
  RatioStudyOptions land;
  land.cod_max = 25.0;
  CHECK(ratio_study(A, S, land).cod.pass);
}

TEST_CASE("median confidence interval by order statistics, n = 20") {
  // ratios 0.81, 0.82, ..., 1.00 (S = 100, A = 81..100) in reverse order
  // j = round(10 − 1.959964·√20/2) = round(10 − 4.382619) = round(5.617) = 6
  // k = round(1 + 10 + 4.382619) = round(15.383) = 15 (Gardner & Altman's table: 6th, 15th)
  std::vector<double> A, S;
  for (int i = 100; i >= 81; --i) {
    A.push_back(i);
    S.push_back(100);
  }
  // all sale prices equal but the proxies differ (they include A), so PRB is defined
  const RatioStudy rs = ratio_study(A, S);
  CHECK(rs.median.value == doctest::Approx(0.905));
  CHECK(rs.median_ci_lower_rank == 6);
  CHECK(rs.median_ci_upper_rank == 15);
  CHECK(rs.median_ci.lower == doctest::Approx(0.86));
  CHECK(rs.median_ci.upper == doctest::Approx(0.95));
}

TEST_CASE("ratio study input errors name the field") {
  auto field_of = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      return e.field();
    }
    return "nothing thrown";
  };
  const std::vector<double> a{1, 2, 3}, s{1, 2, 3};
  CHECK(field_of([&] { ratio_study(a, std::vector<double>{1, 2}); }) == "vendas");
  CHECK(field_of([&] { ratio_study(std::vector<double>{1, 0, 3}, s); }) == "avaliados");
  CHECK(field_of([&] { ratio_study(a, std::vector<double>{1, NAN, 3}); }) == "vendas");
  CHECK(field_of([&] { ratio_study(std::vector<double>{1, 2}, std::vector<double>{1, 2}); }) ==
        "dados");
  RatioStudyOptions o;
  o.level = 1;
  CHECK(field_of([&] { ratio_study(a, s, o); }) == "nivel");
  try {
    ratio_study(std::vector<double>{1, -2, 3}, s);
  } catch (const Error& e) {
    CHECK(e.code() == errc::invalid_argument);
    CHECK(std::string(e.what()).find("linha 2") != std::string::npos);
  }
  CHECK(normal_quantile(0.975) == doctest::Approx(1.959963985).epsilon(1e-9));
}
