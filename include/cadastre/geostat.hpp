// Geostatistics: experimental variogram, variogram models and their fit, ordinary kriging.
// Pure functions: no database, no I/O; linear algebra in Eigen (not exposed here).
//
// Conventions (follow R's gstat so results can be compared with it)
// - Coordinates are metres in a projected CRS (SIRGAS 2000 / UTM), never degrees: use
//   project_to_utm() for lon/lat samples.
// - Semivariance of a lag bin (gstat): γ = Σ (z_i − z_j)² / (2·np) over the np pairs in it.
// - Models are nugget + one structure with partial sill c and range parameter a (gstat's
//   vgm(psill, model, range, nugget)); for h > 0:
//     spherical    γ(h) = n + c·(1.5·h/a − 0.5·(h/a)³) for h < a, n + c beyond
//     exponential  γ(h) = n + c·(1 − exp(−h/a))        (practical range ≈ 3a)
//     gaussian     γ(h) = n + c·(1 − exp(−(h/a)²))     (practical range ≈ √3·a)
//   and γ(0) = 0 (the nugget is a discontinuity at the origin). Covariance C(h) = n + c − γ(h).
// - Fit: weighted least squares with gstat's default weights (fit.method = 7): w_j = N_j/h_j².
// - Failures throw cadastre::Error (messages in Portuguese): bad options →
//   errc::invalid_argument naming the field; duplicate points refused, singular kriging
//   systems, no neighbours → errc::unprocessable. Kriging never returns NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "cadastre/error.hpp"

namespace cadastre::geostat {

/// A sample: location (metres, or lon/lat before project_to_utm) and the measured value.
struct Sample {
  double x = 0;
  double y = 0;
  double value = 0;
  bool operator==(const Sample&) const = default;
};

/// Samples projected to metres, with the EPSG code of the CRS they are now in.
struct ProjectedSamples {
  int epsg = 0;                 ///< SIRGAS 2000 / UTM zone code (geom::utm_epsg_for)
  std::vector<Sample> samples;  ///< same order as the input, x/y in metres
};

/// Projects lon/lat samples (CRS `from_epsg`, SIRGAS 2000 by default) to the SIRGAS 2000 /
/// UTM zone of their centroid (mean lon/lat), through cadastre::geom. Values are kept.
/// An empty input → Error(errc::invalid_argument, "amostras"); places outside Brazil's
/// zones → the Error of geom::utm_epsg_for.
ProjectedSamples project_to_utm(std::span<const Sample> lonlat, int from_epsg = 4674);

/// What to do with samples at the same place.
enum class Duplicates {
  merge,   ///< replace each group by one sample: mean x, mean y, mean value
  refuse,  ///< throw Error(errc::unprocessable, "amostras") naming the samples (indices)
};

/// Groups samples whose distance is ≤ `tolerance` metres (transitively: a chain of close
/// points is one group) and merges or refuses them. Without duplicates the input is
/// returned unchanged; merged groups take the place of their first sample. Negative
/// tolerance → Error(errc::invalid_argument, "tolerancia").
std::vector<Sample> handle_duplicates(std::span<const Sample> samples, Duplicates policy,
                                      double tolerance = 0.0);

// ------------------------------------------------------------------ experimental variogram

/// Options of experimental_variogram(). Defaults are gstat's.
struct VariogramOptions {
  /// Maximum pair distance; default one third of the diagonal of the samples' bounding box.
  std::optional<double> cutoff;
  /// Bin width; default cutoff / n_lags.
  std::optional<double> lag_width;
  /// Number of bins when lag_width is not given (gstat: 15).
  std::size_t n_lags = 15;
  /// Direction of the pairs, degrees clockwise from north (+y), as gstat's `alpha`;
  /// absent → omnidirectional.
  std::optional<double> direction_deg;
  /// Angular tolerance around `direction_deg`, degrees in (0, 90] (gstat's tol.hor).
  double tolerance_deg = 22.5;
};

/// One lag bin: the pairs with lower < h ≤ upper (h = 0 pairs count in the first bin).
struct Bin {
  double lower = 0;    ///< lower bound of the bin
  double upper = 0;    ///< upper bound of the bin
  std::size_t np = 0;  ///< number of pairs
  double dist = 0;     ///< mean distance of the pairs
  double gamma = 0;    ///< semivariance Σ(zi − zj)² / (2 np)
};

/// The experimental (sample) variogram. Bins without pairs are omitted (as in gstat), so
/// the result is ordered by distance but not necessarily contiguous. Fewer than 2 samples,
/// non-positive cutoff or width, zero n_lags, tolerance outside (0, 90] →
/// Error(errc::invalid_argument) naming the option.
std::vector<Bin> experimental_variogram(std::span<const Sample> samples,
                                        const VariogramOptions& options = {});

// ------------------------------------------------------------------ models

enum class ModelType { spherical, exponential, gaussian };

/// A variogram model: nugget + psill·structure(h / range). See the header comment.
struct Model {
  ModelType type = ModelType::spherical;
  double nugget = 0;  ///< n ≥ 0
  double psill = 0;   ///< partial sill c ≥ 0
  double range = 0;   ///< range parameter a > 0 (gstat's), metres

