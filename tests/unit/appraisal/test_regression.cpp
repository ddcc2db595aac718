#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cadastre/appraisal.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::appraisal;
using doctest::Approx;

namespace {

void check_rel(double got, double want, double rel) {
  CHECK_MESSAGE(std::fabs(got - want) <= rel * std::fabs(want),
                "got " << got << " want " << want);
}

// NIST StRD, Longley (1967), https://www.itl.nist.gov/div898/strd/lls/data/Longley.shtml
// y = total employment; x1 GNP deflator, x2 GNP, x3 unemployed, x4 armed forces,
// x5 population, x6 year.
Data longley() {
  static const double rows[16][7] = {
      {60323, 83.0, 234289, 2356, 1590, 107608, 1947},
      {61122, 88.5, 259426, 2325, 1456, 108632, 1948},
      {60171, 88.2, 258054, 3682, 1616, 109773, 1949},
      {61187, 89.5, 284599, 3351, 1650, 110929, 1950},
      {63221, 96.2, 328975, 2099, 3099, 112075, 1951},
      {63639, 98.1, 346999, 1932, 3594, 113270, 1952},
      {64989, 99.0, 365385, 1870, 3547, 115094, 1953},
      {63761, 100.0, 363112, 3578, 3350, 116219, 1954},
      {66019, 101.2, 397469, 2904, 3048, 117388, 1955},
      {67857, 104.6, 419180, 2822, 2857, 118734, 1956},
      {68169, 108.4, 442769, 2936, 2798, 120445, 1957},
      {66513, 110.8, 444546, 4681, 2637, 121950, 1958},
      {68655, 112.6, 482704, 3813, 2552, 123366, 1959},
      {69564, 114.2, 502601, 3931, 2514, 125368, 1960},
      {69331, 115.7, 518173, 4806, 2572, 127852, 1961},
      {70551, 116.9, 554894, 4007, 2827, 130081, 1962},
  };
  Data d;
  d.dependent.name = "y";
  for (int j = 1; j <= 6; ++j) d.regressors.push_back({"x" + std::to_string(j), {}, {}});
  for (const auto& r : rows) {
    d.dependent.values.push_back(r[0]);
    for (int j = 1; j <= 6; ++j) d.regressors[static_cast<std::size_t>(j - 1)].values.push_back(r[j]);
  }
  return d;
}

// Tiny example checked by hand: x = 1..4, y = 1, 3, 2, 4.
// x̄ = ȳ = 2.5, Sxx = 5, Sxy = 4: b1 = 0.8, b0 = 0.5; fitted 1.3 2.1 2.9 3.7;
// residuals −0.3 0.9 −0.9 0.3; SSE = 1.8, SST = 5, df = 2, s² = 0.9.
Data tiny() {
  Data d;
  d.dependent = {"y", {1, 3, 2, 4}, Transform::none};
  d.regressors = {{"x", {1, 2, 3, 4}, Transform::none}};
  return d;
}

}  // namespace

