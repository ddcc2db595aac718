// List, create, update and delete of domain codes through HTTP, checked in the database,
// with the audit rows every write leaves.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(
    Fixture, "a domain table lists its rows ordered by codigo, with paging and the extra columns") {
  auto a = call("GET", "/dominio/alfa/topografia?limit=5");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::string_view(j["tabela"]) == "topografia");
  CHECK(std::to_string(int64_t(j["total"])) == db("select count(*) from dominio.topografia"));
  CHECK(int64_t(j["limite"]) == 5);
  std::string codes;
  for (auto r : j["registros"].get_array()) codes += std::string(std::string_view(r["codigo"])) + ",";
  CHECK(codes == db("select string_agg(codigo, ',' order by codigo) || ',' from "
                    "(select codigo from dominio.topografia order by codigo limit 5) c"));
  auto first = j["registros"].at(0);
  CHECK(std::string_view(first["id"]) == std::string_view(first["codigo"]));
  CHECK(double(first["fator"]) ==
        doctest::Approx(std::stod(db("select fator from dominio.topografia order by codigo limit 1"))));

  auto page2 = call("GET", "/dominio/alfa/topografia?limit=5&page=2");
  auto p2 = page2->json();
  CHECK(std::string(std::string_view(p2["registros"].at(0)["codigo"])) ==
        db("select codigo from dominio.topografia order by codigo offset 5 limit 1"));
  auto declive = call("GET", "/dominio/alfa/topografia?type=icontains&descricao=DECLIVE&limit=100");
  auto filtered = declive->json();
  CHECK(std::to_string(int64_t(filtered["total"])) == db("select count(*) from dominio.topografia where descricao ilike '%declive%'"));
  CHECK(call("GET", "/dominio/alfa/topografia?limit=0")->status == 400);
  CHECK(call("GET", "/dominio/alfa/topografia?nao_existe=1")->codigo() == "campo_desconhecido");
}

TEST_CASE_FIXTURE(
    Fixture, "creating a code stores it with its extra columns and records an insert audit row") {
  auto a = call("POST", "/dominio/alfa/topografia",
                R"({"id": "teste_criado", "codigo": "teste_criado", "descricao": "Criado no teste", "fator": 0.85})");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK(a->text("codigo") == "teste_criado");
  CHECK(db("select descricao || '|' || fator from dominio.topografia where id = 'teste_criado'") == "Criado no teste|0.85");
  CHECK(audit_of("topografia", "teste_criado") == "I|usuario@alfa.gov.br");
  CHECK(db("select depois->>'fator' from auditoria.registro where tabela = 'dominio.topografia' and registro_id = 'teste_criado'") ==
        "0.85");
  // Integer codes are read as their decimal text.
  auto n = call("POST", "/dominio/alfa/uso", R"({"id": 77, "codigo": "77", "descricao": "Uso numérico"})");
  CHECK_MESSAGE(n->status == 201, n->body);
  CHECK(db("select descricao from dominio.uso where codigo = '77'") == "Uso numérico");
}

TEST_CASE_FIXTURE(
    Fixture,
    "id different from codigo is a 400 that says they must be equal, and nothing is stored") {
  auto a = call("POST", "/dominio/alfa/topografia", R"({"id": "um", "codigo": "outro", "descricao": "Diferentes"})");
  CHECK(a->status == 400);
  CHECK(a->codigo() == "parametro_invalido");
  CHECK_MESSAGE(a->mensagem().find("id e codigo devem ser iguais") != std::string::npos, a->mensagem());
  CHECK(db("select count(*) from dominio.topografia where id in ('um', 'outro')") == "0");
  CHECK(audit_of("topografia", "um").empty());
}

TEST_CASE_FIXTURE(Fixture, "bad create bodies are 400s and a repeated code is a 409") {
  struct Case {
    const char* body;
    const char* codigo;
  };
  for (const Case& c : {Case{"{", "json_invalido"}, Case{R"({"codigo": "x", "descricao": "x"})", "campo_obrigatorio"},
                        Case{R"({"id": "x", "codigo": "x"})", "campo_obrigatorio"},
                        Case{R"({"id": "x", "codigo": "x", "descricao": "   "})", "parametro_invalido"},
                        Case{R"({"id": "x", "codigo": "x", "descricao": "x", "nao_existe": 1})", "campo_desconhecido"},
                        Case{R"({"id": "x", "codigo": "x", "descricao": "x", "fator": "abc"})", "parametro_invalido"},
                        Case{R"({"id": "x", "codigo": "x", "descricao": "x", "fator": [1]})", "parametro_invalido"}}) {
    auto a = call("POST", "/dominio/alfa/topografia", c.body);
    CHECK_MESSAGE(a->status == 400, c.body);
    CHECK_MESSAGE(a->codigo() == c.codigo, c.body << " → " << a->body);
  }
  // uso has no fator column.
  auto extra = call("POST", "/dominio/alfa/uso", R"({"id": "x", "codigo": "x", "descricao": "x", "fator": 1})");
  CHECK(extra->status == 400);
  CHECK(extra->codigo() == "campo_desconhecido");
  CHECK(db("select count(*) from dominio.topografia where id = 'x'") == "0");

  auto dup = call("POST", "/dominio/alfa/topografia", R"({"id": "plano", "codigo": "plano", "descricao": "De novo"})");
  CHECK(dup->status == 409);
  CHECK(dup->codigo() == "conflito");
  CHECK(db("select descricao from dominio.topografia where id = 'plano'") == "Plano");
}

