// Auth, permissions, tenant isolation and hostile identifiers on the layer routes.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture, "layer routes need a valid bearer token of the tenant") {
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

TEST_CASE_FIXTURE(Fixture,
                  "read permission is checked per layer, including related layers of a detail") {
  auto reader = city().add_user("alfa", "so-lote@alfa.gov.br", {"lote:r"});
  CHECK(get("/alfa/lote/", reader.token)->status == 200);
  auto denied = get("/alfa/edificacao/", reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(get("/alfa/lote/1/", reader.token)->status == 403);  // the detail shows units, buildings, owners
  auto nobody = city().add_user("alfa", "sem-permissao@alfa.gov.br", {});
  CHECK(get("/alfa/lote/", nobody.token)->status == 403);
}

TEST_CASE_FIXTURE(Fixture, "hostile layer and field names are refused before any SQL runs") {
  auto before = db("select count(*) from pg_stat_user_tables");
  // What each name is refused as: one that breaks the identifier rules is a 400
  // identificador_invalido, a NUL a 400 parametro_invalido (the route table refuses it in any
  // parameter), a well-formed name that is no layer a 404 camada_nao_encontrada, and an
  // encoded '/' makes another path, which no route serves (404 rota_nao_encontrada).
  struct Refusal {
    const char* name;
    int status;
    const char* codigo;
  };
  const Refusal layers[] = {{"lote'", 400, "identificador_invalido"},
                            {"lote%22", 400, "identificador_invalido"},
                            {"lote%3B--", 400, "identificador_invalido"},
                            {"lote%00", 400, "parametro_invalido"},
                            {"pg_catalog.pg_authid", 400, "identificador_invalido"},
                            {"..%2F..%2Fetc", 404, "rota_nao_encontrada"},
                            {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                             400, "identificador_invalido"},
                            {"auditoria.registro", 400, "identificador_invalido"},
                            {"lote%20union%20select%201", 400, "identificador_invalido"},
                            {"pg_authid", 404, "camada_nao_encontrada"},
                            {"spatial_ref_sys", 404, "camada_nao_encontrada"}};
  for (const auto& l : layers) {
    for (const std::string& path :
         {std::string("/alfa/") + l.name + "/", std::string("/geo/alfa/") + l.name + "/1/"}) {
      auto a = get(path);
      CHECK_MESSAGE(a->status == l.status, path << " → " << a->status);
      CHECK_MESSAGE(a->codigo() == l.codigo, path << " → " << a->body);
    }
  }
  const Refusal fields[] = {{"numero'%3D'1", 400, "identificador_invalido"},
                            {"numero%3B--", 400, "identificador_invalido"},
                            {"1numero", 400, "identificador_invalido"},
                            {"numero%00", 400, "parametro_invalido"},
                            {"t.numero", 400, "identificador_invalido"},
                            {"numero)%20or%20(1", 400, "identificador_invalido"}};
  for (const auto& f : fields) {
    auto a = get(std::string("/alfa/lote/?") + f.name + "=1");
    CHECK_MESSAGE(a->status == 400, f.name);
    auto b = get(std::string("/alfa/lote/search/exact/") + f.name + "/1/");
    CHECK_MESSAGE(b->status == f.status, f.name << " → " << b->status);
    CHECK_MESSAGE(b->codigo() == f.codigo, f.name << " → " << b->body);
  }
  CHECK(get("/alfa/lote/?sort=numero%3Bdrop")->status == 400);
  CHECK(db("select count(*) from pg_stat_user_tables") == before);
  CHECK(db("select count(*) from cadastro.lote") == "300");
}
