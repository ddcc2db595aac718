#include <doctest/doctest.h>

#include <string>

#include "cadastre/valuation.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::valuation;

TEST_CASE("default profile holds the documented tables") {
  const auto p = Profile::default_profile();
  CHECK_NOTHROW(p.validate());
  CHECK(p.frontage == FrontageParams{10, 5, 20, 0.25});
  CHECK(p.depth == DepthParams{25, 40, 105, 0.6, 0.5});
  CHECK(p.large_plot == LargePlotParams{5000, 5, 0.2, -0.4});
  CHECK(p.topography.size() == 13);
  CHECK(p.topography.at("declive_acima_20") == 0.70);
  CHECK(p.soil.at("alagado_permanente") == 0.60);
  CHECK(p.situation.at("encravado") == 0.70);
  CHECK(p.cub.at("R1-N") == 2074.23);
  CHECK(p.cub.at("GI") == 921.28);
  CHECK_FALSE(p.cub.contains("R16-N"));
  CHECK(p.heidecke.at("h") == 0.7520);
  CHECK(p.useful_life.at("precario") == 10);
  CHECK(p.residual == 0.20);
  CHECK_FALSE(p.reference_year.has_value());
  CHECK(p.unit_values.empty());
  CHECK(p.residential_rate.mode == BandMode::faixa);
  CHECK(p.residential_rate.bands.size() == 3);
  CHECK(p.non_residential_rate == RateSchedule::single(0.016));
  REQUIRE(p.territorial_rate.improvements.has_value());
  CHECK(*p.territorial_rate.improvements == ImprovementRule{3, 0.03});
}

TEST_CASE("profile JSON round trip keeps every value") {
  auto p = Profile::default_profile();
  p.reference_year = 2026;
  p.unit_values = {{"FQ-1", 812.5}, {"Z 2", 0.1 + 0.2}};
  p.non_residential_rate.mode =
      BandMode::marginal;  // a single band with a marginal mode survives too
  auto json = p.to_json();
  CHECK(Profile::from_json(json) == p);
  CHECK(Profile::from_json(json).to_json() == json);
  CHECK(Profile::from_json(Profile::default_profile().to_json()) == Profile::default_profile());
  CHECK(
      json.find(
          R"("residencial":{"modo":"faixa","faixas":[{"ate":350000,"aliquota":0.008},{"ate":500000,"aliquota":0.009},{"aliquota":0.01}]})") !=
      std::string::npos);
  CHECK(json.find(
            R"("territorial":{"aliquota":0.01,"melhoramentos":{"minimo":3,"aliquota":0.03}})") !=
        std::string::npos);
}

TEST_CASE("an empty profile JSON is the default profile") {
  CHECK(Profile::from_json("{}") == Profile::default_profile());
}

TEST_CASE("a partial profile overrides tables key by key; null removes a code") {
  auto p = Profile::from_json(R"({
    "ano_referencia": 2025,
    "situacao": {"esquina": 1.15, "vila": null, "lote_interno": 0.8},
    "cub": {"R16-N": 2100.5},
    "testada": {"referencia": 12},
    "valores_unitarios": {"FQ-7": 950},
    "aliquotas": {"nao_residencial": {"aliquota": 0.015}}
  })");
  CHECK(p.reference_year == 2025);
  CHECK(p.situation.at("esquina") == 1.15);
  CHECK(p.situation.at("meio_quadra") == 1.00);  // untouched default
  CHECK_FALSE(p.situation.contains("vila"));
  CHECK(p.situation.at("lote_interno") == 0.8);
  CHECK(p.cub.at("R16-N") == 2100.5);
  CHECK(p.cub.at("R1-N") == 2074.23);
  CHECK(p.frontage == FrontageParams{12, 5, 20, 0.25});
  CHECK(p.unit_values.at("FQ-7") == 950);
  CHECK(p.non_residential_rate == RateSchedule::single(0.015));
  CHECK(p.residential_rate == Profile::default_profile().residential_rate);
  // A whole use schedule is replaced, including its improvement rule.
  auto q = Profile::from_json(R"({"aliquotas": {"territorial": 0.012}})");
  CHECK(q.territorial_rate == RateSchedule::single(0.012));
  CHECK(Profile::from_json(R"({"ano_referencia": null})").reference_year == std::nullopt);
}

