// Geostatistics: samples, experimental variogram, models and their fit; kriging is in
// kriging.cpp, the neighbour search in neighbours.cpp. See include/cadastre/geostat.hpp.
#include "cadastre/geostat.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include "cadastre/geom.hpp"
#include "geostat/util.hpp"

namespace cadastre::geostat {
using detail::bad;
using detail::num;

namespace {

constexpr double pi = 3.14159265358979323846;

bool usable(const Bin& b) { return b.np > 0 && b.dist > 0 && std::isfinite(b.gamma); }

// Structure function f(h/a) in [0, 1] and its derivative with respect to a.
struct Eval {
  double f;
  double df_da;
};

Eval structure(ModelType t, double h, double a) {
  if (h <= 0) return {0, 0};
  switch (t) {
    case ModelType::spherical: {
      if (h >= a) return {1, 0};
      double r = h / a;
      return {1.5 * r - 0.5 * r * r * r, (-1.5 * h / (a * a)) + 1.5 * h * h * h / (a * a * a * a)};
    }
    case ModelType::exponential: {
      double e = std::exp(-h / a);
      return {1 - e, -e * h / (a * a)};
    }
    case ModelType::gaussian: {
      double r = h / a;
      double e = std::exp(-r * r);
      return {1 - e, -e * 2 * h * h / (a * a * a)};
    }
  }
  return {0, 0};
}

}  // namespace

// ------------------------------------------------------------------ samples

ProjectedSamples project_to_utm(std::span<const Sample> lonlat, int from_epsg) {
  if (lonlat.empty()) bad("nenhuma amostra para projetar", "amostras");
  double sx = 0, sy = 0;
  for (const auto& s : lonlat) {
    if (!std::isfinite(s.x) || !std::isfinite(s.y)) bad("coordenada não finita", "amostras");
    sx += s.x;
    sy += s.y;
  }
  const double n = static_cast<double>(lonlat.size());
  ProjectedSamples out;
  out.epsg = geom::utm_epsg_for(sx / n, sy / n);
  out.samples.reserve(lonlat.size());
  for (const auto& s : lonlat) {
    geom::Point p = geom::transform(geom::Point{s.x, s.y}, from_epsg, out.epsg);
    out.samples.push_back({p.x, p.y, s.value});
  }
  return out;
}

std::vector<Sample> handle_duplicates(std::span<const Sample> samples, Duplicates policy,
                                      double tolerance) {
  if (!(tolerance >= 0) || !std::isfinite(tolerance))
    bad("tolerância de duplicatas deve ser ≥ 0", "tolerancia");
  const std::size_t n = samples.size();
  // union-find over pairs within tolerance, scanning in x order
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return samples[a].x < samples[b].x; });
  bool any = false;
  const double tol2 = tolerance * tolerance;
  for (std::size_t a = 0; a < n; ++a) {
    const Sample& p = samples[order[a]];
    for (std::size_t b = a + 1; b < n && samples[order[b]].x - p.x <= tolerance; ++b) {
      const Sample& q = samples[order[b]];
      double dx = q.x - p.x, dy = q.y - p.y;
      if (dx * dx + dy * dy <= tol2) {
        std::size_t ra = find(order[a]), rb = find(order[b]);
        if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
        any = true;
      }
    }
  }
  if (!any) return {samples.begin(), samples.end()};
  // groups keyed by root (the smallest index of the group)
  std::vector<std::vector<std::size_t>> groups(n);
  for (std::size_t i = 0; i < n; ++i) groups[find(i)].push_back(i);
  if (policy == Duplicates::refuse) {
    std::string msg = "amostras duplicadas (mesmo local, tolerância " + num(tolerance) + " m):";
    int shown = 0;
    std::size_t total = 0;
    for (const auto& g : groups) {
      if (g.size() < 2) continue;
      ++total;
      if (shown++ >= 10) continue;
      msg += " [";
      for (std::size_t k = 0; k < g.size(); ++k) msg += (k ? ", #" : "#") + std::to_string(g[k]);
      msg += " em (" + num(samples[g[0]].x) + ", " + num(samples[g[0]].y) + ")]";
    }
    if (total > 10) msg += " e mais " + std::to_string(total - 10) + " grupos";
    throw Error(errc::unprocessable, msg, "amostras");
  }
  std::vector<Sample> out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& g = groups[i];
    if (g.empty()) continue;
    Sample m{0, 0, 0};
    for (std::size_t k : g) {
      m.x += samples[k].x;
      m.y += samples[k].y;
      m.value += samples[k].value;
    }
    const double c = static_cast<double>(g.size());
    out.push_back({m.x / c, m.y / c, m.value / c});
  }
  return out;
}

