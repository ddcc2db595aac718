#include <doctest/doctest.h>

#include <string>

#include "cadastre/valuation.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::valuation;
using doctest::Approx;

TEST_CASE("construction value computed by hand: 100 m2 R1-N, 7 of 70 years, state c") {
  auto in = ConstructionInput::from_json(
      R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})");
  auto r = construction_value(in, Profile::default_profile());
  // x = 0.1, α = 0.055, d = 0.055 + 0.945 × 0.0252 = 0.078814,
  // Foc = 0.2 + 0.8 × (1 − 0.078814) = 0.9369488, VVE = 100 × 2074.23 × Foc
  CHECK(*r.value_of("x") == Approx(0.1));
  CHECK(*r.value_of("alpha") == Approx(0.055));
  CHECK(*r.value_of("c") == 0.0252);
  CHECK(*r.value_of("d") == Approx(0.078814));
  CHECK(*r.value_of("Foc") == Approx(0.9369488));
  CHECK(*r.value_of("vida_util") == 70.0);  // residencial, the profile's default use class
  CHECK(r.value == Approx(194344.7309424).epsilon(1e-10));
  CHECK(r.kind == "construcao");
  CHECK(r.factor("CUB")->input == "padrao = R1-N");
  CHECK(r.factor("vida_util")->input == "uso_padrao = residencial (perfil)");
  CHECK(r.factor("c")->rule == "Heidecke: estado c (regular)");
  CHECK(r.factor("Foc")->rule == "Foc = R + (1 − R) × (1 − d)");
  CHECK(r.factor("R")->input == "valor_residual = 0.2 (perfil)");
}

TEST_CASE("age from ano_construcao and ano_referencia, useful life from the use class") {
  auto in = ConstructionInput::from_json(
      R"({"area_construida": 80, "padrao": "R1-B", "ano_construcao": 2000, "ano_referencia": 2020,
          "conservacao": "e", "uso": "comercial"})");
  auto r = construction_value(in, Profile::default_profile());
  // idade 20, vida 60 → x = 1/3, α = 2/9, d = 2/9 + 7/9 × 0.181 = 0.363, Foc = 0.7096
  CHECK(*r.value_of("idade") == 20.0);
  CHECK(*r.value_of("vida_util") == 60.0);
  CHECK(*r.value_of("d") == Approx(0.363));
  CHECK(*r.value_of("Foc") == Approx(0.7096));
  CHECK(r.value == Approx(102182.4));  // 80 × 1800 × 0.7096
  CHECK(r.factor("idade")->input == "ano_construcao = 2000; ano_referencia = 2020");
  CHECK(r.factor("idade")->rule == "idade = ano_referencia − ano_construcao");
  CHECK(r.factor("vida_util")->input == "uso = comercial");
}

TEST_CASE("the profile's reference year counts the age when the input has none") {
  auto p = Profile::default_profile();
  ConstructionInput in;
  in.built_area = 80;
  in.standard = "R1-B";
  in.construction_year = 2000;
  in.conservation = "e";
  in.use_class = "comercial";
  // The default profile has no reference year: an error, not a guess from the clock.
  expect_error([&] { construction_value(in, p); }, errc::missing_field, "ano_referencia");
  p.reference_year = 2020;
  auto r = construction_value(in, p);
  CHECK(*r.value_of("idade") == 20.0);
  CHECK(r.factor("idade")->input == "ano_construcao = 2000; ano_referencia = 2020 (perfil)");
  p.reference_year = 1999;
  expect_error([&] { construction_value(in, p); }, errc::invalid_argument, "ano_construcao");
}

TEST_CASE("explicit vida_util and valor_residual override the profile") {
  auto in = ConstructionInput::from_json(
      R"({"area_construida": 50, "padrao": "GI", "idade": 25, "vida_util": 50, "valor_residual": 0.1,
          "conservacao": "a"})");
  auto r = construction_value(in, Profile::default_profile());
  // x = 0.5, α = 0.375, c = 0 → d = 0.375, Foc = 0.1 + 0.9 × 0.625 = 0.6625
  CHECK(*r.value_of("d") == Approx(0.375));
  CHECK(*r.value_of("Foc") == Approx(0.6625));
  CHECK(r.value == Approx(50 * 921.28 * 0.6625));
  CHECK(r.factor("vida_util")->rule == "informada na entrada");
  CHECK(r.factor("R")->rule == "informado na entrada");
}

TEST_CASE("a building older than its useful life keeps only the residual value") {
  auto in = ConstructionInput::from_json(
      R"({"area_construida": 100, "padrao": "R1-N", "idade": 100, "conservacao": "c"})");
  auto r = construction_value(in, Profile::default_profile());
  CHECK(*r.value_of("x") == 1.0);
  CHECK(*r.value_of("d") == 1.0);
  CHECK(*r.value_of("Foc") == Approx(0.2));
  CHECK(r.value == Approx(41484.6));  // 100 × 2074.23 × 0.2
}

TEST_CASE("construction JSON entry point renders the full breakdown") {
  auto json = construction_value_json(
      R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})");
  CHECK(json.rfind(R"({"tipo":"construcao","valor":194344.730942)", 0) == 0);
  for (auto name : {"CUB", "idade", "vida_util", "x", "alpha", "c", "d", "R", "Foc"}) {
    CAPTURE(name);
    CHECK(json.find(std::string(R"({"nome":")") + name + "\"") != std::string::npos);
  }
  CHECK(json.find(R"("VVE":194344.730942)") != std::string::npos);
}
