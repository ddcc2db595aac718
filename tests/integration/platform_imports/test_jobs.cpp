// The import jobs: who may import into a project, what the routes refuse before any job
// exists, the client's idempotency key (codigo), the list of pending jobs and hiding one,
// and all-or-nothing: a job that fails in the middle of loading leaves no layer, no form,
// no geometry and no value.
#include <doctest/doctest.h>

#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;

namespace {

std::string points(int count, int failing = -1) {
  std::string g = R"({"type":"FeatureCollection","features":[)";
  for (int i = 0; i < count; ++i)
    g += std::string(i ? "," : "") + R"({"type":"Feature","properties":{"nome":")" + (i == failing ? "FALHA" : "p" + std::to_string(i)) +
         R"("},"geometry":{"type":"Point","coordinates":[)" + std::to_string(-46.6 + i * 1e-4) + ",-23.5]}}";
  return g + "]}";
}

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "imports need a session and the admin role on the project; the parameters are checked first") {
  auto c = cast();
  write("p.geojson", points(3));
  sh("ogr2ogr -f 'ESRI Shapefile' p.shp p.geojson");
  sh("zip -j p.zip p.shp p.shx p.dbf p.prj p.cpg");
  const std::string zip = read("p.zip");
  const std::string path = route("shp", "auth", c.projeto, "Pontos");
  std::string before = footprint();
  refused(*upload(path, zip, "p.zip", httplib::Headers{}), 401, "nao_autenticado");
  refused(*upload(path, zip, "p.zip", c.beta), 404, "nao_encontrado");      // another tenant's project
  refused(*upload(path, zip, "p.zip", c.stranger), 404, "nao_encontrado");  // no share
  refused(*upload(path, zip, "p.zip", c.reader), 403, "acesso_negado");     // a read-only share
  refused(*request("POST", route("icad/lotes", "auth", c.projeto, ""), headers(c.reader)), 403, "acesso_negado");
  refused(*request("POST", route("icad/lotes", "auth", c.projeto, ""), {}), 401, "nao_autenticado");
  refused(*request("POST", route("icad/logradouros", "auth", c.projeto, ""), headers(c.beta)), 404, "nao_encontrado");
  CHECK(footprint() == before);

  refused(*upload("/importar/shp?nomeCamada=x&idProjeto=" + n(c.projeto), zip, "p.zip", c.owner), 400, "campo_obrigatorio",
          "codigo");
  refused(*upload("/importar/shp?codigo=x&idProjeto=" + n(c.projeto), zip, "p.zip", c.owner), 400, "campo_obrigatorio",
          "nomeCamada");
  CHECK(upload("/importar/shp?codigo=x&nomeCamada=x&idProjeto=1;drop", zip, "p.zip", c.owner)->status == 400);
  CHECK(upload(route("shp", "x", c.projeto, "x", "&srid=abc"), zip, "p.zip", c.owner)->status == 400);
  CHECK(upload(route("shp", "x", c.projeto, "x", "&xdzs=talvez"), zip, "p.zip", c.owner)->status == 400);
  refused(*upload(route("shp", "x", c.projeto, "x", "&invalidas=ignorar"), zip, "p.zip", c.owner), 400,
          "parametro_invalido", "invalidas");
  refused(*upload(route("shp", std::string(201, 'a'), c.projeto, "x"), zip, "p.zip", c.owner), 400, "parametro_invalido",
          "codigo");
  refused(*request("POST", route("shp", "x", c.projeto, "x"), headers(c.owner), "{}"), 400, "campo_obrigatorio", "file");
  CHECK(footprint() == before);
  refused(*get("/importar/pendentes", Session{}), 401, "nao_autenticado");
  refused(*request("PUT", "/importar/pendentes/hide?idImportacao=1", {}), 401, "nao_autenticado");
  refused(*request("POST", "/converter/geojson?targetType=kml", {}, "{}"), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(ImportsFixture, "the same codigo returns the first job; pendentes lists the caller's jobs; a finished job can be hidden") {
  auto c = cast();
  write("p.geojson", points(5));
  sh("ogr2ogr -f 'ESRI Shapefile' p.shp p.geojson");
  sh("zip -j p.zip p.shp p.shx p.dbf p.prj p.cpg");
  const std::string zip = read("p.zip");
  auto first = upload(route("shp", "pedido-42", c.projeto, "Pontos"), zip, "p.zip", c.owner);
  REQUIRE(first->status == 202);
  CHECK(bool(first->json()["novo"]));
  std::int64_t id = int64_t(first->json()["idImportacao"]);
  auto job = finished(id, c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  auto again = upload(route("shp", "pedido-42", c.projeto, "Outro nome"), zip, "p.zip", c.owner);
  REQUIRE(again->status == 202);
  CHECK(int64_t(again->json()["idImportacao"]) == id);
  CHECK_FALSE(bool(again->json()["novo"]));
  CHECK(std::string_view(again->json()["estado"]) == "concluida");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + n(c.projeto)) == "1");
  CHECK(db("select count(*) from projeto.importacoes where codigo = 'pedido-42'") == "1");

  // Another user's list does not show it, nor may they hide it.
  CHECK(get("/importar/pendentes", c.stranger)->json()["totalElements"].get_int64().value() == 0);
  refused(*put("/importar/pendentes/hide?idImportacao=" + n(id), "", c.stranger), 404, "nao_encontrado");
  refused(*put("/importar/pendentes/hide?idImportacao=abc", "", c.owner), 400, "parametro_invalido");
  refused(*put("/importar/pendentes/hide", "", c.owner), 400, "campo_obrigatorio", "idImportacao");
  auto list = get("/importar/pendentes", c.owner);
  REQUIRE(list->status == 200);
  CHECK(list->json()["totalElements"].get_int64().value() == 1);
  auto entry = list->json()["content"].at(0);
  CHECK(std::string_view(entry["tipo"]) == "shp");
  CHECK(double(entry["progresso"]) == 100.0);
  CHECK(int64_t(entry["idCamada"]) == job.camada);
  CHECK(std::string_view(entry["parametros"]["nomeCamada"]) == "Pontos");

  // A running job cannot be hidden.
  db("update projeto.importacoes set estado = 'executando', pid = pg_backend_pid() where id = " + n(id));
  refused(*put("/importar/pendentes/hide?idImportacao=" + n(id), "", c.owner), 409, "transicao_invalida");
  db("update projeto.importacoes set estado = 'concluida', pid = null where id = " + n(id));
  auto hidden = put("/importar/pendentes/hide?idImportacao=" + n(id), "", c.owner);
  CHECK(hidden->status == 204);
  CHECK(get("/importar/pendentes", c.owner)->json()["totalElements"].get_int64().value() == 0);
  CHECK(db("select oculta from projeto.importacoes where id = " + n(id)) == "t");
}

TEST_CASE_FIXTURE(ImportsFixture, "a job that fails in the middle of loading leaves no layer, form, field, geometry or value") {
  auto c = cast();
  // The database refuses one value in the middle of the file (feature 250 of 300): the
  // layer, form, fields and 300 geometries were already written in the job's transaction.
  db("alter table projeto.valores add constraint teste_falha check (texto is distinct from 'FALHA') not valid");
  write("p.geojson", points(300, 249));
  sh("ogr2ogr -f 'ESRI Shapefile' p.shp p.geojson");
  sh("zip -j p.zip p.shp p.shx p.dbf p.prj p.cpg");
  std::string before = db("select (select count(*) from projeto.camadas) || '/' || (select count(*) from projeto.formularios) "
                          "|| '/' || (select count(*) from projeto.campos) || '/' || (select count(*) from projeto.geometrias) "
                          "|| '/' || (select count(*) from projeto.valores) || '/' || (select count(*) from projeto.eventos)");
  auto job = finished(submitted(route("shp", "falha", c.projeto, "Falha"), read("p.zip"), "p.zip", c.owner), c.owner);
  db("alter table projeto.valores drop constraint teste_falha");
  CHECK(job.estado == "falhou");
  CHECK(job.camada == 0);
  CHECK(job.camadas.empty());
  CHECK_MESSAGE(job.mensagem.find("recusou") != std::string::npos, job.json);
  CHECK(db("select (select count(*) from projeto.camadas) || '/' || (select count(*) from projeto.formularios) "
           "|| '/' || (select count(*) from projeto.campos) || '/' || (select count(*) from projeto.geometrias) "
           "|| '/' || (select count(*) from projeto.valores) || '/' || (select count(*) from projeto.eventos)") == before);
  // The failed job can be hidden.
  CHECK(put("/importar/pendentes/hide?idImportacao=" + db("select max(id) from projeto.importacoes"), "", c.owner)->status ==
        204);
}

TEST_CASE_FIXTURE(ImportsFixture, "a job left open by a process that died is marked falhou") {
  auto c = cast();
  db("insert into projeto.importacoes (tipo, estado, criado_por, pid) values ('shp', 'executando', " +
     n(c.owner.user_id) + ", 999999)");
  auto a = get("/importar/pendentes", c.owner);
  REQUIRE(a->status == 200);
  auto j = a->json()["content"].at(0);
  CHECK(std::string_view(j["estado"]) == "falhou");
  CHECK(std::string(std::string_view(j["mensagem"])).find("interrompida") != std::string::npos);
}