// ------------------------------------------------------------------ experimental variogram

std::vector<Bin> experimental_variogram(std::span<const Sample> samples,
                                        const VariogramOptions& o) {
  if (samples.size() < 2) bad("o variograma exige ao menos 2 amostras", "amostras");
  double cutoff;
  if (o.cutoff) {
    cutoff = *o.cutoff;
  } else {
    double x0 = samples[0].x, x1 = x0, y0 = samples[0].y, y1 = y0;
    for (const auto& s : samples) {
      x0 = std::min(x0, s.x);
      x1 = std::max(x1, s.x);
      y0 = std::min(y0, s.y);
      y1 = std::max(y1, s.y);
    }
    cutoff = std::hypot(x1 - x0, y1 - y0) / 3.0;
  }
  if (!(cutoff > 0) || !std::isfinite(cutoff)) bad("cutoff deve ser > 0", "cutoff");
  if (!o.lag_width && o.n_lags == 0) bad("número de classes deve ser > 0", "n_lags");
  const double width = o.lag_width ? *o.lag_width : cutoff / static_cast<double>(o.n_lags);
  if (!(width > 0) || !std::isfinite(width)) bad("largura da classe deve ser > 0", "lag_width");
  auto nb = static_cast<std::size_t>(std::ceil(cutoff / width - 1e-12));
  nb = std::max<std::size_t>(nb, 1);
  double alpha = 0, tol = 90;
  if (o.direction_deg) {
    if (!(o.tolerance_deg > 0 && o.tolerance_deg <= 90))
      bad("tolerância angular deve estar em (0, 90]", "tolerance_deg");
    alpha = std::fmod(*o.direction_deg, 180.0);
    if (alpha < 0) alpha += 180;
    tol = o.tolerance_deg;
  }
  std::vector<double> sum_g(nb, 0), sum_d(nb, 0);
  std::vector<std::size_t> np(nb, 0);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    for (std::size_t j = i + 1; j < samples.size(); ++j) {
      double dx = samples[j].x - samples[i].x, dy = samples[j].y - samples[i].y;
      double h = std::hypot(dx, dy);
      if (h > cutoff) continue;
      if (o.direction_deg && h > 0 && tol < 90) {
        double th = std::atan2(dx, dy) * 180.0 / pi;  // clockwise from north
        th = std::fmod(th, 180.0);
        if (th < 0) th += 180;
        double d = std::fabs(th - alpha);
        d = std::min(d, 180 - d);
        if (d > tol + 1e-12) continue;
      }
      std::size_t k = h <= 0 ? 0 : static_cast<std::size_t>(std::ceil(h / width - 1e-12)) - 1;
      if (k >= nb) k = nb - 1;
      double dz = samples[j].value - samples[i].value;
      sum_g[k] += dz * dz;
      sum_d[k] += h;
      ++np[k];
    }
  }
  std::vector<Bin> out;
  for (std::size_t k = 0; k < nb; ++k) {
    if (np[k] == 0) continue;
    const double c = static_cast<double>(np[k]);
    out.push_back({static_cast<double>(k) * width,
                   std::min(static_cast<double>(k + 1) * width, cutoff), np[k], sum_d[k] / c,
                   sum_g[k] / (2 * c)});
  }
  return out;
}

// ------------------------------------------------------------------ models

double Model::gamma(double h) const {
  if (h <= 0) return 0;
  return nugget + psill * structure(type, h, range).f;
}

double Model::covariance(double h) const { return sill() - gamma(h); }