TEST_CASE("Longley: NIST certified values to 1e-8 relative") {
  const Regression m = fit(longley());
  // Certified values (NIST StRD Longley.dat).
  const double b[7] = {-3482258.63459582, 15.0618722713733,  -0.358191792925910E-01,
                       -2.02022980381683, -1.03322686717359, -0.511041056535807E-01,
                       1829.15146461355};
  const double se[7] = {890420.383607373, 84.9149257747669,  0.334910077722432E-01,
                        0.488399681651699, 0.214274163161675, 0.226073200069370,
                        455.478499142212};
  REQUIRE(m.coefficients.size() == 7);
  CHECK(m.coefficients[0].name == "intercepto");
  CHECK(m.coefficients[6].name == "x6");
  for (std::size_t j = 0; j < 7; ++j) {
    CAPTURE(j);
    check_rel(m.coefficients[j].estimate, b[j], 1e-8);
    check_rel(m.coefficients[j].std_error, se[j], 1e-8);
    check_rel(m.coefficients[j].t, b[j] / se[j], 1e-8);
  }
  check_rel(m.residual_se, 304.854073561965, 1e-8);
  check_rel(m.r2, 0.995479004577296, 1e-8);
  check_rel(m.sse, 836424.055505915, 1e-8);
  check_rel(m.ssr, 184172401.944494, 1e-8);
  check_rel(m.f, 330.285339234588, 1e-8);
  // adj R² = 1 − (1 − R²)·15/9
  check_rel(m.adjusted_r2, 1 - (1 - 0.995479004577296) * 15.0 / 9.0, 1e-8);
  // Residuals as R's lm gives them (first and a few others).
  CHECK(m.residuals[0] == Approx(267.340029759711).epsilon(1e-8));
  CHECK(m.residuals[3] == Approx(-410.114621930906).epsilon(1e-8));
  CHECK(m.residuals[9] == Approx(455.394094551857).epsilon(1e-8));
  CHECK(m.df() == 9);
  // R summary(lm): F p-value 4.984e-10; x2 (GNP) p = 0.31 (t = −1.070).
  CHECK(m.f_p == Approx(4.984e-10).epsilon(1e-3));
  // Pr(>|t|) of R's summary(lm(y ~ ., longley_nist)), printed to 6 decimals.
  const double pr[7] = {0.003560, 0.863141, 0.312681, 0.002535, 0.000944, 0.826212, 0.003037};
  for (std::size_t j = 0; j < 7; ++j) CHECK(m.coefficients[j].p == Approx(pr[j]).epsilon(1e-6).scale(1));
  // No |e/s| > 2: the largest is 455.39 / 304.85 = 1.494.
  CHECK(m.outliers.empty());
  // n = 16 < 3(k+1) = 21: insufficient, decided by the data points (ties: first).
  CHECK(m.fundamentacao.overall.grade == 0);
  CHECK(m.fundamentacao.overall.criterion == "dados");
  CHECK(m.fundamentacao.model.grade == 3);
  CHECK(m.fundamentacao.regressors.grade == 0);
}