  /// Semivariance at distance h ≥ 0 (γ(0) = 0).
  double gamma(double h) const;
  /// Covariance at distance h: sill − γ(h), so C(0) = nugget + psill.
  double covariance(double h) const;
  /// Total sill nugget + psill.
  double sill() const { return nugget + psill; }
};

/// Checks a model: finite, nugget and psill ≥ 0, range > 0; else Error(errc::invalid_argument)
/// with field "pepita", "contribuicao" or "alcance".
void validate(const Model& m);

struct FitOptions {
  std::size_t max_iterations = 200;
  /// Convergence: relative change of the weighted SSE below `tolerance` and of each
  /// parameter below √tolerance (1e-8 by default: the fit is then the minimum to about
  /// nine digits — gstat stops earlier, see tests/unit/geostat/test_meuse.cpp).
  double tolerance = 1e-16;
};

struct FitResult {
  Model model;
  double wsse = 0;  ///< Σ w_j (γ_j − γ(h_j))², w_j = N_j / h_j²
  std::size_t iterations = 0;
  bool converged = false;  ///< false when max_iterations was reached
};

/// Starting values used by fit_variogram() when none is given (bins with np = 0 or
/// dist = 0 ignored): nugget = ½·γ of the first bin, psill = max(max γ − nugget, max γ / 10),
/// range = one third of the largest bin distance. Type `type`.
Model initial_model(std::span<const Bin> bins, ModelType type);

/// Fits nugget, psill and range to the bins by weighted least squares with gstat's default
/// weights N_j / h_j² (fit.method = 7), by Levenberg–Marquardt with the bounds nugget ≥ 0,
/// psill ≥ 0, range > 0 (a step leaving the domain is projected back onto it). Bins with
/// np = 0 or dist = 0 are ignored. `start` defaults to initial_model(bins, type); its type is
/// ignored in favour of `type`. Fewer than 3 usable bins → Error(errc::invalid_argument,
/// "variograma").
FitResult fit_variogram(std::span<const Bin> bins, ModelType type,
                        std::optional<Model> start = std::nullopt, const FitOptions& options = {});

// ------------------------------------------------------------------ ordinary kriging

/// Search neighbourhood (gstat's nmax and maxdist).
struct KrigingOptions {
  std::size_t nmax = 0;  ///< the nmax nearest samples; 0 = all samples
  double maxdist = std::numeric_limits<double>::infinity();  ///< only samples within it
  /// Grid cells (and krige() points) with no sample in the neighbourhood get this value and
  /// variance (a Prediction with neighbours = 0, lagrange 0); absent → such a cell or point
  /// is an Error(errc::unprocessable, "maxdist").
  std::optional<double> nodata;
  /// Worker threads of krige_grid(); 0 = std::thread::hardware_concurrency(). The grid is
  /// the same, bit for bit, whatever the number.
  std::size_t threads = 0;
};

struct Prediction {
  double value = 0;                  ///< kriged estimate
  double variance = 0;               ///< ordinary kriging variance (≥ 0)
  std::size_t neighbours = 0;        ///< samples used
  std::vector<double> weights;       ///< kriging weights of the neighbours used (sum 1)
  std::vector<std::size_t> indices;  ///< indices into the samples of those neighbours,
                                     ///< nearest first (ties: lower index first)
  /// Lagrange multiplier μ of the system in variogram form, Γλ + μ1 = γ0 (Cressie 1993,
  /// eq. 3.2.12), so that variance = λᵀγ0 + μ. The covariance form Cλ + ν1 = c0 that is
  /// solved has ν = −μ (variance = C(0) − λᵀc0 − ν). Used by lognormal_back_transform().
  double lagrange = 0;
};

/// Ordinary kriging at (x, y), with the nmax nearest samples within maxdist (ties in
/// distance: the lower sample index first). Solves the covariance form
/// [C 1; 1ᵀ 0][λ; ν] = [c0; 1]; variance = C(0) − λᵀc0 − ν = λᵀγ0 + μ with μ = −ν (see
/// Prediction::lagrange). At a sample location the sample value is returned with variance
/// 0 (exact interpolator, as gstat). No neighbour → options.nodata (neighbours = 0) when
/// given, else Error(errc::unprocessable, "maxdist"); a singular system (e.g. all
/// neighbours at one place, a zero-sill model) → Error(errc::unprocessable, "amostras");
/// invalid model → validate()'s Error.
Prediction krige(std::span<const Sample> samples, const Model& model, double x, double y,
                 const KrigingOptions& options = {});

/// A regular grid, north-up as a GeoTIFF: (origin_x, origin_y) is the upper-left (north-west)
/// corner, cell (row r, col c) has its centre at (origin_x + (c + ½)·cell_size,
/// origin_y − (r + ½)·cell_size).
struct GridSpec {
  double origin_x = 0;
  double origin_y = 0;
  double cell_size = 1;  ///< metres, > 0
  std::size_t rows = 0;
  std::size_t cols = 0;
};

/// Kriged grid: values and variances row-major (index r·cols + c), row 0 northmost.
/// A grid filled by hand must size lagranges and neighbours too before it is given to
/// lognormal_back_transform(const Grid&).
struct Grid {
  double origin_x = 0;
  double origin_y = 0;
  double cell_size = 1;
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> values;
  std::vector<double> variances;
  std::vector<double> lagranges;  ///< Prediction::lagrange per cell (0 in a nodata cell)
  /// Samples used per cell; 0 marks a cell without neighbours (value = variance = nodata).
  std::vector<std::uint32_t> neighbours;

