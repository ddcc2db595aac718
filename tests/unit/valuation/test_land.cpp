#include <doctest/doctest.h>

#include <string>

#include "cadastre/valuation.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::valuation;
using doctest::Approx;

namespace {
LandInput lot(double area, double frente) {
  LandInput in;
  in.area = area;
  in.frontage = frente;
  in.unit_value = 500;
  in.topography = "plano";
  in.soil = "seco";
  in.situation = "meio_quadra";
  return in;
}
}  // namespace

TEST_CASE("land value computed by hand: 300 m2, 12 m, R$500, declive_ate_5, seco, esquina") {
  auto in = LandInput::from_json(
      R"({"area": 300, "frente": 12, "valor_m2": 500, "topografia": "declive_ate_5", "pedologia": "seco",
          "situacao": "esquina"})");
  auto r = land_value(in, Profile::default_profile());
  // Ft = 1.2^0.25 = 1.0466351; Pe = 25 → Fp = 1; VVT = 300 × 500 × 1.0466351 × 1 × 0.95 × 1 × 1.10
  CHECK(r.value == Approx(164060.0581).epsilon(1e-9));
  CHECK(r.kind == "terreno");
  CHECK(*r.value_of("Pe") == 25.0);
  CHECK(*r.value_of("Fe") == 12.0);
  CHECK(*r.value_of("Ft") == Approx(1.0466351));
  CHECK(*r.value_of("Fp") == 1.0);
  CHECK(*r.value_of("Ftopo") == 0.95);
  CHECK(*r.value_of("Fsit") == 1.10);
  CHECK(*r.value_of("VVT") == r.value);
  REQUIRE(r.factor("Fp") != nullptr);
  CHECK(r.factor("Fp")->input == "Pe = area / frente = 25");
  CHECK(r.factor("Fp")->rule == "25 ≤ Pe ≤ 40: 1");
  CHECK(r.factor("Ftopo")->input == "topografia = declive_ate_5");
  CHECK(r.factor("Ft")->rule == "Fe = frente limitada a [5, 20]; Ft = (Fe/10)^0.25");
  CHECK(r.factor("Fg") == nullptr);
}

TEST_CASE("land breakdown names the depth rule that applied") {
  const auto p = Profile::default_profile();
  auto shallow = land_value(lot(100, 10), p);  // Pe 10
  CHECK(shallow.factor("Fp")->value == Approx(0.6325).epsilon(1e-4));
  CHECK(shallow.factor("Fp")->rule == "Pe < 25: (Pe/25)^0.5");
  auto deep = land_value(lot(800, 10), p);  // Pe 80
  CHECK(deep.factor("Fp")->value == Approx(0.7071).epsilon(1e-4));
  CHECK(deep.factor("Fp")->rule == "40 < Pe < 105: (40/Pe)^0.5");
  auto very_deep = land_value(lot(1200, 10), p);  // Pe 120
  CHECK(very_deep.factor("Fp")->value == 0.6);
  CHECK(very_deep.factor("Fp")->rule == "Pe ≥ 105: 0.6");
}

TEST_CASE("an explicit profundidade replaces area / frente") {
  auto in = lot(300, 10);  // Pe would be 30 → Fp 1
  in.depth = 20;
  auto r = land_value(in, Profile::default_profile());
  CHECK(*r.value_of("Pe") == 20.0);
  CHECK(*r.value_of("Fp") == Approx(0.894427191));
  CHECK(r.factor("Fp")->input == "Pe = profundidade = 20");
  CHECK(r.value == Approx(300 * 500 * 0.894427191));
}

TEST_CASE("the frontage clamp shows in the breakdown") {
  auto r = land_value(lot(150, 3), Profile::default_profile());  // Pe 50
  CHECK(*r.value_of("Fe") == 5.0);
  CHECK(*r.value_of("Ft") == Approx(0.8408964));
  CHECK(r.factor("Ft")->input == "frente = 3 (Fe limitada a 5)");
  CHECK(r.value == Approx(150 * 500 * 0.8408964153 * 0.894427191));
}

