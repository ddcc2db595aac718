// GET|POST /explorer/{municipio}/{camada}, PUT|DELETE /explorer/{municipio}/{camada}/{id}:
// paged lists and writes of a layer's records, checked in the database.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
const char* kSquare =
    R"({"type":"Polygon","coordinates":[[[-47.07,-22.91],[-47.069,-22.91],[-47.069,-22.909],[-47.07,-22.909],[-47.07,-22.91]]]})";

std::string ids_of(Answer& a) {
  std::string out;
  for (auto r : a.json()["registros"].get_array()) out += std::to_string(int64_t(r["id"])) + ",";
  return out;
}
}  // namespace

TEST_CASE_FIXTURE(Fixture, "a layer lists page by page, in key order, with the total") {
  auto a = call("GET", "/explorer/alfa/lote?page=2&page_size=5");
  REQUIRE(a->status == 200);
  auto j = a->json();
  CHECK(std::string_view(j["camada"]) == "lote");
  CHECK(std::to_string(int64_t(j["total"])) == db("select count(*) from cadastro.lote"));
  CHECK(int64_t(j["pagina"]) == 2);
  CHECK(int64_t(j["limite"]) == 5);
  CHECK(ids_of(*a) == db("select string_agg(id::text || ',', '' order by id) from (select id from cadastro.lote "
                         "order by id limit 5 offset 5) t"));
  auto first = j["registros"].at(0);
  CHECK(std::string_view(first["geom"]["type"]) == "MultiPolygon");
  CHECK(first["inscricao"].is_string());
  auto page1 = call("GET", "/explorer/alfa/lote?page_size=5");
  CHECK(ids_of(*page1) == db("select string_agg(id::text || ',', '' order by id) from (select id from cadastro.lote "
                             "order by id limit 5) t"));
  // Filters and sort as in the other lists.
  std::string topo = db("select topografia from cadastro.lote order by id limit 1");
  auto filtered = call("GET", "/explorer/alfa/lote?topografia=" + topo + "&sort=-area_terreno&page_size=1000");
  REQUIRE(filtered->status == 200);
  CHECK(std::to_string(int64_t(filtered->json()["total"])) ==
        db("select count(*) from cadastro.lote where topografia = '" + topo + "'"));
}

TEST_CASE_FIXTURE(Fixture, "list paging and layer names are checked") {
  CHECK(call("GET", "/explorer/alfa/lote?page_size=0")->status == 400);
  CHECK(call("GET", "/explorer/alfa/lote?page_size=1001")->status == 400);
  CHECK(call("GET", "/explorer/alfa/lote?page=abc")->status == 400);
  CHECK(call("GET", "/explorer/alfa/lote?senha=1")->codigo() == "campo_desconhecido");
  CHECK(call("GET", "/explorer/alfa/nada")->status == 404);
  auto hostile = call("GET", "/explorer/alfa/lote%22%3B%20drop%20table%20x%3B%20--");
  CHECK(hostile->status == 400);
  CHECK(hostile->codigo() == "identificador_invalido");
  CHECK(call("GET", "/explorer/alfa/pg_authid")->status == 404);
}

TEST_CASE_FIXTURE(Fixture,
                  "create, update and delete a record: the database and the audit trail follow") {
  auto created = call("POST", "/explorer/alfa/bairro",
                      std::string(R"({"codigo": "EXP1", "nome": "Jardim Explorador", "geometry": )") + kSquare + "}");
  REQUIRE_MESSAGE(created->status == 201, created->body);
  auto id = std::to_string(int64_t(created->json()["id"]));
  CHECK(created->text("nome") == "Jardim Explorador");
  CHECK(std::string_view(created->json()["geom"]["type"]) == "MultiPolygon");
  CHECK(created->header("Location") == "/explorer/alfa/bairro/" + id);
  CHECK(db("select nome from cadastro.bairro where id = " + id) == "Jardim Explorador");

  auto updated = call("PUT", "/explorer/alfa/bairro/" + id, R"({"nome": "Jardim Explorado"})");
  REQUIRE_MESSAGE(updated->status == 200, updated->body);
  CHECK(updated->text("nome") == "Jardim Explorado");
  CHECK(updated->text("codigo") == "EXP1");
  CHECK(db("select nome from cadastro.bairro where id = " + id) == "Jardim Explorado");

  auto removed = call("DELETE", "/explorer/alfa/bairro/" + id);
  REQUIRE(removed->status == 200);
  CHECK(int64_t(removed->json()["registros_removidos"]) == 1);
  CHECK(db("select count(*) from cadastro.bairro where id = " + id) == "0");
  CHECK(db("select string_agg(operacao, '' order by id) from auditoria.registro where tabela = 'cadastro.bairro' and "
           "registro_id = '" + id + "'") == "IUD");
}

