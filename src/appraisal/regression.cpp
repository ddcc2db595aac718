// Multiple linear regression and NBR 14653-2 grades; see include/cadastre/appraisal.hpp.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "cadastre/appraisal.hpp"
#include "cadastre/error.hpp"

namespace cadastre::appraisal {

namespace {

std::string where(std::string_view variable, std::size_t row) {
  std::ostringstream os;
  os << "variável '" << variable << "'";
  if (row != 0) os << ", linha " << row;
  return os.str();
}

std::string num(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

// Continued fraction of the incomplete beta (modified Lentz).
double beta_cf(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double eps = 1e-15;
  double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < eps) return h;
  }
  throw Error(errc::internal, "função beta incompleta não convergiu");
}

Grade grade_of(const char* criterion, int g, std::string detail) {
  return Grade{g, criterion, std::move(detail)};
}

}  // namespace

std::string_view to_string(Transform t) noexcept {
  switch (t) {
    case Transform::none: return "x";
    case Transform::ln: return "ln(x)";
    case Transform::inverse: return "1/x";
    case Transform::square: return "x²";
    case Transform::sqrt: return "√x";
  }
  return "?";
}

double apply(Transform t, double v, std::string_view variable, std::size_t row) {
  if (!std::isfinite(v))
    throw Error(errc::invalid_argument,
                "valor não finito (NaN ou infinito) na " + where(variable, row),
                std::string(variable));
  double r = v;
  switch (t) {
    case Transform::none: break;
    case Transform::ln:
      if (v <= 0)
        throw Error(errc::invalid_argument,
                    "ln de valor ≤ 0 (" + num(v) + ") na " + where(variable, row),
                    std::string(variable));
      r = std::log(v);
      break;
    case Transform::inverse:
      if (v == 0)
        throw Error(errc::invalid_argument, "1/x de valor 0 na " + where(variable, row),
                    std::string(variable));
      r = 1 / v;
      break;
    case Transform::square: r = v * v; break;
    case Transform::sqrt:
      if (v < 0)
        throw Error(errc::invalid_argument,
                    "√x de valor negativo (" + num(v) + ") na " + where(variable, row),
                    std::string(variable));
      r = std::sqrt(v);
      break;
  }
  if (!std::isfinite(r))
    throw Error(errc::invalid_argument,
                "transformação " + std::string(to_string(t)) + " excede o intervalo de double na " +
                    where(variable, row),
                std::string(variable));
  return r;
}

double invert(Transform t, double v, std::string_view variable) {
  double r = v;
  switch (t) {
    case Transform::none: break;
    case Transform::ln: r = std::exp(v); break;
    case Transform::inverse:
      if (v == 0)
        throw Error(errc::unprocessable,
                    "estimativa 0 de 1/" + std::string(variable) + " não tem inversa",
                    std::string(variable));
      r = 1 / v;
      break;
    case Transform::square:
      if (v < 0)
        throw Error(errc::unprocessable,
                    "estimativa negativa (" + num(v) + ") de " + std::string(variable) +
                        "² não tem raiz real",
                    std::string(variable));
      r = std::sqrt(v);
      break;
    case Transform::sqrt: r = v * v; break;
  }
  if (!std::isfinite(r))
    throw Error(errc::unprocessable,
                "a inversa da transformação de " + std::string(variable) + " não é finita",
                std::string(variable));
  return r;
}

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
    throw Error(errc::invalid_argument, "incomplete_beta: parâmetros fora do domínio");
  if (x == 0) return 0;
  if (x == 1) return 1;
  double lbt = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
               b * std::log1p(-x);
  double bt = std::exp(lbt);
  if (x < (a + 1) / (a + b + 2)) return bt * beta_cf(a, b, x) / a;
  return 1 - bt * beta_cf(b, a, 1 - x) / b;
}

double t_two_sided_p(double t, double df) {
  if (!std::isfinite(t)) return 0;
  double x = df / (df + t * t);
  return incomplete_beta(df / 2, 0.5, x);
}

