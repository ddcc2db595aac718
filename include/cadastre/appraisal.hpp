// Mass appraisal (avaliação em massa): multiple linear regression with an intercept and
// the NBR 14653-2 grades of fundamentação and precisão. Pure functions: no database, no I/O.
//
//   T(y) = b0 + b1·T1(x1) + … + bk·Tk(xk) + e,   fitted by least squares (QR, Eigen)
//
// Transforms (on the dependent variable and on each regressor): none, ln, 1/x, x², √x.
// A value outside a transform's domain (ln of ≤ 0, 1/0, √ of < 0), a NaN/Inf input, a
// design of rank < k+1 (collinear or constant regressors) or n ≤ k+1 throw cadastre::Error
// (messages in Portuguese; rows are numbered from 1 in the message). `field` is the
// variable's name for a bad value, "regressores" for a singular design (invalid_argument
// when there is no regressor), "dados" for n ≤ k+1 (both unprocessable). A result never
// holds NaN.
//
// Statistics: coefficients, standard errors, t and two-sided p values (Student t, n−k−1
// degrees of freedom), F and its p value (F(k, n−k−1)), R², adjusted R², residual standard
// error s, residuals e_i, standardised residuals e_i / s, and outliers (|e_i / s| > 2).
// The distribution functions use a regularized incomplete beta function written here
// (continued fraction, modified Lentz), quantiles by bisection on the CDF.
//
// Prediction at a new point: the estimate on the transformed scale T(y), the confidence
// interval of the mean and the prediction interval of a new observation, at a level given
// (default 80%, the level NBR 14653-2 uses). When y was transformed, each of the estimate
// and the interval limits is back-transformed by the inverse transform (exp for ln(y), 1/v
// for 1/y, √v for y², v² for √y): the back-transformed estimate is the median (not the
// mean) of y given x; no bias correction is applied. Limits of a decreasing inverse (1/y)
// are swapped so that lower ≤ upper.
//
// NBR 14653-2 grades (simplified to the criteria below; 0 = below grade I, "insuficiente"):
//   fundamentação  III        II         I
//     data points  n ≥ 6(k+1)  n ≥ 4(k+1)  n ≥ 3(k+1)
//     regressors   max p ≤ 10% ≤ 20%      ≤ 30%   (two-sided t test of each regressor)
//     model F      p ≤ 1%      ≤ 2%       ≤ 5%
//   precisão: amplitude of the 80% confidence interval of the mean, (upper − lower) /
//     estimate in the original scale of y: ≤ 30% III, ≤ 40% II, ≤ 50% I.
// The grade is the weakest criterion's, and that criterion is named (ties: the first in
// the order above).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::appraisal {

/// Transform of a variable.
enum class Transform {
  none,     ///< x
  ln,       ///< ln x, x > 0
  inverse,  ///< 1/x, x ≠ 0
  square,   ///< x²
  sqrt,     ///< √x, x ≥ 0
};

/// "x", "ln(x)", "1/x", "x²", "√x" — the transform's formula with `x` as the variable.
std::string_view to_string(Transform t) noexcept;

/// The transform applied to `value`. Throws cadastre::Error (invalid_argument, field =
/// `variable`) outside the domain or for NaN/Inf; `row` (from 1) is named in the message
/// when nonzero.
double apply(Transform t, double value, std::string_view variable = "x", std::size_t row = 0);

/// The inverse transform (exp, 1/v, √v, v²). Throws cadastre::Error (unprocessable) when
/// the value has no inverse (√ of a negative for x², 1/0, overflow of exp).
double invert(Transform t, double value, std::string_view variable = "y");

/// A named variable with its observations (original scale) and its transform.
struct Variable {
  std::string name;
  std::vector<double> values;
  Transform transform = Transform::none;
};

/// The data of a regression: the dependent variable and k ≥ 1 regressors, all of n values.
struct Data {
  Variable dependent;
  std::vector<Variable> regressors;
};

/// One coefficient. The intercept is called "intercepto".
struct Coefficient {
  std::string name;
  Transform transform = Transform::none;
  double estimate = 0;
  double std_error = 0;
  double t = 0;
  double p = 0;  ///< two-sided p value of H0: coefficient = 0
};

