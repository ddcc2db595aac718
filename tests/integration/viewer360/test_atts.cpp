// POST /visualizador360/{municipio}/atts: inserts and updates of one layer in one audited
// transaction. A failing row anywhere answers 4xx naming its list and line, and the
// database is checked to hold none of the batch.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

std::string people_marked(const std::string& prefix) {
  return fixture().db("select count(*) from cadastro.pessoa where cpf_cnpj like '" + prefix + "%'");
}

}  // namespace

TEST_CASE_FIXTURE(Fixture, "atts inserts and updates in one transaction, each write audited") {
  const std::string area_before = db("select area_terreno::text from cadastro.lote where id = 9");
  auto a = post_atts(R"({"schema_table": "cadastro.pessoa",
    "inserir": [{"nome": "Ana Vista", "tipo": "F", "cpf_cnpj": "V360-A-1"},
                {"nome": "Bruno Vista", "tipo": "F", "cpf_cnpj": "V360-A-2", "email": "bruno@exemplo.com"}],
    "atualizar": [{"id": 3, "email": "tres@exemplo.com"}]})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(int64_t(j["total"]) == 3);
  CHECK(ids(j["inseridos"]) == db("select string_agg(id::text, ',' order by cpf_cnpj) from cadastro.pessoa where cpf_cnpj like 'V360-A-%'"));
  CHECK(ids(j["atualizados"]) == "3");
  CHECK(int64_t(j["inseridos"].at(1)["linha"]) == 2);
  CHECK(people_marked("V360-A-") == "2");
  CHECK(db("select email from cadastro.pessoa where id = 3") == "tres@exemplo.com");
  CHECK(db("select string_agg(operacao || '|' || usuario_email, ',' order by id) from auditoria.registro where tabela = "
           "'cadastro.pessoa' and registro_id in (select id::text from cadastro.pessoa where cpf_cnpj like 'V360-A-%' "
           "or id = 3)") == "I|usuario@alfa.gov.br,I|usuario@alfa.gov.br,U|usuario@alfa.gov.br");

  // A layer with geometry: attributes only, the geometry stays.
  auto lot = post_atts(R"({"schema_table": "cadastro.lote", "atualizar": [{"id": 9, "area_terreno": 321.5}]})");
  REQUIRE_MESSAGE(lot->status == 200, lot->body);
  CHECK(db("select area_terreno::text from cadastro.lote where id = 9") == "321.50");
  CHECK(area_before != "321.50");
}

TEST_CASE_FIXTURE(Fixture,
                  "a failing row anywhere in atts writes nothing and names its list and line") {
  const std::string email4 = db("select coalesce(email, '-') from cadastro.pessoa where id = 4");
  SUBCASE("an update of a missing record") {
    auto a = post_atts(R"({"schema_table": "cadastro.pessoa",
      "inserir": [{"nome": "Carla Vista", "tipo": "F", "cpf_cnpj": "V360-B-1"}],
      "atualizar": [{"id": 4, "email": "quatro@exemplo.com"}, {"id": 999999, "email": "x@exemplo.com"}]})");
    CHECK(a->status == 404);
    auto j = a->json();
    CHECK(std::string_view(j["lista"]) == "atualizar");
    CHECK(int64_t(j["linha"]) == 2);
    CHECK(a->codigo() == "nao_encontrado");
    CHECK(a->mensagem().find("nada foi gravado") != std::string::npos);
  }
  SUBCASE("a database constraint") {
    auto a = post_atts(R"({"schema_table": "cadastro.pessoa",
      "inserir": [{"nome": "Carla Vista", "tipo": "F", "cpf_cnpj": "V360-B-1"}, {"nome": "X", "tipo": "Q", "cpf_cnpj": "V360-B-2"}],
      "atualizar": [{"id": 4, "email": "quatro@exemplo.com"}]})");
    CHECK(a->status == 400);  // tipo 'Q' breaks a check constraint: the client's error
    CHECK(a->codigo() == "parametro_invalido");
    CHECK(std::string_view(a->json()["lista"]) == "inserir");
    CHECK(int64_t(a->json()["linha"]) == 2);
  }
  SUBCASE("a duplicate inside the batch") {
    auto a = post_atts(R"({"schema_table": "cadastro.pessoa",
      "inserir": [{"nome": "Carla Vista", "tipo": "F", "cpf_cnpj": "V360-B-1"}, {"nome": "Carla", "tipo": "F", "cpf_cnpj": "V360-B-1"}]})");
    CHECK(a->status == 409);
    CHECK(int64_t(a->json()["linha"]) == 2);
  }
  SUBCASE("an unknown column, found before anything runs") {
    auto a = post_atts(R"({"schema_table": "cadastro.pessoa",
      "inserir": [{"nome": "Carla Vista", "tipo": "F", "cpf_cnpj": "V360-B-1"}, {"nome": "Y", "apelido": "y"}]})");
    CHECK(a->status == 400);
    CHECK(a->codigo() == "campo_desconhecido");
    CHECK(std::string_view(a->json()["lista"]) == "inserir");
    CHECK(int64_t(a->json()["linha"]) == 2);
  }
  SUBCASE("an update without id") {
    auto a = post_atts(R"({"schema_table": "cadastro.pessoa", "atualizar": [{"email": "sem-id@exemplo.com"}]})");
    CHECK(a->status == 400);
    CHECK(a->codigo() == "campo_obrigatorio");
    CHECK(int64_t(a->json()["linha"]) == 1);
  }
  CHECK(people_marked("V360-B-") == "0");
  CHECK(db("select coalesce(email, '-') from cadastro.pessoa where id = 4") == email4);
}

TEST_CASE_FIXTURE(Fixture, "atts needs write permission on the layer and a cadastro table") {
  auto reader = city().add_user("alfa", "v360-leitor@alfa.gov.br", {"*:r"});
  const std::string body = R"({"schema_table": "cadastro.pessoa", "inserir": [{"nome": "D", "tipo": "F", "cpf_cnpj": "V360-C-1"}]})";
  auto denied = post_atts(body, reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  auto beta = post_atts(body, city().user("beta").token);
  CHECK(beta->status == 403);
  CHECK(people_marked("V360-C-") == "0");

  auto domain = post_atts(R"({"schema_table": "dominio.uso", "inserir": [{"id": "ZZ", "codigo": "ZZ", "descricao": "z"}]})");
  CHECK(domain->status == 400);
  CHECK(db("select count(*) from dominio.uso where codigo = 'ZZ'") == "0");
  CHECK(post_atts(R"({"schema_table": "plataforma.usuarios", "inserir": [{"email": "x"}]})")->status == 400);
  CHECK(post_atts(R"({"schema_table": "cadastro.nada", "inserir": [{"a": 1}]})")->status == 404);
  CHECK(post_atts(R"({"schema_table": "cadastro.pessoa", "apagar": []})")->status == 400);
  CHECK(post_atts(R"({"schema_table": "cadastro.pessoa"})")->status == 400);
  CHECK(post_atts(R"({"inserir": []})")->status == 400);
  CHECK(post_atts(R"({"schema_table": "cadastro.pessoa", "inserir": {"nome": "x"}})")->status == 400);
  CHECK(post_atts("not json")->status == 400);
}