double f_upper_p(double f, double d1, double d2) {
  if (!(f > 0)) return 1;
  if (!std::isfinite(f)) return 0;
  double x = d2 / (d2 + d1 * f);
  return incomplete_beta(d2 / 2, d1 / 2, x);
}

double t_quantile(double prob, double df) {
  if (!(prob > 0 && prob < 1) || !(df > 0))
    throw Error(errc::invalid_argument, "t_quantile: probabilidade fora de (0, 1)");
  if (prob == 0.5) return 0;
  bool upper = prob > 0.5;
  double tail = upper ? 1 - prob : prob;  // one-sided tail, two-sided p = 2·tail
  double lo = 0, hi = 1;
  while (t_two_sided_p(hi, df) > 2 * tail) hi *= 2;
  for (int i = 0; i < 300 && hi - lo > 1e-15 * hi; ++i) {
    double mid = 0.5 * (lo + hi);
    if (t_two_sided_p(mid, df) > 2 * tail) lo = mid;
    else hi = mid;
  }
  double t = 0.5 * (lo + hi);
  return upper ? t : -t;
}

Fundamentacao grade_fundamentacao(std::size_t n, std::size_t k, double max_p, double f_p) {
  Fundamentacao f;
  std::size_t k1 = k + 1;
  {
    int g = n >= 6 * k1 ? 3 : n >= 4 * k1 ? 2 : n >= 3 * k1 ? 1 : 0;
    std::size_t lim = g == 3 ? 6 * k1 : g == 2 ? 4 * k1 : 3 * k1;
    std::string d = "n = " + std::to_string(n) + (g > 0 ? " ≥ " : " < ") +
                    std::to_string(g == 3 ? 6 : g == 2 ? 4 : 3) + "(k+1) = " +
                    std::to_string(lim);
    f.data_points = grade_of("dados", g, d);
  }
  {
    int g = max_p <= 0.10 ? 3 : max_p <= 0.20 ? 2 : max_p <= 0.30 ? 1 : 0;
    f.regressors = grade_of("regressores", g,
                            "maior p dos regressores = " + num(max_p) +
                                (g == 3 ? " ≤ 10%" : g == 2 ? " ≤ 20%" : g == 1 ? " ≤ 30%" : " > 30%"));
  }
  {
    int g = f_p <= 0.01 ? 3 : f_p <= 0.02 ? 2 : f_p <= 0.05 ? 1 : 0;
    f.model = grade_of("modelo_F", g,
                       "p de F = " + num(f_p) +
                           (g == 3 ? " ≤ 1%" : g == 2 ? " ≤ 2%" : g == 1 ? " ≤ 5%" : " > 5%"));
  }
  f.overall = f.data_points;
  if (f.regressors.grade < f.overall.grade) f.overall = f.regressors;
  if (f.model.grade < f.overall.grade) f.overall = f.model;
  return f;
}

Grade grade_precisao(double a) {
  int g = a <= 0.30 ? 3 : a <= 0.40 ? 2 : a <= 0.50 ? 1 : 0;
  return grade_of("amplitude_IC80", g,
                  "amplitude do IC 80% = " + num(a * 100) + "%" +
                      (g == 3 ? " ≤ 30%" : g == 2 ? " ≤ 40%" : g == 1 ? " ≤ 50%" : " > 50%"));
}

