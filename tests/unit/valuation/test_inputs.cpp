// Every invalid input is an Error naming the field — never a silent default.
#include <doctest/doctest.h>

#include <string>

#include "cadastre/valuation.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::valuation;

namespace {

const std::string land_ok =
    R"("area": 300, "frente": 12, "valor_m2": 500, "topografia": "plano", "pedologia": "seco", "situacao": "esquina")";

void land_error(const std::string& extra_or_replacement, errc code, const std::string& field) {
  expect_error([&] { land_value_json(extra_or_replacement); }, code, field);
}

std::string land_with(const std::string& key, const std::string& value) {
  // Rebuilds the valid land input with one member replaced (or removed when value is empty).
  std::string json = "{";
  for (auto [k, v] : {std::pair<std::string, std::string>{"area", "300"},
                      {"frente", "12"},
                      {"valor_m2", "500"},
                      {"topografia", "\"plano\""},
                      {"pedologia", "\"seco\""},
                      {"situacao", "\"esquina\""}}) {
    if (k == key) v = value;
    if (v.empty()) continue;
    if (json.size() > 1) json += ",";
    json += "\"" + k + "\":" + v;
  }
  return json + "}";
}

const std::string building_ok =
    R"("area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c")";

}  // namespace

TEST_CASE("the valid land input used below is accepted") {
  CHECK_NOTHROW(land_value_json("{" + land_ok + "}"));
  CHECK_NOTHROW(land_value_json(land_with("", "")));
}

TEST_CASE("land: non-positive area, frente or profundidade") {
  land_error(land_with("area", "0"), errc::invalid_argument, "area");
  land_error(land_with("area", "-10"), errc::invalid_argument, "area");
  land_error(land_with("frente", "0"), errc::invalid_argument, "frente");
  land_error(land_with("frente", "-1"), errc::invalid_argument, "frente");
  land_error("{" + land_ok + R"(, "profundidade": 0})", errc::invalid_argument, "profundidade");
  land_error(land_with("area", "\"300\""), errc::invalid_argument, "area");
  land_error(land_with("area", ""), errc::missing_field, "area");
  land_error(land_with("frente", ""), errc::missing_field, "frente");
}

TEST_CASE("land: unknown or missing codes") {
  land_error(land_with("topografia", "\"montanha\""), errc::unknown_code, "topografia");
  land_error(land_with("pedologia", "\"pantano\""), errc::unknown_code, "pedologia");
  land_error(land_with("situacao", "\"ilha\""), errc::unknown_code, "situacao");
  land_error(land_with("topografia", ""), errc::missing_field, "topografia");
  land_error(land_with("pedologia", ""), errc::missing_field, "pedologia");
  land_error(land_with("situacao", ""), errc::missing_field, "situacao");
  land_error(land_with("topografia", "\"\""), errc::missing_field, "topografia");
  try {
    land_value_json(land_with("topografia", "\"Plano\""));  // codes are case-sensitive
    FAIL("esperava erro");
  } catch (const Error& e) {
    CHECK(e.code() == errc::unknown_code);
    CHECK(std::string(e.what()).find("declive_ate_5, ") !=
          std::string::npos);  // the message lists known codes
  }
}

TEST_CASE("land: missing, non-positive or ambiguous unit value") {
  land_error(land_with("valor_m2", ""), errc::missing_field, "valor_m2");
  land_error(land_with("valor_m2", "0"), errc::invalid_argument, "valor_m2");
  land_error(land_with("valor_m2", "-5"), errc::invalid_argument, "valor_m2");
  land_error(land_with("valor_m2", "true"), errc::invalid_argument, "valor_m2");
  land_error("{" + land_ok + R"(, "face_quadra": "FQ-1"})", errc::invalid_argument, "face_quadra");
  land_error(land_with("valor_m2", "\"FQ-1\""), errc::unknown_code,
             "valor_m2");  // id not in the profile
  land_error(land_with("valor_m2", "\"\""), errc::invalid_argument, "valor_m2");
  land_error(land_with("valor_m2", "1.5e400"), errc::invalid_json, "");
}

TEST_CASE("land: invalid JSON and non-object input") {
  land_error("{area: 1}", errc::invalid_json, "");
  land_error("[1, 2]", errc::invalid_argument, "entrada");
}

TEST_CASE("land: C++-built inputs are validated too") {
  LandInput in;
  in.area = 300;
  in.frontage = 10;
  in.topography = "plano";
  in.soil = "seco";
  in.situation = "meio_quadra";
  expect_error([&] { land_value(in, Profile::default_profile()); }, errc::missing_field,
               "valor_m2");
  in.unit_value = 100;
  in.unit_value_id = "FQ-1";
  expect_error([&] { land_value(in, Profile::default_profile()); }, errc::invalid_argument,
               "face_quadra");
}

