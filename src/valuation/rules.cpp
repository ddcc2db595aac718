// The valuation formulas themselves, free of breakdown bookkeeping.
#include <algorithm>
#include <cmath>

#include "cadastre/valuation.hpp"

namespace cadastre::valuation {

double frontage_factor(double frontage, const FrontageParams& p) noexcept {
  const double fe = std::clamp(frontage, p.min, p.max);
  return std::pow(fe / p.reference, p.exponent);
}

double depth_factor(double depth, const DepthParams& p) noexcept {
  if (depth < p.min) return std::pow(depth / p.min, p.exponent);
  if (depth <= p.max) return 1.0;
  if (depth < p.limit) return std::pow(p.max / depth, p.exponent);
  return p.min_factor;
}

double large_plot_factor(double area, double frontage, const LargePlotParams& p) noexcept {
  return p.coefficient * std::pow(frontage, p.frontage_exponent) * std::pow(area, p.area_exponent);
}

double ross_alpha(double x) noexcept {
  x = std::clamp(x, 0.0, 1.0);
  return (x + x * x) / 2.0;
}

double ross_heidecke(double x, double c) noexcept {
  const double alpha = ross_alpha(x);
  return alpha + (1.0 - alpha) * c;
}

}  // namespace cadastre::valuation
