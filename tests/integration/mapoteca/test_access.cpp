// Auth, the "mapoteca" permission and tenant isolation on every /mapoteca route.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
const std::string kBox = "minLongitude=-180&minLatitude=-90&maxLongitude=180&maxLatitude=90";

struct Route {
  const char* method;
  std::string path;
};

std::vector<Route> routes(const std::string& tenant, const std::string& id) {
  return {{"GET", "/mapoteca/" + tenant + "/busca/espacial/?" + kBox},
          {"GET", "/mapoteca/" + tenant + "/busca/mapa"},
          {"PUT", "/mapoteca/" + tenant + "/item/" + id + "/"},
          {"DELETE", "/mapoteca/" + tenant + "/item/" + id + "/"}};
}

std::unique_ptr<Answer> send(const Route& r, const std::string& token) {
  return fixture().request(r.method, r.path, Stack::bearer(token), R"({"titulo": "Alterado"})");
}
}  // namespace

TEST_CASE_FIXTURE(Fixture, "map-library routes need a token (401) of the same tenant (403)") {
  const std::string id = insert_item("titulo, footprint", "'Item de acesso', " + std::string(kCentreFootprint));
  auto cli = city().client();
  CHECK(cli.Get("/mapoteca/alfa/busca/espacial/?" + kBox)->status == 401);
  CHECK(cli.Get("/mapoteca/alfa/busca/mapa")->status == 401);
  CHECK(cli.Put("/mapoteca/alfa/item/" + id + "/", R"({"titulo": "x"})", "application/json")->status == 401);
  CHECK(cli.Delete("/mapoteca/alfa/item/" + id + "/")->status == 401);
  for (const auto& r : routes("alfa", id)) {
    auto a = send(r, city().user("beta").token);
    CHECK_MESSAGE(a->status == 403, r.method << " " << r.path);
    CHECK(a->codigo() == "municipio_nao_permitido");
    CHECK(send(r, std::string(64, 'b'))->status == 401);
  }
  CHECK(db("select titulo from mapoteca.item where id = " + id) == "Item de acesso");
}

TEST_CASE_FIXTURE(Fixture, "one tenant's items are never visible to another") {
  insert_item("titulo, footprint", "'Exclusivo de Beta', ST_Multi(ST_MakeEnvelope(-47.1, -23.0, -46.9, -22.8, 4674))",
              "beta");
  const std::string beta = city().user("beta").token;
  auto own = get("/mapoteca/beta/busca/exclusivo", beta);
  REQUIRE(own->status == 200);
  CHECK(int64_t(own->json()["numberMatched"]) == 1);
  auto all = get("/mapoteca/beta/busca/espacial/?" + kBox + "&limit=100", beta);
  REQUIRE(all->status == 200);
  CHECK(int64_t(all->json()["numberMatched"]) == 1);  // none of alfa's library
  CHECK(std::string_view(all->json()["features"].at(0)["properties"]["titulo"]) == "Exclusivo de Beta");
  CHECK(search_ids("exclusivo") == "");
  auto alfa_all = get("/mapoteca/alfa/busca/espacial/?" + kBox + "&limit=1000");
  CHECK(alfa_all->body.find("Exclusivo de Beta") == std::string::npos);
}

TEST_CASE_FIXTURE(
    Fixture,
    "searching needs read permission on 'mapoteca' and changing items its write permission") {
  const std::string id = insert_item("titulo, footprint", "'Item de permissão', " + std::string(kCentreFootprint));
  const auto all = routes("alfa", id);
  auto only_lots = city().add_user("alfa", "so-lotes-mapoteca@alfa.gov.br", {"lote:rw"});
  auto excluded = city().add_user("alfa", "sem-mapoteca@alfa.gov.br", {"*:rw", "mapoteca:"});
  for (const auto& user : {only_lots, excluded}) {
    for (const auto& r : all) {
      auto a = send(r, user.token);
      CHECK_MESSAGE(a->status == 403, user.email << " " << r.method << " " << r.path);
      CHECK(a->codigo() == "acesso_negado");
    }
  }
  auto reader = city().add_user("alfa", "leitor-mapoteca@alfa.gov.br", {"mapoteca:r"});
  CHECK(send(all[0], reader.token)->status == 200);
  CHECK(send(all[1], reader.token)->status == 200);
  CHECK(send(all[2], reader.token)->status == 403);
  CHECK(send(all[3], reader.token)->status == 403);
  CHECK(db("select titulo from mapoteca.item where id = " + id) == "Item de permissão");

  auto editor = city().add_user("alfa", "editor-mapoteca@alfa.gov.br", {"*:r", "mapoteca:rw"});
  auto changed = send(all[2], editor.token);
  CHECK_MESSAGE(changed->status == 200, changed->body);
  CHECK(db("select titulo from mapoteca.item where id = " + id) == "Alterado");
  CHECK(db("select usuario_email from auditoria.registro where tabela = 'mapoteca.item' and registro_id = '" + id + "'") ==
        "editor-mapoteca@alfa.gov.br");
  CHECK(send(all[3], editor.token)->status == 200);
}

TEST_CASE_FIXTURE(Fixture, "the OpenAPI document lists the map-library routes") {
  auto cli = city().client();
  auto doc = cli.Get("/openapi.json");
  REQUIRE(doc);
  for (const char* path : {"/mapoteca/{municipio}/busca/espacial/", "/mapoteca/{municipio}/busca/{palavras_chave}",
                           "/mapoteca/{municipio}/item/{id}/"})
    CHECK_MESSAGE(doc->body.find(path) != std::string::npos, path);
}
