// The municipality's own cadastre layers brought into a project (POST /importar/icad/*):
// lots (urban: fronting a block face; rural: fronting none), buildings and streets, with
// their attributes as typed fields.
#include <doctest/doctest.h>

#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(ImportsFixture, "the cadastre's lots, rural lots, buildings and streets become layers of the project") {
  auto c = cast();
  stack->load_demo("alfa", 30);
  // Three lots outside the urban value map: rural.
  db("update cadastro.lote set face_quadra_id = null where id in (select id from cadastro.lote order by id limit 3)");
  struct Case {
    const char* route;
    const char* nome;
    const char* count;
    const char* geometria;
  };
  for (Case k : {Case{"lotes", "Lotes (cadastro)", "select count(*) from cadastro.lote where face_quadra_id is not null", "poligono"},
                 Case{"lotes-rurais", "Lotes rurais (cadastro)", "select count(*) from cadastro.lote where face_quadra_id is null", "poligono"},
                 Case{"edificacoes", "Edificações (cadastro)", "select count(*) from cadastro.edificacao", "poligono"},
                 Case{"logradouros", "Logradouros (cadastro)", "select count(*) from cadastro.logradouro", "linha"}}) {
    CAPTURE(k.route);
    auto a = request("POST", route(std::string("icad/") + k.route, std::string("icad-") + k.route, c.projeto, ""),
                     headers(c.owner));
    REQUIRE_MESSAGE(a->status == 202, a->body);
    auto job = finished(int64_t(a->json()["idImportacao"]), c.owner);
    REQUIRE_MESSAGE(job.estado == "concluida", job.json);
    const std::string expected = db(k.count);
    CHECK(std::to_string(job.importadas) == expected);
    const std::string L = n(job.camada);
    CHECK(db("select nome || '|' || geometria from projeto.camadas where id = " + L) == std::string(k.nome) + "|" + k.geometria);
    CHECK(db("select count(*) from projeto.geometrias where camada_id = " + L) == expected);
  }
  // The attributes: a rural lot's inscrição and area, as in the cadastre.
  const std::string rural = db("select id from projeto.camadas where nome = 'Lotes rurais (cadastro)'");
  CHECK(db("select c_" + field(rural, "inscricao") + " || '|' || c_" + field(rural, "area_terreno") + " from camadas.l" +
           rural + " order by c_" + field(rural, "id_cadastro") + " limit 1") ==
        db("select inscricao || '|' || area_terreno from cadastro.lote order by id limit 1"));
  const std::string urban = db("select id from projeto.camadas where nome = 'Lotes (cadastro)'");
  CHECK(db("select bool_and(st_equals(g.geom, l.geom)) from projeto.camadas c join projeto.geometrias g on g.camada_id = c.id "
           "join camadas.l" + urban + " i on i.id = g.id join cadastro.lote l on l.id = i.c_" + field(urban, "id_cadastro") +
           " where c.nome = 'Lotes (cadastro)'") == "t");
}

TEST_CASE_FIXTURE(ImportsFixture, "a copy of the cadastre's layer refuses xdzs=true: its geometries have no Z") {
  auto c = cast();
  stack->load_demo("alfa", 5);
  const std::string before = footprint();
  refused(*request("POST", route("icad/lotes", "z-1", c.projeto, "", "&xdzs=true"), headers(c.owner)), 400,
          "parametro_invalido", "xdzs");
  CHECK(footprint() == before);
  auto a = request("POST", route("icad/lotes", "z-2", c.projeto, "", "&xdzs=false"), headers(c.owner));
  CHECK_MESSAGE(a->status == 202, a->body);
}
