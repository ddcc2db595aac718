// The check values of docs/valuation.md, reproduced through HTTP.
#include "fixture.hpp"

using namespace cadastre::test;
using doctest::Approx;

TEST_CASE_FIXTURE(
    Fixture,
    "depth factor check values: Pe 10, 20, 50, 80 give Fp 0.6325, 0.8944, 0.8944, 0.7071") {
  struct Case {
    double area, frente, fp;
    const char* rule;
  };
  for (const Case& c : {Case{100, 10, 0.6325, "Pe < 25: (Pe/25)^0.5"}, Case{200, 10, 0.8944, "Pe < 25: (Pe/25)^0.5"},
                        Case{500, 10, 0.8944, "40 < Pe < 105: (40/Pe)^0.5"},
                        Case{800, 10, 0.7071, "40 < Pe < 105: (40/Pe)^0.5"}}) {
    CAPTURE(c.area);
    auto a = post_as_client("alfa", land_path("alfa"), lot_json(c.area, c.frente));
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(intermediate(*a, "Pe") == Approx(c.area / c.frente));
    CHECK(intermediate(*a, "Fp") == Approx(c.fp).epsilon(1e-4));
    CHECK(number(*a, "valor") == Approx(c.area * 500 * c.fp).epsilon(1e-4));
    bool rule_found = false;
    for (auto f : a->json()["fatores"].get_array())
      if (std::string_view(f["nome"]) == "Fp") rule_found = std::string_view(f["regra"]) == c.rule;
    CHECK(rule_found);
  }
}

TEST_CASE_FIXTURE(
    Fixture,
    "large plot check value: 10,000 m2 with 50 m of front gives Fg 0.2746 instead of Ft x Fp") {
  auto a = post_as_client("alfa", land_path("alfa"), lot_json(10000, 50));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(intermediate(*a, "Fg") == Approx(0.2746).epsilon(1e-4));
  CHECK(number(*a, "valor") == Approx(10000 * 500 * 0.27464014).epsilon(1e-6));
  CHECK(a->body.find("\"nome\":\"Ft\"") == std::string::npos);
  CHECK(a->body.find("\"nome\":\"Fp\"") == std::string::npos);
}

TEST_CASE_FIXTURE(
    Fixture,
    "land value computed by hand: 300 m2, 12 m, R$500, declive_ate_5, esquina → 164060.0581") {
  const std::string body = R"({"area": 300, "frente": 12, "valor_m2": 500, "topografia": "declive_ate_5",
                               "pedologia": "seco", "situacao": "esquina", "inscricao": "01.02.003"})";
  auto a = post_as_client("alfa", land_path("alfa"), body);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->text("tipo") == "terreno");
  // Ft = 1.2^0.25; Pe = 25 → Fp 1; Ftopo 0.95; Fsit 1.10.
  CHECK(number(*a, "valor") == Approx(300 * 500 * 1.0466351393921056 * 0.95 * 1.10).epsilon(1e-12));
  CHECK(number(*a, "valor") == Approx(164060.0581).epsilon(1e-9));
  CHECK(intermediate(*a, "Ftopo") == 0.95);
  CHECK(intermediate(*a, "Fsit") == 1.10);
  CHECK(a->body.find(R"("entrada":"topografia = declive_ate_5")") != std::string::npos);
  CHECK(a->content_type.starts_with("application/json"));
}

TEST_CASE_FIXTURE(
    Fixture, "Ross-Heidecke check values: x 0.10 state c → d 0.0788; x 0.50 state e → d 0.4881") {
  // 7 of the 70 years of a residential building: x = 0.1.
  auto c = post_as_client(
      "alfa", construction_path("alfa"),
      R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})");
  REQUIRE_MESSAGE(c->status == 200, c->body);
  CHECK(c->text("tipo") == "construcao");
  CHECK(intermediate(*c, "x") == Approx(0.10));
  CHECK(intermediate(*c, "d") == Approx(0.0788).epsilon(1e-3));
  CHECK(number(*c, "valor") == Approx(194344.7309424).epsilon(1e-10));  // 100 × 2074.23 × Foc 0.9369488
  auto e = post_as_client(
      "alfa", construction_path("alfa"),
      R"({"area_construida": 100, "padrao": "R1-N", "idade": 35, "conservacao": "e"})");
  REQUIRE_MESSAGE(e->status == 200, e->body);
  CHECK(intermediate(*e, "x") == Approx(0.50));
  CHECK(intermediate(*e, "d") == Approx(0.4881).epsilon(1e-3));
  const double foc = 0.2 + 0.8 * (1 - (0.375 + 0.625 * 0.181));
  CHECK(number(*e, "valor") == Approx(100 * 2074.23 * foc).epsilon(1e-10));
}

