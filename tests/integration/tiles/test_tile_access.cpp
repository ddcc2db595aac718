// Auth on the tile routes: main bearer token, tenant of {municipio}, read permission.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

std::vector<std::string> routes(const std::string& municipio) {
  return {tile_path("lote", fixture().tile_with_lots(16), municipio),
          "/tiles/" + municipio + "/lote.json", "/tiles/" + municipio + "/index.json"};
}

}  // namespace

TEST_CASE_FIXTURE(Fixture, "tile routes without a valid bearer token are 401") {
  for (const auto& path : routes("alfa")) {
    auto none = fetch(path, "");
    CHECK_MESSAGE(none->status == 401, path);
    CHECK(none->header("WWW-Authenticate") == "Bearer");
    CHECK_MESSAGE(fetch(path, std::string(64, 'f'))->status == 401, path);
  }
}

TEST_CASE_FIXTURE(Fixture, "another tenant's token is 403 on every tile route") {
  for (const auto& path : routes("alfa")) {
    auto r = fetch(path, city().user("beta").token);
    CHECK_MESSAGE(r->status == 403, path);
    CHECK(r->codigo() == "municipio_nao_permitido");
  }
  for (const auto& path : routes("beta")) CHECK_MESSAGE(fetch(path)->status == 403, path);
}

TEST_CASE_FIXTURE(Fixture, "tiles and TileJSON of a layer need read permission on it") {
  auto reader = city().add_user("alfa", "so-quadra-tiles@alfa.gov.br", {"quadra:r"});
  const auto tile = tile_with_lots(16);
  auto denied = fetch(tile_path("lote", tile), reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(fetch("/tiles/alfa/lote.json", reader.token)->status == 403);
  CHECK(fetch(tile_path("quadra", tile), reader.token)->status == 200);
  CHECK(fetch("/tiles/alfa/quadra.json", reader.token)->status == 200);
}

TEST_CASE_FIXTURE(Fixture, "hostile layer names are refused before any SQL runs") {
  auto before = db("select count(*) from pg_stat_user_tables");
  for (const char* l : {"lote'", "lote%22", "lote%3B--", "lote%00", "pg_catalog.pg_authid", "auditoria.registro",
                        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "spatial_ref_sys",
                        "lote%20union%20select%201"}) {
    auto tile = fetch(std::string("/tiles/alfa/") + l + "/16/0/0.pbf");
    auto json = fetch(std::string("/tiles/alfa/") + l + ".json");
    // A well-formed name that is no layer is a 404; one that breaks the identifier rules a
    // 400 identificador_invalido, and a NUL a 400 parametro_invalido (the route table's).
    const std::string_view name = l;
    const bool well_formed = name == "spatial_ref_sys";
    const char* codigo = well_formed                                  ? "camada_nao_encontrada"
                         : name.find("%00") != std::string_view::npos ? "parametro_invalido"
                                                                      : "identificador_invalido";
    for (auto* a : {tile.get(), json.get()}) {
      CHECK_MESSAGE(a->status == (well_formed ? 404 : 400), l << " → " << a->status);
      CHECK_MESSAGE(a->codigo() == codigo, l << " → " << a->body);
    }
  }
  CHECK(db("select count(*) from pg_stat_user_tables") == before);
}
