#include "cadastre/palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cadastre::palette {
namespace {

struct Ramp {
  std::string_view name;
  std::vector<Rgb> stops;  // evenly spaced from t = 0 to t = 1
};

// ColorBrewer and matplotlib ramps, by their Portuguese names.
const std::vector<Ramp>& ramps() {
  static const std::vector<Ramp> all = {
      {"cinza", {{0, 0, 0}, {255, 255, 255}}},
      {"viridis", {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}},
      {"terreno", {{51, 51, 153}, {0, 153, 255}, {0, 204, 102}, {255, 255, 153}, {128, 92, 84}, {255, 255, 255}}},
      {"calor", {{255, 255, 178}, {254, 204, 92}, {253, 141, 60}, {240, 59, 32}, {189, 0, 38}}},
      {"azul", {{239, 243, 255}, {189, 215, 231}, {107, 174, 214}, {49, 130, 189}, {8, 81, 156}}},
      {"espectral", {{215, 25, 28}, {253, 174, 97}, {255, 255, 191}, {171, 221, 164}, {43, 131, 186}}},
  };
  return all;
}

// ColorBrewer Set3 with its yellow darkened (pale yellow vanishes on light base maps).
constexpr std::array<Rgb, 12> kQualitative{{{141, 211, 199}, {230, 200, 60}, {190, 186, 218}, {251, 128, 114},
                                             {128, 177, 211}, {253, 180, 98}, {179, 222, 105}, {252, 205, 229},
                                             {150, 150, 150}, {188, 128, 189}, {204, 235, 197}, {255, 237, 111}}};

Rgb from_hsl(double h, double s, double l) {
  auto f = [&](double n) {
    double k = std::fmod(n + h / 30.0, 12.0);
    double a = s * std::min(l, 1 - l);
    return l - a * std::max(-1.0, std::min({k - 3, 9 - k, 1.0}));
  };
  auto byte = [](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  return {byte(f(0)), byte(f(8)), byte(f(4))};
}

}  // namespace

const std::vector<std::string>& ramp_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Ramp& r : ramps()) out.emplace_back(r.name);
    return out;
  }();
  return names;
}

bool known_ramp(std::string_view name) noexcept {
  return std::any_of(ramps().begin(), ramps().end(), [&](const Ramp& r) { return r.name == name; });
}

Rgb ramp(std::string_view name, double t) {
  auto it = std::find_if(ramps().begin(), ramps().end(), [&](const Ramp& r) { return r.name == name; });
  if (it == ramps().end()) throw std::invalid_argument("unknown ramp");
  const auto& stops = it->stops;
  if (!(t > 0)) t = 0;  // also NaN
  if (t > 1) t = 1;
  double at = t * static_cast<double>(stops.size() - 1);
  std::size_t i = std::min(static_cast<std::size_t>(at), stops.size() - 2);
  double u = at - static_cast<double>(i);
  Rgb out{};
  for (std::size_t c = 0; c < 3; ++c)
    out[c] = static_cast<std::uint8_t>(std::lround(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * u));
  return out;
}

Rgb qualitative(std::size_t i) {
  if (i < kQualitative.size()) return kQualitative[i];
  // 137.5° apart: successive hues never repeat and stay far from their neighbours.
  double hue = std::fmod(static_cast<double>(i - kQualitative.size()) * 137.508 + 20.0, 360.0);
  return from_hsl(hue, 0.55, i % 2 ? 0.62 : 0.48);
}

Rgb ordered(std::string_view ramp_name, std::size_t k, std::size_t n) {
  return ramp(ramp_name, n <= 1 ? 1.0 : static_cast<double>(k) / static_cast<double>(n - 1));
}

std::string hex(const Rgb& c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

}  // namespace cadastre::palette
