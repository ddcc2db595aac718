// IAAO ratio study; see the "ratio study" section of include/cadastre/appraisal.hpp.
#include <algorithm>
#include <cmath>
#include <string>

#include "cadastre/appraisal.hpp"
#include "cadastre/error.hpp"

namespace cadastre::appraisal {
namespace {

void check_values(std::span<const double> v, const char* field) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]) || !(v[i] > 0))
      throw Error(errc::invalid_argument,
                  std::string("valor deve ser finito e > 0 (linha ") + std::to_string(i + 1) +
                      ")",
                  field);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

RatioCheck check(double value, double lower, double upper) {
  return {value, lower, upper, value >= lower && value <= upper};
}

}  // namespace

double normal_quantile(double prob) {
  if (!(prob > 0 && prob < 1))
    throw Error(errc::invalid_argument, "normal_quantile: probabilidade fora de (0, 1)");
  // bisection on Φ(z) = ½ erfc(−z/√2): 200 halvings of [−40, 40] reach double precision
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < prob) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

RatioStudy ratio_study(std::span<const double> assessed, std::span<const double> sale_prices,
                       const RatioStudyOptions& o) {
  if (assessed.size() != sale_prices.size())
    throw Error(errc::invalid_argument,
                "avaliados (" + std::to_string(assessed.size()) + ") e vendas (" +
                    std::to_string(sale_prices.size()) + ") de tamanhos diferentes",
                "vendas");
  check_values(assessed, "avaliados");
  check_values(sale_prices, "vendas");
  if (!(o.level > 0 && o.level < 1))
    throw Error(errc::invalid_argument, "nível de confiança fora de (0, 1)", "nivel");
  const std::size_t n = assessed.size();
  if (n < 3)
    throw Error(errc::unprocessable, "o estudo de razões exige ao menos 3 vendas", "dados");
  const double dn = static_cast<double>(n);

  RatioStudy out;
  out.n = n;
  out.ratios.resize(n);
  double sum_r = 0, sum_a = 0, sum_s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out.ratios[i] = assessed[i] / sale_prices[i];
    sum_r += out.ratios[i];
    sum_a += assessed[i];
    sum_s += sale_prices[i];
  }
  const double med = median_of(out.ratios);
  out.mean = sum_r / dn;
  out.weighted_mean = sum_a / sum_s;
  out.median = check(med, o.median_lower, o.median_upper);

  double abs_dev = 0;
  for (double r : out.ratios) abs_dev += std::fabs(r - med);
  out.cod = check(100 * (abs_dev / dn) / med, 0, o.cod_max);
  out.prd = check(out.mean / out.weighted_mean, o.prd_lower, o.prd_upper);

  // median CI by order statistics (Gardner & Altman): ranks rounded to the nearest integer
  {
    const double z = normal_quantile(0.5 + o.level / 2);
    const double half = z * std::sqrt(dn) / 2;
    const double j = std::round(dn / 2 - half), k = std::round(1 + dn / 2 + half);
    out.median_ci_lower_rank = static_cast<std::size_t>(std::clamp(j, 1.0, dn));
    out.median_ci_upper_rank = static_cast<std::size_t>(std::clamp(k, 1.0, dn));
    std::vector<double> sorted = out.ratios;
    std::sort(sorted.begin(), sorted.end());
    out.median_ci = {o.level, sorted[out.median_ci_lower_rank - 1],
                     sorted[out.median_ci_upper_rank - 1]};
  }

  // PRB: simple regression of (r − median)/median on log2 of the value proxy
  {
    std::vector<double> xs(n), ys(n);
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i) {
      xs[i] = std::log2(0.5 * assessed[i] / med + 0.5 * sale_prices[i]);
      ys[i] = (out.ratios[i] - med) / med;
      mx += xs[i];
      my += ys[i];
    }
    mx /= dn;
    my /= dn;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sxx += (xs[i] - mx) * (xs[i] - mx);
      sxy += (xs[i] - mx) * (ys[i] - my);
    }
    if (!(sxx > 0))
      throw Error(errc::unprocessable,
                  "PRB indefinido: todos os valores de referência são iguais", "dados");
    const double b1 = sxy / sxx, b0 = my - b1 * mx;
    double sse = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double e = ys[i] - b0 - b1 * xs[i];
      sse += e * e;
    }
    const double df = dn - 2;
    const double se = std::sqrt(sse / df / sxx);
    out.prb = check(b1, -o.prb_limit, o.prb_limit);
    const double tq = t_quantile(0.5 + o.level / 2, df);
    out.prb_ci = {o.level, b1 - tq * se, b1 + tq * se};
    out.prb_p = se > 0 ? t_two_sided_p(b1 / se, df) : (b1 == 0 ? 1.0 : 0.0);
  }
  out.pass = out.median.pass && out.cod.pass && out.prd.pass && out.prb.pass;
  return out;
}

}  // namespace cadastre::appraisal