  double value(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
  double variance(std::size_t r, std::size_t c) const { return variances[r * cols + c]; }
  double lagrange(std::size_t r, std::size_t c) const { return lagranges[r * cols + c]; }
  bool has_value(std::size_t r, std::size_t c) const { return neighbours[r * cols + c] > 0; }
  /// Centre of cell (r, c).
  double x_of(std::size_t c) const { return origin_x + (static_cast<double>(c) + 0.5) * cell_size; }
  double y_of(std::size_t r) const { return origin_y - (static_cast<double>(r) + 0.5) * cell_size; }
};

/// Ordinary kriging at every cell centre of `spec`: each cell equals krige() at its centre
/// bit for bit (same neighbours, found through a NeighbourIndex instead of a scan). Rows
/// are shared among `options.threads` threads; on errors the one of the first failing cell
/// in row-major order is thrown (as krige()'s, the message naming the cell), whatever the
/// threads. rows or cols 0, cell_size ≤ 0 → Error(errc::invalid_argument).
Grid krige_grid(std::span<const Sample> samples, const Model& model, const GridSpec& spec,
                const KrigingOptions& options = {});

/// krige_grid() over the cells whose `mask` byte (row-major, rows·cols) is nonzero — e.g.
/// the cells whose centre is inside a domain polygon; the others get options.nodata
/// (neighbours = 0) and cost nothing. An empty mask masks nothing. options.nodata is
/// required with a mask (Error(errc::invalid_argument, "nodata")); a mask of another size →
/// Error(errc::invalid_argument, "mascara").
Grid krige_grid(std::span<const Sample> samples, const Model& model, const GridSpec& spec,
                const KrigingOptions& options, std::span<const std::uint8_t> mask);

// ------------------------------------------------------------------ neighbour search

/// A 2-d tree over sample locations for the nmax / maxdist neighbourhood. find() returns
/// exactly what a scan of all samples returns: the samples with d² ≤ maxdist², ordered by
/// (d², index), the first nmax of them (all when nmax = 0). d² is computed as in the scan,
/// (x_i − x)² + (y_i − y)², and a subtree is skipped only when its bounding box is
/// strictly farther than the current nmax-th candidate, so ties are settled by the index
/// exactly as the scan does. The index keeps a copy of the coordinates.
class NeighbourIndex {
 public:
  explicit NeighbourIndex(std::span<const Sample> samples);
  /// Indices into the samples given to the constructor; `out` is cleared first.
  void find(double x, double y, std::size_t nmax, double maxdist,
            std::vector<std::size_t>& out) const;
  std::vector<std::size_t> find(double x, double y, std::size_t nmax,
                                double maxdist = std::numeric_limits<double>::infinity()) const;
  std::size_t size() const { return points_.size(); }