/// A grade with the criterion that decided it.
struct Grade {
  int grade = 0;          ///< 3, 2, 1 (graus III, II, I) or 0 (insuficiente)
  std::string criterion;  ///< "dados", "regressores", "modelo_F" or "amplitude_IC80"
  std::string detail;     ///< e.g. "n = 16 < 3(k+1) = 21"
};

/// Grade of each fundamentação criterion and the overall one.
struct Fundamentacao {
  Grade overall;      ///< the weakest of the three
  Grade data_points;  ///< "dados": n against 3/4/6 (k+1)
  Grade regressors;   ///< "regressores": max p of the regressors against 30/20/10%
  Grade model;        ///< "modelo_F": p of F against 5/2/1%
};

/// Fundamentação grade from its criteria (n observations, k regressors).
Fundamentacao grade_fundamentacao(std::size_t n, std::size_t k, double max_regressor_p,
                                  double f_p);
/// Precisão grade from the relative amplitude of the 80% confidence interval (0.35 = 35%).
Grade grade_precisao(double amplitude);

/// A fitted model.
struct Regression {
  std::string dependent;  ///< name of y
  Transform dependent_transform = Transform::none;
  std::size_t n = 0;  ///< observations
  std::size_t k = 0;  ///< regressors (without the intercept)
  std::vector<Coefficient> coefficients;  ///< intercept first, then the regressors in order
  double r2 = 0;
  double adjusted_r2 = 0;
  double residual_se = 0;  ///< s = √(SSE / (n−k−1))
  double sse = 0;          ///< residual sum of squares
  double ssr = 0;          ///< regression sum of squares
  double f = 0;            ///< (SSR/k) / (SSE/(n−k−1))
  double f_p = 0;          ///< upper-tail p value of F(k, n−k−1)
  std::vector<double> fitted;                  ///< on the transformed scale of y
  std::vector<double> residuals;               ///< T(y) − fitted
  std::vector<double> standardized_residuals;  ///< residual / s
  std::vector<std::size_t> outliers;           ///< 0-based rows with |standardised| > 2
  /// (XᵀX)⁻¹, (k+1)×(k+1) row-major, columns as `coefficients`; covariance = s² × this.
  std::vector<double> xtx_inverse;
  Fundamentacao fundamentacao;

  /// Degrees of freedom of the residuals, n − k − 1.
  std::size_t df() const noexcept { return n - k - 1; }
};

/// Fits the model. Throws cadastre::Error as described above.
Regression fit(const Data& data);

/// An interval with its level (e.g. 0.80).
struct Interval {
  double level = 0;
  double lower = 0;
  double upper = 0;
};

/// A prediction at a new point.
struct Prediction {
  double estimate_transformed = 0;  ///< x0ᵀb, on the scale of T(y)
  double se_mean = 0;               ///< s √(x0ᵀ(XᵀX)⁻¹x0)
  double se_prediction = 0;         ///< s √(1 + x0ᵀ(XᵀX)⁻¹x0)
  Interval confidence_transformed;  ///< of the mean, scale of T(y)
  Interval prediction_transformed;  ///< of a new observation, scale of T(y)
  double estimate = 0;              ///< back-transformed to the scale of y
  Interval confidence;              ///< back-transformed
  Interval prediction;              ///< back-transformed
  Interval confidence80;            ///< 80% confidence interval, scale of y
  double amplitude80 = 0;           ///< (confidence80.upper − lower) / estimate
  Grade precisao;                   ///< from amplitude80
};

/// Prediction at `x` (original scale of each regressor, in the order of the fit; the
/// regressor transforms are applied). `level` in (0, 1), default 0.80.
Prediction predict(const Regression& model, std::span<const double> x, double level = 0.80);

// ------------------------------------------------------------------ ratio study

