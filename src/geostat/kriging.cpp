// Ordinary kriging (point and grid) and the lognormal back-transform; see geostat.hpp.
//
// The system is solved in covariance form, Cλ + ν1 = c0, 1ᵀλ = 1, through the Schur
// complement of the (positive definite) covariance matrix: with a = C⁻¹c0 and b = C⁻¹1
// (one pivoted LDLᵀ factorisation), ν = (1ᵀa − 1) / 1ᵀb and λ = a − νb. This is about four
// times cheaper than a full-pivot LU of the bordered matrix, and the LDLᵀ pivots tell a
// singular C (points at one place, a zero sill) apart: the smallest below 1e-12 of the
// largest is refused. The bordered system's residual is checked afterwards all the same.
#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "cadastre/geostat.hpp"
#include "geostat/util.hpp"

namespace cadastre::geostat {
using detail::bad;
using detail::num;

namespace {

// Reused buffers: a grid solves one small system per cell, so nothing is allocated per cell
// once the sizes are reached.
struct Workspace {
  Eigen::MatrixXd C;
  Eigen::VectorXd c0;
  Eigen::MatrixXd rhs;
  Eigen::MatrixXd ab;
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
  std::vector<double> lambda;
  std::vector<std::size_t> idx;
};

struct Solution {
  double value;
  double variance;
  double lagrange;  // μ = −ν (variogram form)
};

[[noreturn]] void singular(double x, double y, std::size_t n) {
  throw Error(errc::unprocessable,
              "sistema de krigagem singular em (" + num(x) + ", " + num(y) + ") com " +
                  std::to_string(n) + " vizinhos (amostras no mesmo local ou modelo sem patamar?)",
              "amostras");
}

// Solves the system for the neighbours ws.idx (nearest first); the weights are left in
// ws.lambda. Every sum is an explicit loop in a fixed order, so the result does not depend
// on where Eigen's buffers happen to be aligned: krige() and krige_grid() agree bit for bit.
Solution solve(std::span<const Sample> s, const Model& model, double x, double y, Workspace& ws) {
  const std::size_t n = ws.idx.size();
  if (n == 0)
    throw Error(errc::unprocessable,
                "nenhuma amostra na vizinhança de (" + num(x) + ", " + num(y) + ")", "maxdist");
  const auto N = static_cast<Eigen::Index>(n);
  ws.C.resize(N, N);
  ws.c0.resize(N);
  ws.rhs.resize(N, 2);
  for (Eigen::Index a = 0; a < N; ++a) {
    const Sample& p = s[ws.idx[static_cast<std::size_t>(a)]];
    ws.C(a, a) = model.covariance(0);
    for (Eigen::Index c = 0; c < a; ++c) {
      const Sample& q = s[ws.idx[static_cast<std::size_t>(c)]];
      ws.C(a, c) = ws.C(c, a) = model.covariance(std::sqrt(detail::dist2(p.x, p.y, q.x, q.y)));
    }
    ws.c0[a] = model.covariance(std::sqrt(detail::dist2(p.x, p.y, x, y)));
    ws.rhs(a, 0) = ws.c0[a];
    ws.rhs(a, 1) = 1;
  }
  ws.ldlt.compute(ws.C);
  if (ws.ldlt.info() != Eigen::Success) singular(x, y, n);
  {
    const auto& D = ws.ldlt.vectorD();
    double dmin = D[0], dmax = D[0];
    for (Eigen::Index k = 1; k < N; ++k) {
      dmin = std::min(dmin, D[k]);
      dmax = std::max(dmax, D[k]);
    }
    if (!(dmax > 0) || !(dmin > 1e-12 * dmax)) singular(x, y, n);
  }
  ws.ab = ws.ldlt.solve(ws.rhs);
  double sa = 0, sb = 0;
  for (Eigen::Index a = 0; a < N; ++a) {
    sa += ws.ab(a, 0);
    sb += ws.ab(a, 1);
  }
  if (!(sb > 0) || !std::isfinite(sa)) singular(x, y, n);
  const double nu = (sa - 1) / sb;
  ws.lambda.resize(n);
  double value = 0, lc = 0, sum = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const auto A = static_cast<Eigen::Index>(a);
    ws.lambda[a] = ws.ab(A, 0) - nu * ws.ab(A, 1);
    value += ws.lambda[a] * s[ws.idx[a]].value;
    lc += ws.lambda[a] * ws.c0[A];
    sum += ws.lambda[a];
  }
  // residual of the bordered system [C 1; 1ᵀ 0][λ; ν] = [c0; 1]
  double res2 = (sum - 1) * (sum - 1), scale = 1 + ws.c0.squaredNorm();
  for (Eigen::Index a = 0; a < N; ++a) {
    double r = nu - ws.c0[a];
    for (Eigen::Index c = 0; c < N; ++c) r += ws.C(a, c) * ws.lambda[static_cast<std::size_t>(c)];
    res2 += r * r;
  }
  if (!(std::sqrt(res2) <= 1e-8 * (std::sqrt(scale) + ws.C.norm() + 1))) singular(x, y, n);
  // round-off at a data point: clamp tiny negatives to zero
  const double variance = std::max(0.0, model.sill() - lc - nu);
  if (!std::isfinite(value) || !std::isfinite(variance))
    throw Error(errc::unprocessable,
                "krigagem sem solução finita em (" + num(x) + ", " + num(y) + ")", "amostras");
  return {value, variance, -nu};
}

// The brute-force neighbourhood: every sample, ordered by (d², index). NeighbourIndex::find
// must return the same list.
void scan(std::span<const Sample> s, double x, double y, const KrigingOptions& o,
          std::vector<std::size_t>& out) {
  struct Candidate {
    double d2;
    std::size_t i;
  };
  auto closer = [](const Candidate& a, const Candidate& b) {
    return a.d2 < b.d2 || (a.d2 == b.d2 && a.i < b.i);
  };
  const double md2 = detail::maxdist2(o.maxdist);
  std::vector<Candidate> nb;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double d2 = detail::dist2(s[i].x, s[i].y, x, y);
    if (d2 <= md2) nb.push_back({d2, i});
  }
  if (o.nmax > 0 && nb.size() > o.nmax) {
    std::nth_element(nb.begin(), nb.begin() + static_cast<std::ptrdiff_t>(o.nmax), nb.end(),
                     closer);
    nb.resize(o.nmax);
  }
  std::sort(nb.begin(), nb.end(), closer);
  out.clear();
  for (const auto& c : nb) out.push_back(c.i);
}