 private:
  struct Point {
    double x, y;
    std::size_t index;
  };
  struct Node {
    double x0, y0, x1, y1;           ///< bounding box of the points below
    std::uint32_t begin, end;        ///< range in points_
    std::int32_t left = -1, right = -1;  ///< children (−1: a leaf)
  };
  std::int32_t build(std::uint32_t begin, std::uint32_t end, int depth);
  std::vector<Point> points_;
  std::vector<Node> nodes_;
};

// ------------------------------------------------------------------ lognormal kriging

/// A back-transformed estimate: the value and its variance in the original scale.
struct LognormalEstimate {
  double value = 0;
  double variance = 0;
};

/// Ordinary lognormal kriging back-transform of a prediction Ŷ of Y = ln Z with ordinary
/// kriging variance σ² and Lagrange multiplier μ (Prediction::lagrange, variogram form):
///   Ẑ   = exp(Ŷ + σ²/2 − μ)                       (Cressie 1993, §3.2.2, eq. 3.2.40;
///                                                   Journel & Huijbregts 1978, p. 572)
///   Var = Ẑ² · (exp(σ²) − 1)
/// Ẑ is unbiased for Z under a Gaussian Y (the −μ term corrects for the mean being
/// estimated). Var is the variance of a lognormal with log-variance σ² around Ẑ — exact for
/// simple kriging (μ = 0), an approximation for ordinary kriging. σ² < 0 or non-finite
/// input → Error(errc::invalid_argument, "variancia"); a result beyond double's range →
/// Error(errc::unprocessable, "valor").
LognormalEstimate lognormal_back_transform(double log_value, double log_variance, double lagrange);
LognormalEstimate lognormal_back_transform(const Prediction& log_prediction);

/// The grid version: every cell with neighbours back-transformed (value, variance); nodata
/// cells (neighbours = 0) and the lagranges/neighbours arrays are copied unchanged. Arrays
/// of inconsistent size → Error(errc::invalid_argument, "grade").
Grid lognormal_back_transform(const Grid& log_grid);

}  // namespace cadastre::geostat