void validate(const Model& m) {
  if (!(m.nugget >= 0) || !std::isfinite(m.nugget)) bad("pepita deve ser ≥ 0", "pepita");
  if (!(m.psill >= 0) || !std::isfinite(m.psill)) bad("contribuição deve ser ≥ 0", "contribuicao");
  if (!(m.range > 0) || !std::isfinite(m.range)) bad("alcance deve ser > 0", "alcance");
}

Model initial_model(std::span<const Bin> bins, ModelType type) {
  double first = -1, gmax = 0, dmax = 0;
  for (const auto& b : bins) {
    if (!usable(b)) continue;
    if (first < 0) first = b.gamma;
    gmax = std::max(gmax, b.gamma);
    dmax = std::max(dmax, b.dist);
  }
  if (first < 0) bad("variograma experimental vazio", "variograma");
  Model m;
  m.type = type;
  m.nugget = 0.5 * first;
  m.psill = std::max(gmax - m.nugget, gmax / 10);
  m.range = dmax / 3;
  return m;
}

FitResult fit_variogram(std::span<const Bin> bins, ModelType type, std::optional<Model> start,
                        const FitOptions& opt) {
  std::vector<Bin> use;
  for (const auto& b : bins)
    if (usable(b)) use.push_back(b);
  if (use.size() < 3) bad("o ajuste exige ao menos 3 classes com pares", "variograma");
  Model m = start ? *start : initial_model(use, type);
  m.type = type;
  validate(m);
  const std::size_t n = use.size();
  Eigen::VectorXd w(n);
  for (std::size_t j = 0; j < n; ++j)
    w[j] = static_cast<double>(use[j].np) / (use[j].dist * use[j].dist);
  auto residuals = [&](const Model& mm, Eigen::VectorXd& r) {
    r.resize(n);
    for (std::size_t j = 0; j < n; ++j)
      r[j] = std::sqrt(w[j]) * (use[j].gamma - mm.gamma(use[j].dist));
    return r.squaredNorm();
  };
  Eigen::VectorXd r;
  double sse = residuals(m, r);
  double lambda = 1e-3;
  FitResult out;
  const double amin = 1e-9 * std::max(1.0, use.back().dist);
  std::size_t it = 0;
  for (; it < opt.max_iterations; ++it) {
    Eigen::MatrixXd J(n, 3);
    for (std::size_t j = 0; j < n; ++j) {
      Eval e = structure(type, use[j].dist, m.range);
      double sw = std::sqrt(w[j]);
      J(j, 0) = sw * 1.0;
      J(j, 1) = sw * e.f;
      J(j, 2) = sw * m.psill * e.df_da;
    }
    Eigen::Matrix3d A = J.transpose() * J;
    Eigen::Vector3d g = J.transpose() * r;
    bool improved = false;
    for (int tries = 0; tries < 30; ++tries) {
      Eigen::Matrix3d Ad = A;
      for (int k = 0; k < 3; ++k) Ad(k, k) += lambda * std::max(A(k, k), 1e-300);
      Eigen::Vector3d step = Ad.ldlt().solve(g);
      if (!step.allFinite()) {
        lambda *= 10;
        continue;
      }
      Model t = m;
      t.nugget = std::max(0.0, m.nugget + step[0]);
      t.psill = std::max(0.0, m.psill + step[1]);
      t.range = std::max(amin, m.range + step[2]);
      Eigen::VectorXd rt;
      double st = residuals(t, rt);
      if (st <= sse) {
        double rel = (sse - st) / std::max(sse, 1e-300);
        double dp = std::max({std::fabs(t.nugget - m.nugget) / std::max(m.sill(), 1e-300),
                              std::fabs(t.psill - m.psill) / std::max(m.sill(), 1e-300),
                              std::fabs(t.range - m.range) / m.range});
        m = t;
        r = rt;
        sse = st;
        lambda = std::max(lambda / 10, 1e-12);
        improved = true;
        if (rel < opt.tolerance && dp < std::sqrt(opt.tolerance)) out.converged = true;
        break;
      }
      lambda *= 10;
    }
    if (!improved) {
      out.converged = true;
      break;
    }  // no descent possible: at a minimum
    if (out.converged) {
      ++it;
      break;
    }
  }
  out.model = m;
  out.wsse = sse;
  out.iterations = it;
  return out;
}

}  // namespace cadastre::geostat