TEST_CASE_FIXTURE(
    Fixture,
    "default useful lives and the default CUB table come through: comercial 60, industrial 50") {
  auto com = post_as_client(
      "alfa", construction_path("alfa"),
      R"({"area_construida": 80, "padrao": "R1-B", "ano_construcao": 2000, "ano_referencia": 2020,
                      "conservacao": "e", "uso": "comercial"})");
  REQUIRE_MESSAGE(com->status == 200, com->body);
  CHECK(intermediate(*com, "vida_util") == 60.0);
  CHECK(number(*com, "valor") == Approx(102182.4));  // 80 × 1800 × 0.7096
  auto ind = post_as_client(
      "alfa", construction_path("alfa"),
      R"({"area_construida": 50, "padrao": "GI", "idade": 10, "conservacao": "a", "uso": "industrial"})");
  REQUIRE_MESSAGE(ind->status == 200, ind->body);
  CHECK(intermediate(*ind, "vida_util") == 50.0);
  CHECK(intermediate(*ind, "CUB") == 921.28);
}

TEST_CASE_FIXTURE(
    Fixture,
    "the tenant's stored profile replaces the default: gama prices esquina 1.20 and R1-N 3000") {
  const std::string lot = R"({"area": 300, "frente": 12, "valor_m2": 500, "topografia": "declive_ate_5",
                              "pedologia": "seco", "situacao": "esquina"})";
  auto gama = post_as_client("gama", land_path("gama"), lot);
  REQUIRE_MESSAGE(gama->status == 200, gama->body);
  CHECK(number(*gama, "valor") == Approx(300 * 500 * 1.0466351393921056 * 0.95 * 1.20).epsilon(1e-12));
  auto alfa = post_as_client("alfa", land_path("alfa"), lot);
  CHECK(number(*alfa, "valor") == Approx(164060.0581).epsilon(1e-9));
  auto built = post_as_client(
      "gama", construction_path("gama"),
      R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})");
  REQUIRE_MESSAGE(built->status == 200, built->body);
  CHECK(number(*built, "valor") == Approx(100 * 3000 * 0.9369488).epsilon(1e-7));
}

TEST_CASE_FIXTURE(Fixture, "invalid valuation input is a 400 naming the field") {
  struct Case {
    const char* path_kind;
    std::string body;
    const char* codigo;
  };
  const std::vector<Case> cases = {
      {"terreno", lot_json(300, 0), "parametro_invalido"},
      {"terreno", R"({"area": 300, "frente": 10, "valor_m2": 500, "topografia": "montanha", "pedologia": "seco",
                      "situacao": "esquina"})", "codigo_desconhecido"},
      {"terreno", R"({"area": 300, "frente": 10, "topografia": "plano", "pedologia": "seco", "situacao": "esquina"})",
       "campo_obrigatorio"},
      {"terreno", "{not json", "json_invalido"},
      {"terreno", "", "json_invalido"},
      {"construcao", R"({"area_construida": 100, "padrao": "XYZ", "idade": 7, "conservacao": "c"})",
       "codigo_desconhecido"},
      {"construcao", R"({"area_construida": 100, "padrao": "R1-N", "idade": -1, "conservacao": "c"})",
       "parametro_invalido"},
      {"construcao", R"({"area_construida": 100, "padrao": "R1-N", "ano_construcao": 2000, "conservacao": "c"})",
       "campo_obrigatorio"},  // no ano_referencia in the input nor in the default profile
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    auto a = post_as_client(
        "alfa", std::string("/equacao/calculo/alfa/") + c.path_kind + "/calcularvalor/", c.body);
    CHECK(a->status == 400);
    CHECK(a->codigo() == c.codigo);
  }
}