TEST_CASE("profile errors name the JSON path") {
  expect_error([] { Profile::from_json(R"({"situacoes": {}})"); }, errc::unknown_field,
               "situacoes");
  expect_error([] { Profile::from_json(R"({"testada": {"ref": 10}})"); }, errc::unknown_field,
               "testada.ref");
  expect_error([] { Profile::from_json(R"({"testada": {"referencia": 0}})"); },
               errc::invalid_argument, "testada.referencia");
  expect_error([] { Profile::from_json(R"({"testada": {"minima": 30}})"); }, errc::invalid_argument,
               "testada.minima");
  expect_error([] { Profile::from_json(R"({"profundidade": {"limite": 30}})"); },
               errc::invalid_argument, "profundidade.limite");
  expect_error([] { Profile::from_json(R"({"profundidade": {"fator_minimo": 1.5}})"); },
               errc::invalid_argument, "profundidade.fator_minimo");
  expect_error([] { Profile::from_json(R"({"topografia": {"plano": 0}})"); },
               errc::invalid_argument, "topografia.plano");
  expect_error([] { Profile::from_json(R"({"cub": {"R1-N": "caro"}})"); }, errc::invalid_argument,
               "cub.R1-N");
  expect_error([] { Profile::from_json(R"({"heidecke": {"c": 1.2}})"); }, errc::invalid_argument,
               "heidecke.c");
  expect_error([] { Profile::from_json(R"({"vida_util": {"residencial": null}})"); },
               errc::invalid_argument, "uso_padrao");
  expect_error([] { Profile::from_json(R"({"valor_residual": 1})"); }, errc::invalid_argument,
               "valor_residual");
  expect_error([] { Profile::from_json(R"({"ano_referencia": 2025.5})"); }, errc::invalid_argument,
               "ano_referencia");
  expect_error([] { Profile::from_json("[]"); }, errc::invalid_argument, "perfil");
  expect_error([] { Profile::from_json("{"); }, errc::invalid_json, "");
}

TEST_CASE("rate schedules are validated: ascending bands, rates in [0, 1], open last band") {
  auto with = [](const std::string& schedule) {
    return Profile::from_json(R"({"aliquotas": {"residencial": )" + schedule + "}}");
  };
  expect_error(
      [&] {
        with(
            R"({"modo": "faixa", "faixas": [{"ate": 500, "aliquota": 0.01}, {"ate": 400, "aliquota": 0.02}, {"aliquota": 0.03}]})");
      },
      errc::invalid_argument, "aliquotas.residencial.faixas[1].ate");
  expect_error(
      [&] {
        with(
            R"({"modo": "faixa", "faixas": [{"ate": 500, "aliquota": 0.01}, {"ate": 500, "aliquota": 0.02}, {"aliquota": 0.03}]})");
      },
      errc::invalid_argument, "aliquotas.residencial.faixas[1].ate");
  expect_error(
      [&] {
        with(
            R"({"modo": "faixa", "faixas": [{"ate": 500, "aliquota": -0.01}, {"aliquota": 0.03}]})");
      },
      errc::invalid_argument, "aliquotas.residencial.faixas[0].aliquota");
  expect_error(
      [&] {
        with(
            R"({"modo": "faixa", "faixas": [{"ate": 500, "aliquota": 0.01}, {"ate": 900, "aliquota": 0.02}]})");
      },
      errc::invalid_argument, "aliquotas.residencial.faixas[1].ate");
  expect_error(
      [&] { with(R"({"modo": "faixa", "faixas": [{"aliquota": 0.01}, {"aliquota": 0.02}]})"); },
      errc::invalid_argument, "aliquotas.residencial.faixas[0].ate");
  expect_error([&] { with(R"({"modo": "faixa", "faixas": []})"); }, errc::invalid_argument,
               "aliquotas.residencial.faixas");
  expect_error([&] { with(R"({"modo": "progressivo", "faixas": [{"aliquota": 0.01}]})"); },
               errc::invalid_argument, "aliquotas.residencial.modo");
  expect_error([&] { with(R"({"faixas": [{"aliquota": 0.01}]})"); }, errc::missing_field,
               "aliquotas.residencial.modo");
  expect_error([&] { with(R"({"modo": "faixa", "faixas": [{"ate": 10}]})"); }, errc::missing_field,
               "aliquotas.residencial.faixas[0].aliquota");
  expect_error(
      [&] { with(R"({"aliquota": 0.01, "modo": "faixa", "faixas": [{"aliquota": 0.01}]})"); },
      errc::invalid_argument, "aliquotas.residencial");
  expect_error([&] { with("2"); }, errc::invalid_argument, "aliquotas.residencial.aliquota");
  expect_error([&] { with(R"({"taxa": 0.01})"); }, errc::unknown_field,
               "aliquotas.residencial.taxa");
  expect_error(
      [&] { with(R"({"aliquota": 0.01, "melhoramentos": {"minimo": -1, "aliquota": 0.03}})"); },
      errc::invalid_argument, "aliquotas.residencial.melhoramentos.minimo");
  expect_error([&] { with(R"({"aliquota": 0.01, "melhoramentos": {"aliquota": 0.03}})"); },
               errc::missing_field, "aliquotas.residencial.melhoramentos.minimo");
  expect_error([] { Profile::from_json(R"({"aliquotas": {"comercial": 0.01}})"); },
               errc::unknown_field, "aliquotas.comercial");
}

TEST_CASE("uses parse from their JSON spelling") {
  CHECK(parse_use("residencial", "uso") == Use::residencial);
  CHECK(parse_use("nao_residencial", "uso") == Use::nao_residencial);
  CHECK(parse_use("territorial", "uso") == Use::territorial);
  CHECK(to_string(Use::nao_residencial) == "nao_residencial");
  expect_error([] { parse_use("comercial", "uso"); }, errc::unknown_code, "uso");
}
