#include "cadastre/classify.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cadastre::classify {

std::vector<double> equal_intervals(const std::vector<double>& sorted, std::size_t k) {
  double lo = sorted.front(), hi = sorted.back();
  std::vector<double> b(k + 1);
  for (std::size_t i = 0; i <= k; ++i) b[i] = lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(k);
  b[k] = hi;  // exactly, whatever the rounding
  return b;
}

std::vector<double> quantiles(const std::vector<double>& sorted, std::size_t k) {
  std::vector<double> b(k + 1);
  const double last = static_cast<double>(sorted.size() - 1);
  for (std::size_t i = 0; i <= k; ++i) {
    double pos = last * static_cast<double>(i) / static_cast<double>(k);
    auto below = static_cast<std::size_t>(pos);
    double frac = pos - static_cast<double>(below);
    b[i] = below + 1 < sorted.size() ? sorted[below] + frac * (sorted[below + 1] - sorted[below]) : sorted[below];
  }
  return b;
}

std::vector<double> jenks(const std::vector<double>& all, std::size_t k) {
  // Evenly spaced order statistics when there are too many values (see kJenksSample).
  std::vector<double> v;
  if (all.size() > kJenksSample) {
    v.reserve(kJenksSample);
    for (std::size_t i = 0; i < kJenksSample; ++i) v.push_back(all[i * (all.size() - 1) / (kJenksSample - 1)]);
  } else {
    v = all;
  }
  std::vector<double> distinct = v;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() <= k) {
    // One class per distinct value: [d0, d0], (d0, d1], ... (the first class's bounds meet).
    std::vector<double> b{distinct.front()};
    b.insert(b.end(), distinct.begin(), distinct.end());
    return b;
  }
  const std::size_t n = v.size();
  // Prefix sums: the squared deviations of v[i..j] are sq - s²/count.
  std::vector<double> s(n + 1, 0), sq(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) s[i + 1] = s[i] + v[i], sq[i + 1] = sq[i] + v[i] * v[i];
  auto ssd = [&](std::size_t i, std::size_t j) {  // v[i..j] inclusive
    double sum = s[j + 1] - s[i], cnt = static_cast<double>(j - i + 1);
    return (sq[j + 1] - sq[i]) - sum * sum / cnt;
  };
  const double inf = std::numeric_limits<double>::infinity();
  // cost[c][j]: the least cost of v[0..j] in c+1 classes; start[c][j]: where its last class begins.
  std::vector<std::vector<double>> cost(k, std::vector<double>(n, inf));
  std::vector<std::vector<std::size_t>> start(k, std::vector<std::size_t>(n, 0));
  for (std::size_t j = 0; j < n; ++j) cost[0][j] = ssd(0, j);
  for (std::size_t c = 1; c < k; ++c)
    for (std::size_t j = c; j < n; ++j)
      for (std::size_t i = c; i <= j; ++i) {
        double total = cost[c - 1][i - 1] + ssd(i, j);
        if (total < cost[c][j]) cost[c][j] = total, start[c][j] = i;
      }
  std::vector<double> b(k + 1);
  b[0] = v.front();
  b[k] = v.back();
  std::size_t end = n - 1;
  for (std::size_t c = k - 1; c >= 1; --c) {
    std::size_t i = start[c][end];
    b[c] = v[i - 1];  // the previous class ends at its largest member
    end = i - 1;
  }
  return b;
}

bool known_method(std::string_view method) noexcept {
  return method == "intervalos_iguais" || method == "quantis" || method == "jenks";
}

std::vector<double> breaks(std::string_view method, const std::vector<double>& sorted, std::size_t k) {
  if (sorted.empty() || k == 0) throw std::invalid_argument("classify::breaks: no values or no classes");
  if (method == "intervalos_iguais") return equal_intervals(sorted, k);
  if (method == "quantis") return quantiles(sorted, k);
  if (method == "jenks") return jenks(sorted, k);
  throw std::invalid_argument("classify::breaks: unknown method");
}

std::vector<std::size_t> counts(const std::vector<double>& sorted, const std::vector<double>& breaks) {
  std::vector<std::size_t> out(breaks.size() - 1, 0);
  std::size_t taken = 0;
  for (std::size_t i = 0; i + 1 < breaks.size(); ++i) {
    bool last = i + 2 == breaks.size();
    auto end = last ? sorted.end() : std::upper_bound(sorted.begin(), sorted.end(), breaks[i + 1]);
    auto upto = static_cast<std::size_t>(end - sorted.begin());
    out[i] = upto > taken ? upto - taken : 0;
    taken = std::max(taken, upto);
  }
  return out;
}

}  // namespace cadastre::classify
