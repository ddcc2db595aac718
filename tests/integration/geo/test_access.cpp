// Auth, per-layer read permission and tenant isolation on the /geo intersection and
// relationship routes, and their OpenAPI entries.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
const std::string kPoint = "wkt=" + url("POINT(-47.0608 -22.9056)");
const std::string kBody = R"({"geometria": {"type": "Point", "coordinates": [-47.0608, -22.9056]}, "camadas": ["lote", "edificacao"]})";
}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "another tenant's token is refused with 403 on every geo route, and no token with 401") {
  const std::string beta = city().user("beta").token;
  for (const std::string& path : std::vector<std::string>{"/geo/alfa/lote/intersect?" + kPoint, "/geo/alfa/filtro_relacionamentos/1",
                                                          "/geo/alfa/filtro_relacionamentos/edificacao/1"}) {
    auto a = get(path, beta);
    CHECK_MESSAGE(a->status == 403, path);
    CHECK(a->codigo() == "municipio_nao_permitido");
    auto cli = city().client();
    CHECK(cli.Get(path)->status == 401);
  }
  auto b = post("/geo/alfa/camadas/intersect/", kBody, beta);
  CHECK(b->status == 403);
  CHECK(b->codigo() == "municipio_nao_permitido");
  auto cli = city().client();
  CHECK(cli.Post("/geo/alfa/camadas/intersect/", kBody, "application/json")->status == 401);
  // The same token is fine on its own tenant (which has no demo data, but the same layers).
  auto own = post("/geo/beta/camadas/intersect/", kBody, beta);
  CHECK(own->status == 200);
  CHECK(int64_t(own->json()["camadas"]["lote"]["total"]) == 0);
}

TEST_CASE_FIXTURE(Fixture, "geo routes need read permission on every layer they read") {
  auto reader = city().add_user("alfa", "so-lote-geo@alfa.gov.br", {"lote:r"});
  CHECK(get("/geo/alfa/lote/intersect?" + kPoint, reader.token)->status == 200);
  auto denied = get("/geo/alfa/edificacao/intersect?" + kPoint, reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(post("/geo/alfa/camadas/intersect/", kBody, reader.token)->status == 403);
  CHECK(get("/geo/alfa/filtro_relacionamentos/edificacao/1", reader.token)->status == 403);
  // The summary shows only the layers the caller may read.
  auto summary = get("/geo/alfa/filtro_relacionamentos/1", reader.token);
  REQUIRE_MESSAGE(summary->status == 200, summary->body);
  simdjson::dom::element none;
  CHECK(summary->json()["camadas"]["edificacao"].get(none) != simdjson::SUCCESS);

  auto no_lots = city().add_user("alfa", "so-edificacao@alfa.gov.br", {"edificacao:r"});
  CHECK(get("/geo/alfa/filtro_relacionamentos/edificacao/1", no_lots.token)->status == 403);
  CHECK(get("/geo/alfa/edificacao/intersect?" + kPoint, no_lots.token)->status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "the geo routes are documented in /openapi.json with summaries and parameters") {
  auto cli = city().client();
  auto r = cli.Get("/openapi.json");
  REQUIRE(r);
  simdjson::dom::parser parser;
  auto doc = parser.parse(r->body).value();
  auto paths = doc["paths"];
  auto get_intersect = paths["/geo/{municipio}/{camada}/intersect"]["get"];
  CHECK(std::string_view(get_intersect["summary"]).find("percentual_coberto") != std::string_view::npos);
  bool has_wkt = false;
  for (auto p : get_intersect["parameters"].get_array()) has_wkt |= std::string_view(p["name"]) == "wkt";
  CHECK(has_wkt);
  CHECK(std::string_view(paths["/geo/{municipio}/camadas/intersect/"]["post"]["summary"]).size() > 20);
  CHECK(std::string_view(paths["/geo/{municipio}/filtro_relacionamentos/{path}"]["get"]["summary"]).find("chave") !=
        std::string_view::npos);
}
