// Helpers shared by the geostat sources (not installed).
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::geostat::detail {

[[noreturn]] inline void bad(std::string msg, std::string field) {
  throw Error(errc::invalid_argument, std::move(msg), std::move(field));
}

inline std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace cadastre::geostat::detail

namespace cadastre::geostat::detail {

/// Squared distance from a sample at (sx, sy) to (x, y). The scan and the NeighbourIndex
/// both use this one expression, so they see the same d² and break ties the same way.
inline double dist2(double sx, double sy, double x, double y) {
  const double dx = sx - x, dy = sy - y;
  return dx * dx + dy * dy;
}

/// maxdist² (∞ stays ∞).
inline double maxdist2(double maxdist) {
  return std::isfinite(maxdist) ? maxdist * maxdist : std::numeric_limits<double>::infinity();
}

}  // namespace cadastre::geostat::detail