TEST_CASE("a large plot uses Fg instead of Ft x Fp") {
  auto in = lot(10000, 50);
  in.unit_value = 100;
  auto r = land_value(in, Profile::default_profile());
  CHECK(*r.value_of("Fg") == Approx(0.27464014));
  CHECK(r.value == Approx(274640.1358).epsilon(1e-9));  // 10000 × 100 × Fg
  CHECK(r.factor("Ft") == nullptr);
  CHECK(r.factor("Fp") == nullptr);
  CHECK_FALSE(r.value_of("Pe").has_value());
  CHECK(r.factor("Fg")->rule == "area > 5000: Fg = 5 × frente^0.2 × area^-0.4 (substitui Ft × Fp)");
  CHECK(r.formula.find("Fg") != std::string::npos);
  // 5000 m² exactly is not a large plot (strict threshold).
  auto edge = land_value(lot(5000, 50), Profile::default_profile());
  CHECK(edge.factor("Fg") == nullptr);
  CHECK(edge.factor("Ft") != nullptr);
}

TEST_CASE("unit value resolved through the profile by face_quadra, zona or a text valor_m2") {
  auto p = Profile::default_profile();
  p.unit_values = {{"FQ-12", 800.0}, {"1234", 650.0}, {"Z3", 300.0}};
  auto by_face = LandInput::from_json(
      R"({"area": 300, "frente": 10, "face_quadra": "FQ-12", "topografia": "plano", "pedologia": "seco",
          "situacao": "meio_quadra"})");
  auto r = land_value(by_face, p);
  CHECK(r.value == Approx(300 * 800.0));
  CHECK(r.factor("valor_m2")->input == "face_quadra = FQ-12");
  auto by_int = LandInput::from_json(
      R"({"area": 300, "frente": 10, "face_quadra": 1234, "topografia": "plano", "pedologia": "seco",
          "situacao": "meio_quadra"})");
  CHECK(land_value(by_int, p).value == Approx(300 * 650.0));
  auto by_zone = LandInput::from_json(
      R"({"area": 300, "frente": 10, "zona": "Z3", "topografia": "plano", "pedologia": "seco",
          "situacao": "meio_quadra"})");
  CHECK(land_value(by_zone, p).value == Approx(300 * 300.0));
  auto by_text = LandInput::from_json(
      R"({"area": 300, "frente": 10, "valor_m2": "Z3", "topografia": "plano", "pedologia": "seco",
          "situacao": "meio_quadra"})");
  CHECK(land_value(by_text, p).value == Approx(300 * 300.0));
  // An id the profile does not know is an error, never a default value.
  auto unknown = by_face;
  unknown.unit_value_id = "FQ-99";
  expect_error([&] { land_value(unknown, p); }, errc::unknown_code, "face_quadra");
  expect_error([&] { land_value(by_zone, Profile::default_profile()); }, errc::unknown_code,
               "zona");
}

TEST_CASE("land result JSON carries the value, every factor and the intermediates") {
  auto json = land_value_json(
      R"({"area": 300, "frente": 12, "valor_m2": 500, "topografia": "declive_ate_5", "pedologia": "seco",
          "situacao": "esquina", "inscricao": "01.02.003"})");
  CHECK(json.rfind(R"({"tipo":"terreno","valor":164060.058)", 0) == 0);
  CHECK(
      json.find(
          R"({"nome":"Ft","valor":1.0466351393921056,"entrada":"frente = 12","regra":"Fe = frente limitada a [5, 20]; Ft = (Fe/10)^0.25"})") !=
      std::string::npos);
  CHECK(json.find(R"("intermediarios":{"area":300,"frente":12,"valor_m2":500,"Pe":25,"Fe":12,)") !=
        std::string::npos);
  CHECK(json.find(R"("faixas":[],"componentes":[]})") != std::string::npos);
  // A profile given as JSON changes the result.
  auto custom = land_value_json(
      R"({"area": 300, "frente": 12, "valor_m2": 500, "topografia": "declive_ate_5", "pedologia": "seco",
          "situacao": "esquina"})",
      R"({"situacao": {"esquina": 1.2}})");
  CHECK(custom.rfind(R"({"tipo":"terreno","valor":178974.6)", 0) == 0);
}
