// Colours of map styles: a qualitative palette for classes of distinct values, and named
// ramps for ordered classes and rasters (the platform's POST /camadas/categorizar and
// GET /estilizarRaster). Pure functions; colours as "#rrggbb".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::palette {

using Rgb = std::array<std::uint8_t, 3>;

/// The ramp names a client may ask for ("cinza", "viridis", "terreno", "calor", "azul",
/// "espectral").
const std::vector<std::string>& ramp_names();
bool known_ramp(std::string_view name) noexcept;

/// The colour of `ramp` at t in [0, 1] (clamped), interpolated between its stops.
/// std::invalid_argument for an unknown name (callers check known_ramp first).
Rgb ramp(std::string_view name, double t);

/// The i-th colour of the qualitative palette (i from 0): twelve well-separated colours,
/// then further hues spread by the golden angle so that neighbours stay distinct.
Rgb qualitative(std::size_t i);

/// The colour of class k of n ordered classes on `ramp` (first and last at its ends).
Rgb ordered(std::string_view ramp_name, std::size_t k, std::size_t n);

/// "#rrggbb".
std::string hex(const Rgb& c);

/// Colours of the classes that hold no value and of those lumped together.
inline constexpr const char* kNoValue = "#bdbdbd";
inline constexpr const char* kOthers = "#737373";

}  // namespace cadastre::palette
