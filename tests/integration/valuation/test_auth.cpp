// The valuation bearer scheme: API clients of scope 'avaliacao', bound to one tenant.
#include "fixture.hpp"

using namespace cadastre::test;
using namespace cadastre;

namespace {
const std::string kLot = lot_json(300, 10);
const std::string kBuilt = R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})";
}  // namespace

TEST_CASE_FIXTURE(Fixture, "valuation routes accept the tenant's valuation token on both routes") {
  CHECK(post_as_client("alfa", land_path("alfa"), kLot)->status == 200);
  CHECK(post_as_client("alfa", construction_path("alfa"), kBuilt)->status == 200);
  CHECK(post_as_client("beta", land_path("beta"), kLot)->status == 200);
  // Only the SHA-256 of the token is stored, and its use is recorded.
  const std::string& token = vstack().tokens.at("alfa");
  CHECK(platform_db("select count(*) from plataforma.clientes_api where segredo_hash = '" +
                    store::sha256_hex(token) +
                    "' and escopo = 'avaliacao' and usuario is null and ultimo_uso is not null") ==
        "1");
  CHECK(platform_db("select count(*) from plataforma.clientes_api where segredo_hash = '" + token +
                    "'") == "0");
}

TEST_CASE_FIXTURE(Fixture,
                  "a missing or wrong valuation credential is a 401 with a Bearer challenge") {
  for (const auto& path : {land_path("alfa"), construction_path("alfa")}) {
    auto cli = vstack().stack.client();
    auto none = answer(cli.Post(path, kLot, "application/json"), "sem credencial");
    CHECK(none->status == 401);
    CHECK(none->codigo() == "nao_autenticado");
    CHECK(none->header("WWW-Authenticate") == "Bearer");
    auto wrong = post_as(std::string(64, 'a'), path, kLot);
    CHECK(wrong->status == 401);
    CHECK(wrong->header("WWW-Authenticate") == "Bearer");
    CHECK(post_as("not-a-token", path, kLot)->status == 401);
    auto basic =
        request("POST", path, {{"Authorization", "Basic " + store::base64_encode("a:b")}}, kLot);
    CHECK(basic->status == 401);
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "a user session token of the main scheme is not a valuation credential") {
  auto a = post_as(vstack().stack.user("alfa").token, land_path("alfa"), kLot);
  CHECK(a->status == 401);
  CHECK(a->codigo() == "nao_autenticado");
  // Nor is a valuation token a user token: the main scheme refuses it.
  auto cli = vstack().stack.client();
  auto main_scheme = answer(cli.Get("/geo/alfa/usuarios/permissoes/", Stack::bearer(vstack().tokens.at("alfa"))), "geo");
  CHECK(main_scheme->status == 401);
}

TEST_CASE_FIXTURE(Fixture, "a valuation token of tenant A is refused on tenant B with 403") {
  auto a = post_as_client("alfa", land_path("beta"), kLot);
  CHECK(a->status == 403);
  CHECK(a->codigo() == "municipio_nao_permitido");
  CHECK(post_as_client("beta", construction_path("alfa"), kBuilt)->status == 403);
  CHECK(post_as_client("alfa", land_path("inexistente"), kLot)->status == 403);
}

TEST_CASE_FIXTURE(Fixture, "a client of another scope or a deactivated client is refused") {
  store::ApiClients clients(vstack().stack.app().identity().pool(), std::chrono::milliseconds(0));
  auto integration = clients.add({"alfa", "Integração", "integracao", "", ""});
  CHECK(post_as(integration.secret, land_path("alfa"), kLot)->status == 401);
  auto revoked = clients.add({"alfa", "Revogado", "avaliacao", "", ""});
  platform_db(
      "update plataforma.clientes_api set ativo = false where nome = 'Revogado' returning id");
  // A fresh server-side lookup (this token was never cached) sees the deactivation.
  CHECK(post_as(revoked.secret, land_path("alfa"), kLot)->status == 401);
}

TEST_CASE_FIXTURE(
    Fixture,
    "issuing clients validates scope, usuario and password; issuing again replaces the secret") {
  store::ApiClients clients(vstack().stack.app().identity().pool(), std::chrono::milliseconds(0));
  CHECK_THROWS_AS(clients.add({"alfa", "X", "desconhecido", "", ""}), Error);
  CHECK_THROWS_AS(clients.add({"alfa", "X", "provas_digitais", "", ""}), Error);
  CHECK_THROWS_AS(clients.add({"alfa", "X", "avaliacao", "usuario", ""}), Error);
  CHECK_THROWS_AS(clients.add({"alfa", "X", "provas_digitais", "u1", "curta"}), Error);
  CHECK_THROWS_AS(clients.add({"nenhum", "X", "avaliacao", "", ""}), Error);
  auto first = clients.add({"alfa", "Reemitido", "avaliacao", "", ""});
  auto second = clients.add({"alfa", "Reemitido", "avaliacao", "", ""});
  CHECK(first.id == second.id);
  CHECK(first.secret != second.secret);
  CHECK(post_as(second.secret, land_path("alfa"), kLot)->status == 200);
  CHECK(post_as(first.secret, land_path("alfa"), kLot)->status == 401);
}

TEST_CASE_FIXTURE(Fixture,
                  "the OpenAPI document declares the valuation and basic schemes on their routes") {
  auto cli = vstack().stack.client();
  auto doc = answer(cli.Get("/openapi.json"), "openapi");
  REQUIRE(doc->status == 200);
  auto schemes = doc->json()["components"]["securitySchemes"];
  CHECK(std::string_view(schemes["valuation"]["scheme"]) == "bearer");
  CHECK(std::string_view(schemes["basic"]["scheme"]) == "basic");
  auto land = doc->json()["paths"]["/equacao/calculo/{municipio}/terreno/calcularvalor/"]["post"];
  CHECK(simdjson::minify(land["security"]) == R"([{"valuation":[]}])");
}
