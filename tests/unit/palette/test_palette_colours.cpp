#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "cadastre/palette.hpp"

using namespace cadastre::palette;

TEST_CASE("a ramp interpolates between its stops, by hand") {
  CHECK(ramp("cinza", 0) == Rgb{0, 0, 0});
  CHECK(ramp("cinza", 1) == Rgb{255, 255, 255});
  CHECK(ramp("cinza", 0.5) == Rgb{128, 128, 128});  // 127.5 rounds half away from zero
  CHECK(ramp("viridis", 0.25) == Rgb{59, 82, 139});  // exactly its second stop of five
  CHECK(ramp("viridis", 0.125) == Rgb{64, 42, 112});  // halfway between the first two
}

TEST_CASE("a ramp clamps t, NaN included, and refuses an unknown name") {
  CHECK(ramp("azul", -1) == Rgb{239, 243, 255});
  CHECK(ramp("azul", std::nan("")) == Rgb{239, 243, 255});
  CHECK(ramp("azul", 2) == Rgb{8, 81, 156});
  CHECK_THROWS_AS(ramp("magma", 0.5), std::invalid_argument);
  CHECK_FALSE(known_ramp("magma"));
  CHECK(known_ramp("espectral"));
  CHECK(ramp_names() == std::vector<std::string>{"cinza", "viridis", "terreno", "calor", "azul", "espectral"});
}

TEST_CASE("ordered classes take the ends of the ramp and spread between them") {
  CHECK(ordered("cinza", 0, 3) == Rgb{0, 0, 0});
  CHECK(ordered("cinza", 1, 3) == Rgb{128, 128, 128});
  CHECK(ordered("cinza", 2, 3) == Rgb{255, 255, 255});
  CHECK(ordered("cinza", 0, 1) == Rgb{255, 255, 255});  // one class: the ramp's end
}

TEST_CASE("the qualitative palette: twelve fixed colours, then golden-angle hues") {
  CHECK(qualitative(0) == Rgb{141, 211, 199});
  CHECK(qualitative(11) == Rgb{255, 237, 111});
  // i = 12: hue 20°, saturation 0.55, lightness 0.48 (HSL → RGB by hand: 189.7, 100.0, 55.1).
  CHECK(qualitative(12) == Rgb{190, 100, 55});
  for (std::size_t i = 0; i + 1 < 200; ++i) CHECK_MESSAGE(qualitative(i) != qualitative(i + 1), i);
}

TEST_CASE("colours are written #rrggbb") {
  CHECK(hex({255, 0, 16}) == "#ff0010");
  CHECK(hex({0, 0, 0}) == "#000000");
}