Regression fit(const Data& data) {
  const std::size_t k = data.regressors.size();
  const std::size_t n = data.dependent.values.size();
  const std::string& yname = data.dependent.name;
  if (k == 0)
    throw Error(errc::invalid_argument, "a regressão precisa de ao menos um regressor",
                "regressores");
  for (const auto& v : data.regressors)
    if (v.values.size() != n)
      throw Error(errc::invalid_argument,
                  "variável '" + v.name + "' tem " + std::to_string(v.values.size()) +
                      " valores; '" + yname + "' tem " + std::to_string(n),
                  v.name);
  if (n <= k + 1)
    throw Error(errc::unprocessable,
                "dados insuficientes: n = " + std::to_string(n) + " ≤ k+1 = " +
                    std::to_string(k + 1) + " (sem graus de liberdade para o resíduo)",
                "dados");
  const Eigen::Index p = static_cast<Eigen::Index>(k + 1), N = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd X(N, p);
  Eigen::VectorXd y(N);
  for (std::size_t i = 0; i < n; ++i) {
    const auto I = static_cast<Eigen::Index>(i);
    y(I) = apply(data.dependent.transform, data.dependent.values[i], yname, i + 1);
    X(I, 0) = 1;
    for (std::size_t j = 0; j < k; ++j) {
      const auto& v = data.regressors[j];
      X(I, static_cast<Eigen::Index>(j + 1)) = apply(v.transform, v.values[i], v.name, i + 1);
    }
  }
  // Columns scaled to unit norm: rank detection relative to comparable pivots.
  Eigen::VectorXd norms(p);
  for (Eigen::Index j = 0; j < p; ++j) {
    norms(j) = X.col(j).norm();
    if (!(norms(j) > 0) || !std::isfinite(norms(j)))
      throw Error(errc::unprocessable,
                  "regressor '" + data.regressors[static_cast<std::size_t>(j - 1)].name +
                      "' é nulo em todas as linhas (matriz singular)",
                  data.regressors[static_cast<std::size_t>(j - 1)].name);
  }
  Eigen::MatrixXd Xs = X * norms.cwiseInverse().asDiagonal();
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Xs);
  qr.setThreshold(1e-10);
  if (qr.rank() < p)
    throw Error(errc::unprocessable,
                "matriz de regressores singular (posto " + std::to_string(qr.rank()) + " < k+1 = " +
                    std::to_string(k + 1) +
                    "): regressores colineares, constantes ou repetidos",
                "regressores");
  Eigen::VectorXd bs = qr.solve(y);
  // One step of iterative refinement.
  Eigen::VectorXd r = y - Xs * bs;
  bs += qr.solve(r);
  Eigen::VectorXd b = bs.cwiseQuotient(norms);

  // (XsᵀXs)⁻¹ = P R⁻¹ R⁻ᵀ Pᵀ, then unscaled.
  Eigen::MatrixXd R = qr.matrixR().topLeftCorner(p, p).triangularView<Eigen::Upper>();
  Eigen::MatrixXd Rinv = R.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(p, p));
  Eigen::MatrixXd M = Rinv * Rinv.transpose();
  Eigen::MatrixXd C = qr.colsPermutation() * M * qr.colsPermutation().transpose();
  for (Eigen::Index i = 0; i < p; ++i)
    for (Eigen::Index j = 0; j < p; ++j) C(i, j) /= norms(i) * norms(j);

  Regression out;
  out.dependent = yname;
  out.dependent_transform = data.dependent.transform;
  out.n = n;
  out.k = k;
  Eigen::VectorXd fitted = X * b;
  Eigen::VectorXd e = y - fitted;
  const double df = static_cast<double>(n - k - 1);
  const double ybar = y.mean();
  out.sse = e.squaredNorm();
  const double sst = (y.array() - ybar).square().sum();
  out.ssr = sst - out.sse;
  if (!(sst > 0))
    throw Error(errc::unprocessable, "a variável dependente '" + yname + "' é constante",
                yname);
  out.r2 = 1 - out.sse / sst;
  out.adjusted_r2 = 1 - (1 - out.r2) * static_cast<double>(n - 1) / df;
  const double s2 = out.sse / df;
  out.residual_se = std::sqrt(s2);
  if (out.residual_se > 0) {
    out.f = (out.ssr / static_cast<double>(k)) / s2;
    out.f_p = f_upper_p(out.f, static_cast<double>(k), df);
  } else {
    // Perfect fit: F is infinite; report the largest double and p = 0.
    out.f = std::numeric_limits<double>::max();
    out.f_p = 0;
  }
  double max_p = 0;
  for (Eigen::Index j = 0; j < p; ++j) {
    Coefficient c;
    if (j == 0) {
      c.name = "intercepto";
    } else {
      const auto& v = data.regressors[static_cast<std::size_t>(j - 1)];
      c.name = v.name;
      c.transform = v.transform;
    }
    c.estimate = b(j);
    c.std_error = std::sqrt(std::max(0.0, s2 * C(j, j)));
    if (c.std_error > 0) {
      c.t = c.estimate / c.std_error;
      c.p = t_two_sided_p(c.t, df);
    } else {
      c.t = c.estimate == 0 ? 0 : std::copysign(std::numeric_limits<double>::max(), c.estimate);
      c.p = c.estimate == 0 ? 1 : 0;
    }
    if (j > 0) max_p = std::max(max_p, c.p);
    out.coefficients.push_back(std::move(c));
  }
  out.fitted.assign(fitted.data(), fitted.data() + N);
  out.residuals.assign(e.data(), e.data() + N);
  out.standardized_residuals.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    double z = out.residual_se > 0 ? out.residuals[i] / out.residual_se : 0;
    out.standardized_residuals[i] = z;
    if (std::fabs(z) > 2) out.outliers.push_back(i);
  }
  out.xtx_inverse.resize(static_cast<std::size_t>(p * p));
  for (Eigen::Index i = 0; i < p; ++i)
    for (Eigen::Index j = 0; j < p; ++j) out.xtx_inverse[static_cast<std::size_t>(i * p + j)] = C(i, j);
  out.fundamentacao = grade_fundamentacao(n, k, max_p, out.f_p);
  for (const auto& c : out.coefficients)
    if (!std::isfinite(c.estimate) || !std::isfinite(c.std_error))
      throw Error(errc::unprocessable, "regressão numericamente instável (mal condicionada)",
                  "regressores");
  return out;
}