void check_options(const KrigingOptions& o) {
  if (!(o.maxdist > 0)) bad("maxdist deve ser > 0", "maxdist");
}

}  // namespace

Prediction krige(std::span<const Sample> samples, const Model& model, double x, double y,
                 const KrigingOptions& options) {
  validate(model);
  check_options(options);
  if (!std::isfinite(x) || !std::isfinite(y)) bad("ponto não finito", "ponto");
  Workspace ws;
  scan(samples, x, y, options, ws.idx);
  if (ws.idx.empty() && options.nodata) {
    Prediction none;
    none.value = none.variance = *options.nodata;
    return none;
  }
  const Solution sol = solve(samples, model, x, y, ws);
  Prediction p;
  p.value = sol.value;
  p.variance = sol.variance;
  p.lagrange = sol.lagrange;
  p.neighbours = ws.idx.size();
  p.weights = ws.lambda;
  p.indices = ws.idx;
  return p;
}

Grid krige_grid(std::span<const Sample> samples, const Model& model, const GridSpec& spec,
                const KrigingOptions& options) {
  return krige_grid(samples, model, spec, options, {});
}

Grid krige_grid(std::span<const Sample> samples, const Model& model, const GridSpec& spec,
                const KrigingOptions& options, std::span<const std::uint8_t> mask) {
  validate(model);
  check_options(options);
  if (!(spec.cell_size > 0) || !std::isfinite(spec.cell_size))
    bad("tamanho da célula deve ser > 0", "cell_size");
  if (spec.rows == 0 || spec.cols == 0) bad("grade sem linhas ou colunas", "grade");
  Grid g;
  g.origin_x = spec.origin_x;
  g.origin_y = spec.origin_y;
  g.cell_size = spec.cell_size;
  g.rows = spec.rows;
  g.cols = spec.cols;
  const std::size_t cells = spec.rows * spec.cols;
  // an empty mask is the unmasked grid (the overload without one passes {})
  if (!mask.empty() && mask.size() != cells)
    bad("máscara com " + std::to_string(mask.size()) + " células, a grade tem " +
            std::to_string(cells),
        "mascara");
  if (!mask.empty() && !options.nodata) bad("a máscara exige um valor nodata", "nodata");
  g.values.assign(cells, 0);
  g.variances.assign(cells, 0);
  g.lagranges.assign(cells, 0);
  g.neighbours.assign(cells, 0);
  const NeighbourIndex index(samples);

  // Rows are handed out one at a time; each cell depends only on its centre, so the grid
  // is the same whatever thread computes a row. The first failing cell in row-major order
  // wins: a thread stops at its first error, and rows after the earliest failing row are
  // skipped (rows before it are all computed, so their errors are seen).
  std::atomic<std::size_t> next_row{0};
  std::atomic<std::size_t> first_bad_row{spec.rows};
  std::mutex mutex;
  std::size_t bad_cell = cells;
  std::exception_ptr bad_error;
  auto work = [&] {
    Workspace ws;
    for (;;) {
      const std::size_t r = next_row.fetch_add(1);
      if (r >= g.rows || r > first_bad_row.load()) return;
      for (std::size_t c = 0; c < g.cols; ++c) {
        const std::size_t cell = r * g.cols + c;
        const double x = g.x_of(c), y = g.y_of(r);
        if (!mask.empty() && mask[cell] == 0) {
          g.values[cell] = g.variances[cell] = *options.nodata;
          continue;
        }
        try {
          index.find(x, y, options.nmax, options.maxdist, ws.idx);
          if (ws.idx.empty() && options.nodata) {
            g.values[cell] = g.variances[cell] = *options.nodata;
            continue;
          }
          const Solution sol = solve(samples, model, x, y, ws);
          g.values[cell] = sol.value;
          g.variances[cell] = sol.variance;
          g.lagranges[cell] = sol.lagrange;
          g.neighbours[cell] = static_cast<std::uint32_t>(ws.idx.size());
        } catch (const Error& e) {
          std::lock_guard lock(mutex);
          if (cell < bad_cell) {
            bad_cell = cell;
            bad_error = std::make_exception_ptr(Error(
                e.code(),
                std::string(e.what()) + " (célula linha " + std::to_string(r) + ", coluna " +
                    std::to_string(c) + ")",
                e.field()));
          }
          std::size_t cur = first_bad_row.load();
          while (r < cur && !first_bad_row.compare_exchange_weak(cur, r)) {
          }
          return;
        } catch (...) {
          std::lock_guard lock(mutex);
          if (cell < bad_cell) {
            bad_cell = cell;
            bad_error = std::current_exception();
          }
          std::size_t cur = first_bad_row.load();
          while (r < cur && !first_bad_row.compare_exchange_weak(cur, r)) {
          }
          return;
        }
      }
    }
  };
  std::size_t threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::clamp<std::size_t>(threads, 1, std::min<std::size_t>(g.rows, 256));
  if (threads == 1) {
    work();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  }  // joined here
  if (bad_error) std::rethrow_exception(bad_error);
  return g;
}

