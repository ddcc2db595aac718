// Class breaks of a numeric field for thematic maps (the platform's POST /mapa-tematico): equal intervals,
// quantiles and Jenks natural breaks. Pure functions over the field's values.
//
// Breaks are k+1 ascending numbers [b0 = min, b1, ..., bk = max]; class i holds the values
// v with b(i) < v <= b(i+1), the first class also b0 itself (Jenks' classes end at their
// largest member, so upper bounds are inclusive for every method alike).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace cadastre::classify {

/// The most values Jenks runs on: above it, on that many evenly spaced order statistics of
/// the sorted values (min and max included). Fisher-Jenks is O(k·n²); 2,000 points keep a
/// 12-class map of a 100,000-feature layer well under a second, and the breaks of evenly
/// spaced order statistics stay where the data's gaps are.
inline constexpr std::size_t kJenksSample = 2000;

/// Equal-width classes between min and max. `sorted` ascending, non-empty; k >= 1.
std::vector<double> equal_intervals(const std::vector<double>& sorted, std::size_t k);
/// Classes of (nearly) equal counts: break i is the i/k quantile, linearly interpolated
/// between order statistics (PostgreSQL's percentile_cont).
std::vector<double> quantiles(const std::vector<double>& sorted, std::size_t k);
/// Jenks natural breaks (Fisher's exact optimisation): the k classes of least total
/// within-class sum of squared deviations. Fewer classes when there are fewer distinct
/// values than k (one per distinct value).
std::vector<double> jenks(const std::vector<double>& sorted, std::size_t k);

/// The breaks of `method` ("intervalos_iguais", "quantis", "jenks"); false for another name.
bool known_method(std::string_view method) noexcept;
std::vector<double> breaks(std::string_view method, const std::vector<double>& sorted, std::size_t k);

/// How many of `sorted` fall in each class of `breaks` (breaks.size() - 1 counts).
std::vector<std::size_t> counts(const std::vector<double>& sorted, const std::vector<double>& breaks);

}  // namespace cadastre::classify