TEST_CASE_FIXTURE(Fixture,
                  "updating a code changes descricao and fator and audits before and after") {
  REQUIRE(call("POST", "/dominio/alfa/pedologia", R"({"id": "p_upd", "codigo": "p_upd", "descricao": "Antes", "fator": 0.5})")
              ->status == 201);
  auto a = call("PUT", "/dominio/alfa/pedologia/p_upd", R"({"descricao": "Depois", "fator": 0.75})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->text("descricao") == "Depois");
  CHECK(db("select descricao || '|' || fator from dominio.pedologia where id = 'p_upd'") == "Depois|0.75");
  CHECK(audit_of("pedologia", "p_upd") == "I|usuario@alfa.gov.br;U|usuario@alfa.gov.br");
  CHECK(db("select (antes->>'descricao') || '>' || (depois->>'descricao') from auditoria.registro "
           "where tabela = 'dominio.pedologia' and registro_id = 'p_upd' and operacao = 'U'") == "Antes>Depois");

  auto missing = call("PUT", "/dominio/alfa/pedologia/nao_existe", R"({"descricao": "x"})");
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
  auto rename = call("PUT", "/dominio/alfa/pedologia/p_upd", R"({"codigo": "outro", "descricao": "x"})");
  CHECK(rename->status == 400);
  CHECK(rename->mensagem().find("id e codigo devem ser iguais") != std::string::npos);
  CHECK(call("PUT", "/dominio/alfa/uso/residencial", R"({"descricao": "x", "fator": 1})")->codigo() == "campo_desconhecido");
  CHECK(db("select count(*) from auditoria.registro where tabela = 'dominio.pedologia' and registro_id = 'nao_existe'") == "0");
}

TEST_CASE_FIXTURE(Fixture, "deleting an unused code removes it and audits; a missing code is 404") {
  REQUIRE(call("POST", "/dominio/alfa/conservacao", R"({"id": "c_del", "codigo": "c_del", "descricao": "Apagar"})")->status ==
          201);
  auto a = call("DELETE", "/dominio/alfa/conservacao/c_del");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(std::string_view(a->json()["registro"]["descricao"]) == "Apagar");
  CHECK(db("select count(*) from dominio.conservacao where id = 'c_del'") == "0");
  CHECK(audit_of("conservacao", "c_del") == "I|usuario@alfa.gov.br;D|usuario@alfa.gov.br");
  CHECK(db("select (antes->>'codigo') || '|' || coalesce(depois::text, 'null') from auditoria.registro "
           "where tabela = 'dominio.conservacao' and registro_id = 'c_del' and operacao = 'D'") == "c_del|null");
  CHECK(call("DELETE", "/dominio/alfa/conservacao/c_del")->status == 404);
  // A hostile id is only ever a bound value: it matches nothing.
  CHECK(call("DELETE", "/dominio/alfa/topografia/plano'%20or%20'1'='1")->status == 404);
  CHECK(db("select count(*) from dominio.topografia where id = 'plano'") == "1");
}

TEST_CASE_FIXTURE(
    Fixture,
    "deleting a code still used by a lot is a 409 and keeps the row and writes no audit row") {
  auto used = db("select topografia from cadastro.lote group by 1 order by count(*) desc limit 1");
  REQUIRE(!used.empty());
  auto a = call("DELETE", "/dominio/alfa/topografia/" + used);
  CHECK(a->status == 409);
  CHECK(a->codigo() == "conflito");
  CHECK_MESSAGE(a->mensagem().find("ainda é usado") != std::string::npos, a->mensagem());
  CHECK(db("select count(*) from dominio.topografia where id = '" + used + "'") == "1");
  CHECK(audit_of("topografia", used).empty());
}

TEST_CASE_FIXTURE(Fixture, "an unknown domain table is a 404 on every method") {
  for (const char* method : {"GET", "POST", "PUT", "DELETE"}) {
    std::string path = std::string("/dominio/alfa/nao_existe") + (std::string(method) == "GET" || std::string(method) == "POST" ? "" : "/x");
    auto a = call(method, path, R"({"id": "x", "codigo": "x", "descricao": "x"})");
    CHECK_MESSAGE(a->status == 404, method);
    CHECK(a->codigo() == "camada_nao_encontrada");
  }
  // A table of another schema is not a domain table.
  CHECK(call("GET", "/dominio/alfa/lote")->status == 404);
}
