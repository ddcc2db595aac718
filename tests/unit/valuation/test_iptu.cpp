#include <doctest/doctest.h>

#include <string>

#include "cadastre/valuation.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::valuation;
using doctest::Approx;

namespace {

Result tax(Use use, double land, std::optional<int> improvements = std::nullopt,
           const Profile& p = Profile::default_profile()) {
  IptuInput in;
  in.use = use;
  in.land_value = land;
  in.improvements = improvements;
  return iptu(in, p);
}

Profile marginal_profile() {
  return Profile::from_json(
      R"({"aliquotas": {"residencial": {"modo": "marginal", "faixas": [
           {"ate": 350000, "aliquota": 0.008}, {"ate": 500000, "aliquota": 0.009}, {"aliquota": 0.01}]}}})");
}

}  // namespace

TEST_CASE("faixa mode: the whole value at the rate of its band, edges inclusive") {
  CHECK(tax(Use::residencial, 300000).value == Approx(2400));           // 0.8%
  CHECK(tax(Use::residencial, 350000).value == Approx(2800));           // on the edge: still 0.8%
  CHECK(tax(Use::residencial, 350000.01).value == Approx(3150.00009));  // 0.9% of all
  CHECK(tax(Use::residencial, 500000).value == Approx(4500));           // edge: 0.9%
  CHECK(tax(Use::residencial, 600000).value == Approx(6000));           // above the top band: 1.0%
  auto r = tax(Use::residencial, 400000);
  CHECK(*r.value_of("aliquota") == 0.009);
  REQUIRE(r.bands.size() == 1);
  CHECK(r.bands[0].from == 350000);
  CHECK(r.bands[0].to == 500000.0);
  CHECK(r.bands[0].rate == 0.009);
  CHECK(r.bands[0].base == 400000);
  CHECK(r.bands[0].tax == Approx(3600));
  CHECK(r.factor("aliquota")->rule == "faixa: 350000 < VVI ≤ 500000 → 0.9% sobre todo o VVI");
  CHECK(r.factor("aliquota")->input == "uso = residencial; VVI = 400000");
  CHECK(tax(Use::residencial, 100).factor("aliquota")->rule ==
        "faixa: VVI ≤ 350000 → 0.8% sobre todo o VVI");
  CHECK(tax(Use::residencial, 7e5).factor("aliquota")->rule ==
        "faixa: VVI > 500000 → 1% sobre todo o VVI");
}

TEST_CASE("marginal mode: each slice at its band's rate") {
  const auto p = marginal_profile();
  CHECK(tax(Use::residencial, 300000, {}, p).value == Approx(2400));
  CHECK(tax(Use::residencial, 350000, {}, p).value == Approx(2800));
  CHECK(tax(Use::residencial, 500000, {}, p).value == Approx(4150));  // 2800 + 150000 × 0.9%
  auto r = tax(Use::residencial, 600000, {}, p);                      // + 100000 × 1%
  CHECK(r.value == Approx(5150));
  REQUIRE(r.bands.size() == 3);
  CHECK(r.bands[0] == BandTax{0, 350000.0, 0.008, 350000, 2800});
  CHECK(r.bands[1].base == Approx(150000));
  CHECK(r.bands[1].tax == Approx(1350));
  CHECK(r.bands[2].from == 500000);
  CHECK_FALSE(r.bands[2].to.has_value());
  CHECK(r.bands[2].tax == Approx(1000));
  CHECK(*r.value_of("IPTU_faixa_1") == Approx(2800));
  CHECK(*r.value_of("IPTU_faixa_2") == Approx(1350));
  CHECK(*r.value_of("IPTU_faixa_3") == Approx(1000));
  CHECK(*r.value_of("aliquota_faixa_3") == 0.01);
  CHECK(*r.value_of("aliquota_efetiva") == Approx(5150.0 / 600000));
  CHECK(r.factor("aliquota_faixa_2")->rule ==
        "marginal: 350000 < VVI ≤ 500000 → 0.9% sobre a parcela");
  // On an edge only the bands reached are listed.
  CHECK(tax(Use::residencial, 350000, {}, p).bands.size() == 1);
  CHECK(tax(Use::residencial, 0, {}, p).value == 0.0);
}