// ------------------------------------------------------------------ lognormal kriging

LognormalEstimate lognormal_back_transform(double log_value, double log_variance,
                                           double lagrange) {
  if (!std::isfinite(log_value) || !std::isfinite(lagrange))
    bad("estimativa ou multiplicador de Lagrange não finito", "valor");
  if (!(log_variance >= 0) || !std::isfinite(log_variance))
    bad("variância de krigagem deve ser ≥ 0", "variancia");
  const double z = std::exp(log_value + 0.5 * log_variance - lagrange);
  const double var = z * z * std::expm1(log_variance);
  if (!std::isfinite(z) || !std::isfinite(var))
    throw Error(errc::unprocessable,
                "retrotransformação lognormal excede o intervalo de double (ŷ = " +
                    num(log_value) + ")",
                "valor");
  return {z, var};
}

LognormalEstimate lognormal_back_transform(const Prediction& p) {
  return lognormal_back_transform(p.value, p.variance, p.lagrange);
}

Grid lognormal_back_transform(const Grid& log_grid) {
  const std::size_t cells = log_grid.rows * log_grid.cols;
  if (log_grid.values.size() != cells || log_grid.variances.size() != cells ||
      log_grid.lagranges.size() != cells || log_grid.neighbours.size() != cells)
    bad("grade com vetores de tamanho inconsistente", "grade");
  Grid out = log_grid;
  for (std::size_t k = 0; k < cells; ++k) {
    if (log_grid.neighbours[k] == 0) continue;  // nodata: copied as is
    try {
      const LognormalEstimate e = lognormal_back_transform(
          log_grid.values[k], log_grid.variances[k], log_grid.lagranges[k]);
      out.values[k] = e.value;
      out.variances[k] = e.variance;
    } catch (const Error& e) {
      throw Error(e.code(),
                  std::string(e.what()) + " (célula linha " + std::to_string(k / log_grid.cols) +
                      ", coluna " + std::to_string(k % log_grid.cols) + ")",
                  e.field());
    }
  }
  return out;
}

}  // namespace cadastre::geostat