// IAAO Standard on Ratio Studies (2013): how well assessed values match sale prices.
// With r_i = A_i / S_i (assessed / sale price), n ≥ 3 pairs:
//   median ratio  the median of r (mean of the two middle ones for even n)
//   mean          Σ r_i / n
//   weighted mean Σ A_i / Σ S_i
//   COD           100 · (Σ |r_i − median| / n) / median          (coefficient of dispersion)
//   PRD           mean / weighted mean                          (price-related differential)
//   PRB           the slope β1 of the least-squares line
//                   (r_i − median) / median = β0 + β1 · log2(V_i),
//                 V_i = ½ · A_i / median + ½ · S_i (the value proxy: half the sale price,
//                 half the assessed value indicated by the median ratio) — Appendix B of
//                 the Standard (price-related bias); its t-based confidence interval too.
//   median CI     distribution-free, by order statistics (Gardner & Altman, Statistics
//                 with Confidence, ch. 8, the method of the Standard's Appendix B):
//                 ranks j = round(n/2 − z·√n/2) and k = round(1 + n/2 + z·√n/2),
//                 clamped to [1, n], z the normal quantile of the level.
// Thresholds (Standard, Tables 1-3 and §9): median 0.90–1.10; COD ≤ 15.0, the limit for
// residential improved property in older or more heterogeneous areas (single-family in
// newer/homogeneous areas: 10.0; income property 15.0/20.0; vacant land and rural 25.0 —
// set RatioStudyOptions::cod_max); PRD 0.98–1.03; PRB −0.05 to 0.05.
// Errors (cadastre::Error): sizes differ → invalid_argument "vendas"; a value not finite or
// ≤ 0 → invalid_argument "avaliados" / "vendas" naming the row (from 1); n < 3 →
// unprocessable "dados"; level outside (0, 1) → invalid_argument "nivel".

/// Limits of the ratio study; defaults are the Standard's for residential property.
struct RatioStudyOptions {
  double level = 0.95;          ///< of the median's and the PRB's confidence intervals
  double median_lower = 0.90;
  double median_upper = 1.10;
  double cod_max = 15.0;        ///< residential, older or heterogeneous areas
  double prd_lower = 0.98;
  double prd_upper = 1.03;
  double prb_limit = 0.05;      ///< |PRB| ≤ this
};

/// A statistic with its acceptable range and the verdict.
struct RatioCheck {
  double value = 0;
  double lower = 0;  ///< acceptable range (COD: lower 0)
  double upper = 0;
  bool pass = false;  ///< lower ≤ value ≤ upper
};

struct RatioStudy {
  std::size_t n = 0;
  std::vector<double> ratios;  ///< A_i / S_i, in the input order
  double mean = 0;
  double weighted_mean = 0;
  RatioCheck median;
  Interval median_ci;  ///< order-statistic interval (level = the nominal level asked)
  std::size_t median_ci_lower_rank = 0;  ///< j, 1-based rank in ascending order
  std::size_t median_ci_upper_rank = 0;  ///< k
  RatioCheck cod;
  RatioCheck prd;
  RatioCheck prb;
  Interval prb_ci;     ///< β1 ± t(n−2) · se(β1)
  double prb_p = 0;    ///< two-sided p value of β1 = 0
  bool pass = false;   ///< all four checks pass
};

/// The ratio study of assessed values against sale prices (same order, same length).
RatioStudy ratio_study(std::span<const double> assessed, std::span<const double> sale_prices,
                       const RatioStudyOptions& options = {});

// ------------------------------------------------------------------ distributions

/// Regularized incomplete beta I_x(a, b), a, b > 0, x in [0, 1].
double incomplete_beta(double a, double b, double x);
/// Two-sided p value of t with df degrees of freedom: P(|T| ≥ |t|).
double t_two_sided_p(double t, double df);
/// Upper-tail p value of F with (d1, d2) degrees of freedom: P(F ≥ f).
double f_upper_p(double f, double d1, double d2);
/// Quantile of Student t: the t with P(T ≤ t) = prob, prob in (0, 1).
double t_quantile(double prob, double df);
/// Quantile of the standard normal distribution, prob in (0, 1).
double normal_quantile(double prob);

}  // namespace cadastre::appraisal