TEST_CASE("construction: invalid area, codes, ages and overrides") {
  auto err = [](const std::string& members, errc code, const std::string& field) {
    expect_error([&] { construction_value_json("{" + members + "}"); }, code, field);
  };
  CHECK_NOTHROW(construction_value_json("{" + building_ok + "}"));
  err(R"("area_construida": 0, "padrao": "R1-N", "idade": 7, "conservacao": "c")",
      errc::invalid_argument, "area_construida");
  err(R"("area_construida": -3, "padrao": "R1-N", "idade": 7, "conservacao": "c")",
      errc::invalid_argument, "area_construida");
  err(R"("padrao": "R1-N", "idade": 7, "conservacao": "c")", errc::missing_field,
      "area_construida");
  err(R"("area_construida": 100, "padrao": "R99", "idade": 7, "conservacao": "c")",
      errc::unknown_code, "padrao");
  err(R"("area_construida": 100, "padrao": "R16-N", "idade": 7, "conservacao": "c")",
      errc::unknown_code, "padrao");
  err(R"("area_construida": 100, "idade": 7, "conservacao": "c")", errc::missing_field, "padrao");
  err(R"("area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "z")",
      errc::unknown_code, "conservacao");
  err(R"("area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "C")",
      errc::unknown_code, "conservacao");
  err(R"("area_construida": 100, "padrao": "R1-N", "idade": 7)", errc::missing_field,
      "conservacao");
  err(R"("area_construida": 100, "padrao": "R1-N", "idade": -1, "conservacao": "c")",
      errc::invalid_argument, "idade");
  err(R"("area_construida": 100, "padrao": "R1-N", "conservacao": "c")", errc::missing_field,
      "idade");
  err(R"("area_construida": 100, "padrao": "R1-N", "idade": 7, "ano_construcao": 2000, "conservacao": "c")",
      errc::invalid_argument, "ano_construcao");
  err(R"("area_construida": 100, "padrao": "R1-N", "ano_construcao": 2030, "ano_referencia": 2020, "conservacao": "c")",
      errc::invalid_argument, "ano_construcao");
  err(R"("area_construida": 100, "padrao": "R1-N", "ano_construcao": 2000.5, "ano_referencia": 2020, "conservacao": "c")",
      errc::invalid_argument, "ano_construcao");
  err(R"("area_construida": 100, "padrao": "R1-N", "ano_construcao": 2000, "conservacao": "c")",
      errc::missing_field, "ano_referencia");
  err(building_ok + R"(, "vida_util": 0)", errc::invalid_argument, "vida_util");
  err(building_ok + R"(, "valor_residual": 1)", errc::invalid_argument, "valor_residual");
  err(building_ok + R"(, "valor_residual": -0.1)", errc::invalid_argument, "valor_residual");
  err(building_ok + R"(, "uso": "hospitalar")", errc::unknown_code, "uso");
  err(building_ok + R"(, "uso": "")", errc::invalid_argument, "uso");
}

TEST_CASE("IPTU: invalid use, land, fraction, constructions and improvements") {
  auto err = [](const std::string& json, errc code, const std::string& field) {
    expect_error([&] { iptu_json(json); }, code, field);
  };
  CHECK_NOTHROW(iptu_json(R"({"uso": "residencial", "valor_terreno": 1000})"));
  err(R"({"uso": "comercial", "valor_terreno": 1000})", errc::unknown_code, "uso");
  err(R"({"valor_terreno": 1000})", errc::missing_field, "uso");
  err(R"({"uso": "residencial"})", errc::missing_field, "valor_terreno");
  err(R"({"uso": "residencial", "valor_terreno": -1})", errc::invalid_argument, "valor_terreno");
  err(R"({"uso": "residencial", "valor_terreno": 1000, "terreno": {)" + land_ok + "}}",
      errc::invalid_argument, "terreno");
  err(R"({"uso": "residencial", "terreno": 5})", errc::invalid_argument, "terreno");
  err(R"({"uso": "residencial", "valor_terreno": 1000, "fracao_ideal": 0})", errc::invalid_argument,
      "fracao_ideal");
  err(R"({"uso": "residencial", "valor_terreno": 1000, "fracao_ideal": 1.01})",
      errc::invalid_argument, "fracao_ideal");
  err(R"({"uso": "residencial", "valor_terreno": 1000, "fracao_ideal": -0.5})",
      errc::invalid_argument, "fracao_ideal");
  err(R"({"uso": "residencial", "valor_terreno": 1000, "construcoes": {}})", errc::invalid_argument,
      "construcoes");
  err(R"({"uso": "residencial", "valor_terreno": 1000, "construcoes": [{"padrao": "R1-N"}]})",
      errc::missing_field, "construcoes[0].area_construida");
  err(R"({"uso": "territorial", "valor_terreno": 1000, "melhoramentos": 1, "construcoes": [5]})",
      errc::invalid_argument, "construcoes");
  err(R"({"uso": "territorial", "valor_terreno": 1000, "melhoramentos": -1})",
      errc::invalid_argument, "melhoramentos");
  err(R"({"uso": "territorial", "valor_terreno": 1000, "melhoramentos": 2.5})",
      errc::invalid_argument, "melhoramentos");
  CHECK_NOTHROW(iptu_json(R"({"uso": "residencial", "valor_terreno": 1000, "fracao_ideal": 1})"));
}

TEST_CASE("an invalid profile given to a JSON entry point is reported as such") {
  expect_error([] { land_value_json("{" + land_ok + "}", R"({"pedologia": {"seco": -1}})"); },
               errc::invalid_argument, "pedologia.seco");
}