TEST_CASE("territorial: 1% below 3 public improvements, 3% from 3 on") {
  CHECK(tax(Use::territorial, 200000, 0).value == Approx(2000));
  CHECK(tax(Use::territorial, 200000, 2).value == Approx(2000));
  auto three = tax(Use::territorial, 200000, 3);
  CHECK(three.value == Approx(6000));
  CHECK(*three.value_of("aliquota") == 0.03);
  CHECK(three.factor("aliquota")->input == "uso = territorial; melhoramentos = 3");
  CHECK(three.factor("aliquota")->rule == "melhoramentos ≥ 3 → 3%");
  CHECK(tax(Use::territorial, 200000, 7).value == Approx(6000));
  CHECK(tax(Use::territorial, 200000, 1).factor("aliquota")->rule ==
        "alíquota única: 1% (melhoramentos < 3)");
  // The rate triples with the improvements, so their number is required.
  expect_error([] { tax(Use::territorial, 200000); }, errc::missing_field, "melhoramentos");
}

TEST_CASE("non-residential single rate 1.6%") {
  auto r = tax(Use::nao_residencial, 100000);
  CHECK(r.value == Approx(1600));
  CHECK(r.factor("aliquota")->rule == "alíquota única: 1.6%");
}

TEST_CASE("VVI = VVT x fracao_ideal + sum of VVE") {
  auto in = IptuInput::from_json(
      R"({"uso": "residencial", "valor_terreno": 400000, "fracao_ideal": 0.25, "construcoes": [100000, 50000]})");
  auto r = iptu(in, Profile::default_profile());
  CHECK(*r.value_of("VVT_fracao") == Approx(100000));
  CHECK(*r.value_of("VVE_1") == 100000);
  CHECK(*r.value_of("VVE_2") == 50000);
  CHECK(*r.value_of("VVE") == 150000);
  CHECK(*r.value_of("VVI") == Approx(250000));
  CHECK(r.value == Approx(2000));  // 0.8%
  CHECK(*r.value_of("IPTU") == r.value);
}

TEST_CASE("IPTU with land and constructions computed from nested inputs") {
  auto in = IptuInput::from_json(R"({
    "uso": "residencial",
    "terreno": {"area": 300, "frente": 12, "valor_m2": 500, "topografia": "declive_ate_5",
                "pedologia": "seco", "situacao": "esquina"},
    "construcoes": [{"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"}]
  })");
  auto r = iptu(in, Profile::default_profile());
  // VVT 164060.0581 + VVE 194344.7309 = 358404.7890 → band 0.9%
  CHECK(*r.value_of("VVI") == Approx(358404.7890421));
  CHECK(r.value == Approx(358404.7890421 * 0.009));
  REQUIRE(r.components.size() == 2);
  CHECK(r.components[0].kind == "terreno");
  CHECK(r.components[1].kind == "construcao");
  auto json = r.to_json();
  CHECK(json.find(R"("componentes":[{"tipo":"terreno")") != std::string::npos);
  CHECK(json.find(R"("faixas":[{"de":350000,"ate":500000,"aliquota":0.009,"base":358404.789)") !=
        std::string::npos);
}

TEST_CASE("errors inside nested inputs name the path of the field") {
  expect_error(
      [] {
        iptu_json(R"({"uso": "residencial", "terreno": {"area": 300, "frente": 0, "valor_m2": 500,
                     "topografia": "plano", "pedologia": "seco", "situacao": "esquina"}})");
      },
      errc::invalid_argument, "terreno.frente");
  expect_error(
      [] {
        iptu_json(R"({"uso": "residencial", "valor_terreno": 1000, "construcoes": [
                     {"area_construida": 10, "padrao": "R1-N", "idade": 1, "conservacao": "c"},
                     {"area_construida": 10, "padrao": "XYZ", "idade": 1, "conservacao": "c"}]})");
      },
      errc::unknown_code, "construcoes[1].padrao");
  expect_error(
      [] {
        iptu_json(R"({"uso": "residencial", "terreno": {"area": 300, "frente": 10, "valor_m2": 500,
                     "topografia": "montanha", "pedologia": "seco", "situacao": "esquina"}})");
      },
      errc::unknown_code, "terreno.topografia");
  expect_error(
      [] { iptu_json(R"({"uso": "residencial", "valor_terreno": 1000, "construcoes": ["x"]})"); },
      errc::invalid_argument, "construcoes[0]");
  expect_error(
      [] { iptu_json(R"({"uso": "residencial", "valor_terreno": 1000, "construcoes": [-5]})"); },
      errc::invalid_argument, "construcoes[0]");
}

TEST_CASE("IPTU JSON entry point uses the given profile") {
  auto json = iptu_json(R"({"uso": "nao_residencial", "valor_terreno": 100000})",
                        R"({"aliquotas": {"nao_residencial": 0.02}})");
  CHECK(json.rfind(R"({"tipo":"iptu","valor":2000,)", 0) == 0);
  CHECK(
      json.find(R"("faixas":[{"de":0,"ate":null,"aliquota":0.02,"base":100000,"imposto":2000}])") !=
      std::string::npos);
}