TEST_CASE("tiny regression checked by hand: t, p, F, intervals") {
  const Regression m = fit(tiny());
  REQUIRE(m.coefficients.size() == 2);
  CHECK(m.coefficients[0].estimate == Approx(0.5).epsilon(1e-12));
  CHECK(m.coefficients[1].estimate == Approx(0.8).epsilon(1e-12));
  // se(b1) = √(s²/Sxx) = √0.18; se(b0) = √(s²(1/n + x̄²/Sxx)) = √1.35
  CHECK(m.coefficients[1].std_error == Approx(std::sqrt(0.18)).epsilon(1e-12));
  CHECK(m.coefficients[0].std_error == Approx(std::sqrt(1.35)).epsilon(1e-12));
  CHECK(m.coefficients[1].t == Approx(0.8 / std::sqrt(0.18)).epsilon(1e-12));
  // t with 2 df: P(|T| ≥ t) = 1 − t/√(2 + t²). t² = 32/9 → p = 1 − √(32/50) = 0.2 exactly.
  CHECK(m.coefficients[1].p == Approx(0.2).epsilon(1e-12));
  // b0: t² = 5/27 → p = 1 − √(5/59)
  CHECK(m.coefficients[0].p == Approx(1 - std::sqrt(5.0 / 59.0)).epsilon(1e-12));
  CHECK(m.sse == Approx(1.8).epsilon(1e-12));
  CHECK(m.ssr == Approx(3.2).epsilon(1e-12));
  CHECK(m.r2 == Approx(0.64).epsilon(1e-12));
  CHECK(m.adjusted_r2 == Approx(0.46).epsilon(1e-12));
  CHECK(m.residual_se == Approx(std::sqrt(0.9)).epsilon(1e-12));
  // F = (3.2/1)/0.9 = 32/9 = t²; F(1, 2) p = the t p = 0.2
  CHECK(m.f == Approx(32.0 / 9.0).epsilon(1e-12));
  CHECK(m.f_p == Approx(0.2).epsilon(1e-12));
  const double res[4] = {-0.3, 0.9, -0.9, 0.3};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(m.residuals[i] == Approx(res[i]).epsilon(1e-12));
    CHECK(m.standardized_residuals[i] == Approx(res[i] / std::sqrt(0.9)).epsilon(1e-12));
  }
  CHECK(m.outliers.empty());

  // At x0 = 2.5 (= x̄): estimate 2.5, se_mean = √(s²/4) = √0.225, se_pred = √1.125.
  // t(0.90; 2): 1/2 + t/(2√(2+t²)) = 0.9 → t² = 32/9, t = 1.885618.
  // 80% CI: 2.5 ± √(32/9 · 0.225) = 2.5 ± √0.8; 80% PI: 2.5 ± √(32/9 · 1.125) = 2.5 ± 2.
  const double x0[1] = {2.5};
  const Prediction p = predict(m, x0);
  CHECK(p.estimate == Approx(2.5).epsilon(1e-12));
  CHECK(p.se_mean == Approx(std::sqrt(0.225)).epsilon(1e-12));
  CHECK(p.se_prediction == Approx(std::sqrt(1.125)).epsilon(1e-12));
  CHECK(p.confidence.level == 0.80);
  CHECK(p.confidence.lower == Approx(2.5 - std::sqrt(0.8)).epsilon(1e-10));
  CHECK(p.confidence.upper == Approx(2.5 + std::sqrt(0.8)).epsilon(1e-10));
  CHECK(p.prediction.lower == Approx(0.5).epsilon(1e-10));
  CHECK(p.prediction.upper == Approx(4.5).epsilon(1e-10));
  // Amplitude 2√0.8 / 2.5 = 71.55% > 50%: precisão insufficient.
  CHECK(p.amplitude80 == Approx(2 * std::sqrt(0.8) / 2.5).epsilon(1e-10));
  CHECK(p.precisao.grade == 0);
  CHECK(p.precisao.criterion == "amplitude_IC80");

  // 95%: t(0.975; 2) = 4.30265272974946 (tables); half-width t·√0.225.
  const Prediction p95 = predict(m, x0, 0.95);
  CHECK(p95.confidence.upper - 2.5 == Approx(4.30265272974946 * std::sqrt(0.225)).epsilon(1e-9));
  CHECK(p95.confidence80.upper == Approx(2.5 + std::sqrt(0.8)).epsilon(1e-10));

  // At x0 = 5: 0.5 + 4 = 4.5; x0ᵀ(XᵀX)⁻¹x0 = 1/4 + (5 − 2.5)²/5 = 1.5
  const double x5[1] = {5};
  const Prediction q = predict(m, x5);
  CHECK(q.estimate == Approx(4.5).epsilon(1e-12));
  CHECK(q.se_mean == Approx(std::sqrt(0.9 * 1.5)).epsilon(1e-12));
}

TEST_CASE("distributions") {
  // t with 1 df is Cauchy: P(|T| ≥ 1) = 0.5
  CHECK(t_two_sided_p(1.0, 1) == Approx(0.5).epsilon(1e-12));
  // Known quantiles: t(0.975; 10) = 2.228138851986, t(0.90; 9) = 1.383028738
  CHECK(t_quantile(0.975, 10) == Approx(2.228138851986).epsilon(1e-10));
  CHECK(t_quantile(0.90, 9) == Approx(1.383028738).epsilon(1e-8));
  CHECK(t_quantile(0.10, 9) == Approx(-1.383028738).epsilon(1e-8));
  // F(2, 2): P(F ≥ f) = 1/(1 + f)
  CHECK(f_upper_p(3.0, 2, 2) == Approx(0.25).epsilon(1e-12));
  // I_x(1, 1) = x; I_x(a, 1) = x^a
  CHECK(incomplete_beta(1, 1, 0.3) == Approx(0.3).epsilon(1e-12));
  CHECK(incomplete_beta(2.5, 1, 0.4) == Approx(std::pow(0.4, 2.5)).epsilon(1e-12));
}

