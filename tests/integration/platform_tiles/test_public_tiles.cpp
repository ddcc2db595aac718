// GET /svt/{idTenant}/{idCamada}/{z}/{x}/{y}: tiles without a session, only of an active,
// public layer of an active published project; everything else is not found.
#include "tiles_fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::TileLayer;

TEST_CASE_FIXTURE(PlatformFixture,
                  "/svt serves a published project's public layer without a session") {
  TileLayer t(*this);
  t.lot(-48, -27);
  const std::string alfa = std::to_string(tenant_id("alfa")),
                    beta = std::to_string(tenant_id("beta"));
  const std::string project = TileLayer::n(t.project), layer = TileLayer::n(t.layer);
  auto anonymous = [&](const std::string& path) { return request("GET", path, {}); };

  // Unpublished: not found, like a layer that does not exist.
  refused(*anonymous(t.svt(alfa, TileLayer::here())), 404, "nao_encontrado");

  REQUIRE(post("/projetos/" + project + "/publicar", "", t.w.owner)->status == 200);
  auto a = anonymous(t.svt(alfa, TileLayer::here()));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "application/vnd.mapbox-vector-tile");
  CHECK(a->header("Cache-Control") == "public, no-cache");
  test::MvtLayer l = TileLayer::only_layer(a->body);
  CHECK(l.name == "camada_" + layer);
  CHECK(l.features == 1);
  CHECK(a->body == get(t.vt(TileLayer::here()), t.w.owner)->body);
  CHECK(request("GET", t.svt(alfa, TileLayer::here()), {{"If-None-Match", a->header("ETag")}})
            ->status == 304);
  CHECK(anonymous(t.svt(alfa, {.x = 0, .y = 0, .z = 14}))->status == 204);
  auto cors =
      request("GET", t.svt(alfa, TileLayer::here()), {{"Origin", "https://portal.exemplo.gov.br"}});
  CHECK(cors->header("Access-Control-Allow-Origin") == "*");

  // Another tenant's id, an unknown one, malformed ids and tiles.
  refused(*anonymous(t.svt(beta, TileLayer::here())), 404, "nao_encontrado");
  refused(*anonymous(t.svt("99999999", TileLayer::here())), 404, "nao_encontrado");
  refused(*anonymous("/svt/x/" + layer + "/0/0/0"), 400, "parametro_invalido", "idTenant");
  refused(*anonymous("/svt/" + alfa + "/1;drop/0/0/0"), 400, "parametro_invalido", "idCamada");
  refused(*anonymous("/svt/" + alfa + "/" + layer + "/30/0/0"), 400, "parametro_invalido", "z");

  // A private layer, an inactive layer, an inactive project: not found.
  REQUIRE(put("/camadas/privada/" + layer, R"({"privada":true})", t.w.owner)->status == 200);
  refused(*anonymous(t.svt(alfa, TileLayer::here())), 404, "nao_encontrado");
  REQUIRE(put("/camadas/privada/" + layer, R"({"privada":false})", t.w.owner)->status == 200);
  CHECK(anonymous(t.svt(alfa, TileLayer::here()))->status == 200);
  REQUIRE(post("/camadas/inativar/" + layer, "", t.w.owner)->status == 200);
  refused(*anonymous(t.svt(alfa, TileLayer::here())), 404, "nao_encontrado");
  REQUIRE(post("/camadas/ativar/" + layer, "", t.w.owner)->status == 200);
  REQUIRE(post("/projetos/" + project + "/despublicar", "", t.w.owner)->status == 200);
  refused(*anonymous(t.svt(alfa, TileLayer::here())), 404, "nao_encontrado");
}
