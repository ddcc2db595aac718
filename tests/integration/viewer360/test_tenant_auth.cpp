// The viewer's bootstrap: the tenant configuration (own tenant only) and /auth (the user
// of the bearer, their permissions and their tenant, without a {municipio} in the path).
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(
    Fixture,
    "tenant-config answers the caller's own tenant with its configuration, never another's") {
  platform_db(
      R"(update plataforma.tenants set config = '{"mapa": {"zoom": 17}, "visualizador360": {"altura": 2.5}, )"
      R"("rastreador": {"url": "https://issues.alfa.gov.br", "token": "segredo-rastreador"}, )"
      R"("integracao_rest": {"url": "https://db.alfa.gov.br", "token_sha256": "abc123", "token_destino": "segredo-destino"}}' )"
      R"(where slug = 'alfa' returning id)");
  city().app().identity().reload();
  const std::string alfa = platform_db("select id from plataforma.tenants where slug = 'alfa'");
  const std::string beta = platform_db("select id from plataforma.tenants where slug = 'beta'");

  auto a = viewer("tenant-config/" + alfa);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::to_string(int64_t(j["id"])) == alfa);
  CHECK(std::string_view(j["slug"]) == "alfa");
  CHECK(std::string_view(j["fuso_horario"]) ==
        platform_db("select fuso_horario from plataforma.tenants where slug = 'alfa'"));
  CHECK(int64_t(j["config"]["mapa"]["zoom"]) == 17);
  CHECK(a->body.find("dsn") == std::string::npos);  // the database address never leaves
  // Nor the credentials of other systems (service/tenant_config.hpp); their addresses stay.
  for (const char* secret : {"segredo-rastreador", "abc123", "segredo-destino", "token"})
    CHECK_MESSAGE(a->body.find(secret) == std::string::npos, secret);
  CHECK(std::string_view(j["config"]["rastreador"]["url"]) == "https://issues.alfa.gov.br");
  CHECK(double(j["config"]["visualizador360"]["altura"]) == 2.5);

  auto other = viewer("tenant-config/" + beta);
  CHECK(other->status == 403);
  CHECK(other->codigo() == "municipio_nao_permitido");
  CHECK(viewer("tenant-config/999999")->status == 403);
  for (std::string bad : {"abc", "1%20or%201=1", "-1", "0"}) CHECK_MESSAGE(viewer("tenant-config/" + bad)->status == 400, bad);
  CHECK(request("GET", "/visualizador360/alfa/tenant-config/" + alfa,
                Stack::bearer(city().user("beta").token))
            ->status == 403);
}

TEST_CASE_FIXTURE(Fixture, "auth returns the bearer's user, permissions and tenant configuration") {
  auto a = request("GET", "/visualizador360/auth", Stack::bearer(token()));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::string_view(j["usuario"]["email"]) == "usuario@alfa.gov.br");
  CHECK(int64_t(j["usuario"]["id"]) == city().user("alfa").id);
  CHECK_FALSE(bool(j["usuario"]["adm"]));
  CHECK(std::string_view(j["usuario"]["regras"].at(0)["camada"]) == "*");
  CHECK(bool(j["usuario"]["regras"].at(0)["escrita"]));
  CHECK(std::string_view(j["municipio"]["slug"]) == "alfa");
  simdjson::dom::element config;
  CHECK(j["municipio"]["config"].get(config) == simdjson::SUCCESS);

  // A limited user sees their effective permission per layer; beta's user gets beta.
  auto limited = city().add_user("alfa", "v360-auth@alfa.gov.br", {"lote:rw", "panorama:r"});
  auto l = request("GET", "/visualizador360/auth", Stack::bearer(limited.token));
  REQUIRE(l->status == 200);
  std::map<std::string, std::pair<bool, bool>> layers;
  for (auto c : l->json()["usuario"]["camadas"].get_array())
    layers[std::string(std::string_view(c["camada"]))] = {bool(c["leitura"]), bool(c["escrita"])};
  CHECK(layers["lote"] == std::pair{true, true});
  CHECK(layers["panorama"] == std::pair{true, false});
  CHECK(layers["edificacao"] == std::pair{false, false});
  auto b = request("GET", "/visualizador360/auth", Stack::bearer(city().user("beta").token));
  REQUIRE(b->status == 200);
  CHECK(std::string_view(b->json()["municipio"]["slug"]) == "beta");

  auto cli = city().client();
  CHECK(cli.Get("/visualizador360/auth")->status == 401);
  CHECK(request("GET", "/visualizador360/auth", Stack::bearer("token-falso"))->status == 401);
}

TEST_CASE_FIXTURE(Fixture, "the viewer routes are documented in /openapi.json") {
  auto cli = city().client();
  auto r = cli.Get("/openapi.json");
  REQUIRE(r);
  simdjson::dom::parser parser;
  auto paths = parser.parse(r->body).value()["paths"];
  auto radius = paths["/visualizador360/{municipio}/get-panoramas-in-radius/{pano_id}/{distance}/{height_ref}"]["get"];
  CHECK(std::string_view(radius["summary"]).find("±1 m") != std::string_view::npos);
  auto azimuth = paths["/visualizador360/{municipio}/nearest-panorama-and-azimuth/{layer}/{layer_id}"]["get"];
  CHECK(std::string_view(azimuth["summary"]).find("norte") != std::string_view::npos);
  simdjson::dom::element e;
  CHECK(paths["/visualizador360/auth"]["get"].get(e) == simdjson::SUCCESS);
  CHECK(paths["/visualizador360/{municipio}/atts"]["post"].get(e) == simdjson::SUCCESS);
}