TEST_CASE("transforms, back-transform of ln(y)") {
  CHECK(apply(Transform::ln, std::exp(2.0)) == Approx(2.0));
  CHECK(apply(Transform::inverse, 4) == 0.25);
  CHECK(apply(Transform::square, -3) == 9);
  CHECK(apply(Transform::sqrt, 9) == 3);
  CHECK(to_string(Transform::inverse) == "1/x");

  Data d;
  d.dependent = {"preco", {}, Transform::ln};
  d.regressors = {{"area", {1, std::sqrt(2.0), std::sqrt(3.0), 2}, Transform::square}};
  // ln(y) = 1, 3, 2, 4 against x² = 1, 2, 3, 4 → same as tiny(): b0 = 0.5, b1 = 0.8.
  for (double v : {1.0, 3.0, 2.0, 4.0}) d.dependent.values.push_back(std::exp(v));
  const Regression m = fit(d);
  CHECK(m.coefficients[1].name == "area");
  CHECK(m.coefficients[1].transform == Transform::square);
  CHECK(m.coefficients[1].estimate == Approx(0.8).epsilon(1e-12));
  const double x0[1] = {std::sqrt(2.5)};
  const Prediction p = predict(m, x0);
  CHECK(p.estimate_transformed == Approx(2.5).epsilon(1e-12));
  CHECK(p.estimate == Approx(std::exp(2.5)).epsilon(1e-12));  // exp of the prediction
  CHECK(p.confidence.lower == Approx(std::exp(2.5 - std::sqrt(0.8))).epsilon(1e-10));
  CHECK(p.confidence.upper == Approx(std::exp(2.5 + std::sqrt(0.8))).epsilon(1e-10));
  CHECK(p.amplitude80 ==
        Approx((std::exp(2.5 + std::sqrt(0.8)) - std::exp(2.5 - std::sqrt(0.8))) / std::exp(2.5))
            .epsilon(1e-10));

  // 1/y: decreasing inverse, limits swapped so lower ≤ upper.
  Data inv = tiny();
  inv.dependent.transform = Transform::inverse;
  for (auto& v : inv.dependent.values) v = 1 / v;  // 1/y = 1, 3, 2, 4
  const Prediction pi = predict(fit(inv), std::vector<double>{2.5});
  CHECK(pi.estimate == Approx(1 / 2.5));
  CHECK(pi.prediction.lower == Approx(1 / 4.5).epsilon(1e-10));
  CHECK(pi.prediction.upper == Approx(1 / 0.5).epsilon(1e-10));
}