Prediction predict(const Regression& m, std::span<const double> x, double level) {
  if (x.size() != m.k)
    throw Error(errc::invalid_argument,
                "o ponto tem " + std::to_string(x.size()) + " valores; o modelo tem " +
                    std::to_string(m.k) + " regressores",
                "x");
  if (!(level > 0 && level < 1))
    throw Error(errc::invalid_argument, "nível de confiança fora de (0, 1): " + num(level),
                "nivel");
  const std::size_t p = m.k + 1;
  std::vector<double> x0(p);
  x0[0] = 1;
  for (std::size_t j = 0; j < m.k; ++j)
    x0[j + 1] = apply(m.coefficients[j + 1].transform, x[j], m.coefficients[j + 1].name);
  double est = 0, q = 0;
  for (std::size_t i = 0; i < p; ++i) {
    est += x0[i] * m.coefficients[i].estimate;
    for (std::size_t j = 0; j < p; ++j) q += x0[i] * m.xtx_inverse[i * p + j] * x0[j];
  }
  q = std::max(q, 0.0);
  const double df = static_cast<double>(m.df());
  Prediction out;
  out.estimate_transformed = est;
  out.se_mean = m.residual_se * std::sqrt(q);
  out.se_prediction = m.residual_se * std::sqrt(1 + q);
  const double tq = t_quantile(0.5 + level / 2, df);
  out.confidence_transformed = {level, est - tq * out.se_mean, est + tq * out.se_mean};
  out.prediction_transformed = {level, est - tq * out.se_prediction, est + tq * out.se_prediction};
  auto back = [&](const Interval& iv) {
    double a = invert(m.dependent_transform, iv.lower, m.dependent);
    double b = invert(m.dependent_transform, iv.upper, m.dependent);
    if (a > b) std::swap(a, b);
    return Interval{iv.level, a, b};
  };
  out.estimate = invert(m.dependent_transform, est, m.dependent);
  out.confidence = back(out.confidence_transformed);
  out.prediction = back(out.prediction_transformed);
  const double t80 = t_quantile(0.90, df);
  out.confidence80 = back(Interval{0.80, est - t80 * out.se_mean, est + t80 * out.se_mean});
  if (out.estimate == 0)
    throw Error(errc::unprocessable,
                "estimativa 0: a amplitude relativa do IC 80% não é definida", m.dependent);
  out.amplitude80 = (out.confidence80.upper - out.confidence80.lower) / std::fabs(out.estimate);
  out.precisao = grade_precisao(out.amplitude80);
  return out;
}

}  // namespace cadastre::appraisal