TEST_CASE_FIXTURE(Fixture, "writes validate ids, bodies and existence") {
  auto bad_body = call("POST", "/explorer/alfa/bairro", R"({"codigo": "EXP2", "cor": "azul"})");
  CHECK(bad_body->status == 400);
  CHECK(bad_body->codigo() == "campo_desconhecido");
  CHECK(call("POST", "/explorer/alfa/bairro", "{")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/bairro/abc", R"({"nome": "x"})")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/bairro/1%20or%201%3D1", R"({"nome": "x"})")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/bairro/999999", R"({"nome": "x"})")->status == 404);
  std::string some = db("select min(id) from cadastro.bairro");
  auto other_id = call("PUT", "/explorer/alfa/bairro/" + some, R"({"id": 999998, "nome": "x"})");
  CHECK(other_id->status == 400);
  CHECK(call("DELETE", "/explorer/alfa/bairro/999999")->status == 404);
  CHECK(call("DELETE", "/explorer/alfa/bairro/-1")->status == 400);
  CHECK(call("POST", "/explorer/alfa/nada", "{}")->status == 404);
  CHECK(call("DELETE", "/explorer/alfa/nada/1")->status == 404);
}

TEST_CASE_FIXTURE(Fixture, "a user with only lote:r reads lots but may not write them") {
  const auto& reader = user_with("so-lote@alfa.gov.br", {"lote:r"});
  CHECK(call("GET", "/explorer/alfa/lote?page_size=1", "", reader.token)->status == 200);
  CHECK(call("GET", "/explorer/alfa/bairro", "", reader.token)->status == 403);
  std::string id = db("select min(id) from cadastro.lote");
  std::string before = db("select testada from cadastro.lote where id = " + id);
  auto put = call("PUT", "/explorer/alfa/lote/" + id, R"({"testada": 99})", reader.token);
  CHECK(put->status == 403);
  CHECK(put->codigo() == "acesso_negado");
  CHECK(call("DELETE", "/explorer/alfa/lote/" + id, "", reader.token)->status == 403);
  CHECK(call("POST", "/explorer/alfa/lote", R"({"inscricao": "X"})", reader.token)->status == 403);
  CHECK(db("select testada from cadastro.lote where id = " + id) == before);
  CHECK(db("select count(*) from cadastro.lote where id = " + id) == "1");
}

TEST_CASE_FIXTURE(
    Fixture, "a duplicate JSON key in a record is a 400 naming the key, and nothing is stored") {
  auto lots = db("select count(*) from cadastro.lote");
  auto created = call("POST", "/explorer/alfa/lote", R"({"id":"1","id":"2"})");
  CHECK(created->status == 400);
  CHECK(created->codigo() == "parametro_invalido");
  CHECK(created->mensagem() == R"(chave duplicada no JSON: "id")");
  std::string id = db("select min(id) from cadastro.lote");
  std::string before = db("select numero from cadastro.lote where id = " + id);
  auto updated = call("PUT", "/explorer/alfa/lote/" + id, R"({"numero":445,"numero":445})");
  CHECK(updated->status == 400);
  CHECK(updated->mensagem() == R"(chave duplicada no JSON: "numero")");
  CHECK(db("select count(*) from cadastro.lote") == lots);
  CHECK(db("select numero from cadastro.lote where id = " + id) == before);
}