TEST_CASE("transform domain errors name the variable and the row") {
  auto msg = [](auto fn) {
    try {
      fn();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  Data d = tiny();
  d.regressors[0].transform = Transform::ln;
  d.regressors[0].values[2] = 0;
  expect_error([&] { fit(d); }, errc::invalid_argument, "x");
  CHECK(msg([&] { fit(d); }).find("linha 3") != std::string::npos);

  d = tiny();
  d.regressors[0].transform = Transform::inverse;
  d.regressors[0].values[1] = 0;
  expect_error([&] { fit(d); }, errc::invalid_argument, "x");
  CHECK(msg([&] { fit(d); }).find("linha 2") != std::string::npos);

  d = tiny();
  d.dependent.transform = Transform::sqrt;
  d.dependent.values[3] = -1;
  expect_error([&] { fit(d); }, errc::invalid_argument, "y");
  CHECK(msg([&] { fit(d); }).find("linha 4") != std::string::npos);

  d = tiny();
  d.dependent.values[0] = std::nan("");
  expect_error([&] { fit(d); }, errc::invalid_argument, "y");
  d = tiny();
  d.regressors[0].values[0] = INFINITY;
  expect_error([&] { fit(d); }, errc::invalid_argument, "x");

  // Prediction point outside the domain.
  d = tiny();
  d.regressors[0].transform = Transform::ln;
  const Regression m = fit(d);
  expect_error([&] { predict(m, std::vector<double>{-1}); }, errc::invalid_argument, "x");
  expect_error([&] { predict(m, std::vector<double>{1, 2}); }, errc::invalid_argument, "x");
  expect_error([&] { predict(m, std::vector<double>{1}, 1.0); }, errc::invalid_argument, "nivel");
}

TEST_CASE("singular design and too few data are errors") {
  Data d = tiny();
  d.regressors.push_back({"x_dobro", {2, 4, 6, 8}, Transform::none});
  d.dependent.values.push_back(5);
  for (auto& r : d.regressors) r.values.push_back(r.name == "x" ? 5 : 10);
  expect_error([&] { fit(d); }, errc::unprocessable, "regressores");

  Data c = tiny();
  c.regressors[0].values = {3, 3, 3, 3};  // constant: collinear with the intercept
  expect_error([&] { fit(c); }, errc::unprocessable, "regressores");

  Data two;
  two.dependent = {"y", {1, 2}, Transform::none};
  two.regressors = {{"x", {1, 2}, Transform::none}};
  expect_error([&] { fit(two); }, errc::unprocessable, "dados");

  Data mismatch = tiny();
  mismatch.regressors[0].values.pop_back();
  expect_error([&] { fit(mismatch); }, errc::invalid_argument, "x");

  Data none = tiny();
  none.regressors.clear();
  expect_error([&] { fit(none); }, errc::invalid_argument, "regressores");
}

TEST_CASE("NBR 14653-2 grades with the deciding criterion") {
  // Thresholds: n vs 3/4/6 (k+1); max p ≤ 30/20/10%; F p ≤ 5/2/1%.
  auto g = grade_fundamentacao(12, 1, 0.05, 0.001);
  CHECK(g.overall.grade == 3);
  CHECK(g.data_points.grade == 3);
  g = grade_fundamentacao(11, 1, 0.05, 0.001);  // 8 ≤ 11 < 12
  CHECK(g.overall.grade == 2);
  CHECK(g.overall.criterion == "dados");
  g = grade_fundamentacao(30, 2, 0.25, 0.001);
  CHECK(g.overall.grade == 1);
  CHECK(g.overall.criterion == "regressores");
  g = grade_fundamentacao(30, 2, 0.15, 0.015);
  CHECK(g.overall.grade == 2);
  CHECK(g.overall.criterion == "regressores");  // tie: the first criterion that is weakest
  g = grade_fundamentacao(30, 2, 0.05, 0.03);
  CHECK(g.overall.grade == 1);
  CHECK(g.overall.criterion == "modelo_F");
  g = grade_fundamentacao(30, 2, 0.05, 0.06);
  CHECK(g.overall.grade == 0);
  CHECK(g.overall.criterion == "modelo_F");
  CHECK(grade_fundamentacao(8, 2, 0.05, 0.001).overall.grade == 0);  // 8 < 3·3

  CHECK(grade_precisao(0.30).grade == 3);
  CHECK(grade_precisao(0.35).grade == 2);
  CHECK(grade_precisao(0.45).grade == 1);
  CHECK(grade_precisao(0.51).grade == 0);

  // A fitted model: y = 2 + 3x + (−1)^i · 0.5 for x = 1..8, n = 8 = 4(k+1): grade II,
  // decided by the data points (p of x and of F are tiny: grade III).
  Data d;
  d.dependent.name = "valor";
  d.regressors = {{"area", {}, Transform::none}};
  for (int i = 1; i <= 8; ++i) {
    d.regressors[0].values.push_back(i);
    d.dependent.values.push_back(2 + 3 * i + (i % 2 ? 0.5 : -0.5));
  }
  const Regression m = fit(d);
  CHECK(m.fundamentacao.overall.grade == 2);
  CHECK(m.fundamentacao.overall.criterion == "dados");
  CHECK(m.fundamentacao.overall.detail == "n = 8 ≥ 4(k+1) = 8");
  CHECK(m.fundamentacao.regressors.grade == 3);
  CHECK(m.fundamentacao.model.grade == 3);
  // At x = 4.5 (mean) the 80% CI is narrow: precisão III.
  const Prediction p = predict(m, std::vector<double>{4.5});
  CHECK(p.estimate == Approx(2 + 3 * 4.5).epsilon(1e-9));
  CHECK(p.precisao.grade == 3);
}

TEST_CASE("an outlier beyond ±2 standardised residuals") {
  Data d;
  d.dependent.name = "y";
  d.regressors = {{"x", {}, Transform::none}};
  for (int i = 1; i <= 12; ++i) {
    d.regressors[0].values.push_back(i);
    d.dependent.values.push_back(10 + 2 * i + (i % 2 ? 0.3 : -0.3) + (i == 6 ? 8 : 0));
  }
  const Regression m = fit(d);
  REQUIRE(m.outliers.size() == 1);
  CHECK(m.outliers[0] == 5);
  CHECK(std::fabs(m.standardized_residuals[5]) > 2);
}
