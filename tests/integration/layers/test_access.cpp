// Auth, permissions, tenant isolation and hostile identifiers on the layer routes.
#include "layers_fixture.hpp"

using namespace cadastre::test;

TEST_CASE("layer routes need a valid bearer token of the tenant") {
  auto cli = city().client();
  CHECK(cli.Get("/alfa/lote/")->status == 401);
  CHECK(get("/alfa/lote/", std::string(64, 'f'))->status == 401);
  for (const char* path : {"/alfa/lote/", "/geo/alfa/lote/", "/alfa/lote/1/", "/alfa/lote/pages/",
                           "/alfa/lote/search/exact/id/1/", "/alfa/lote/search2/params/", "/alfa/lote/novos/",
                           "/alfa/logradouro/buscar_endereco/?logradouro=ab", "/alfa/lote/busca_imoveis/1/",
                           "/geo/alfa/lote/1/", "/geo/alfa/lote/pages/", "/geo/alfa/lote/search/exact/id/1/"}) {
    auto a = get(path, city().user("beta").token);
    CHECK_MESSAGE(a->status == 403, path);
    CHECK(a->codigo() == "municipio_nao_permitido");
  }
}

TEST_CASE("read permission is checked per layer, including related layers of a detail") {
  auto reader = city().add_user("alfa", "so-lote@alfa.gov.br", {"lote:r"});
  CHECK(get("/alfa/lote/", reader.token)->status == 200);
  auto denied = get("/alfa/edificacao/", reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(get("/alfa/lote/1/", reader.token)->status == 403);  // the detail shows units, buildings, owners
  auto nobody = city().add_user("alfa", "sem-permissao@alfa.gov.br", {});
  CHECK(get("/alfa/lote/", nobody.token)->status == 403);
}

TEST_CASE("hostile layer and field names are refused before any SQL runs") {
  auto before = db("select count(*) from pg_stat_user_tables");
  const char* layers[] = {"lote'", "lote%22", "lote%3B--", "lote%00", "pg_catalog.pg_authid", "..%2F..%2Fetc",
                          "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "auditoria.registro",
                          "lote%20union%20select%201", "pg_authid", "spatial_ref_sys"};
  for (const char* l : layers) {
    auto a = get(std::string("/alfa/") + l + "/");
    CHECK_MESSAGE((a->status == 400 || a->status == 404), l << " → " << a->status);
    auto b = get(std::string("/geo/alfa/") + l + "/1/");
    CHECK_MESSAGE((b->status == 400 || b->status == 404), l);
  }
  const char* fields[] = {"numero'%3D'1", "numero%3B--", "1numero", "numero%00", "t.numero", "numero)%20or%20(1"};
  for (const char* f : fields) {
    auto a = get(std::string("/alfa/lote/?") + f + "=1");
    CHECK_MESSAGE(a->status == 400, f);
    auto b = get(std::string("/alfa/lote/search/exact/") + f + "/1/");
    CHECK_MESSAGE((b->status == 400 || b->status == 404), f);
  }
  CHECK(get("/alfa/lote/?sort=numero%3Bdrop")->status == 400);
  CHECK(db("select count(*) from pg_stat_user_tables") == before);
  CHECK(db("select count(*) from cadastro.lote") == "300");
}
