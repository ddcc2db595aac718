// POST /atendimento/{municipio}/auditoria: who approved which change, when, with what decision.
#include "fixture.hpp"

using namespace desk_test;

TEST_CASE_FIXTURE(
    Fixture,
    "an approval records the table, record, change, decision, comment, the caller and the time") {
  auto approver = stack().add_user("alfa", "aprovador@alfa.gov.br", {"*:rw"});
  auto a = call("POST", "/atendimento/alfa/auditoria",
                R"({"tabela": "cadastro.lote", "registro_id": 42, "alteracao": {"area_terreno": [300, 320]},)"
                R"( "decisao": "aprovado", "comentario": "conferido na vistoria"})",
                approver.token);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string id = member(*a, "id");
  CHECK(member(*a, "usuario_email") == "aprovador@alfa.gov.br");
  CHECK(member(*a, "usuario_id") == std::to_string(approver.id));
  CHECK(db("select concat_ws('|', tabela, registro_id, alteracao::text, decisao, comentario, usuario_id, usuario_email, "
           "(em > now() - interval '1 minute')::text) from atendimento.auditoria where id = " + id) ==
        "cadastro.lote|42|{\"area_terreno\": [300, 320]}|aprovado|conferido na vistoria|" + std::to_string(approver.id) +
            "|aprovador@alfa.gov.br|true");
  auto rejected = call("POST", "/atendimento/alfa/auditoria",
                       R"({"tabela": "midia.arquivo", "registro_id": "7", "alteracao": {}, "decisao": "reprovado"})");
  REQUIRE(rejected->status == 201);
  CHECK(db("select decisao || '|' || coalesce(comentario, 'sem comentário') || '|' || usuario_email from "
           "atendimento.auditoria where id = " + member(*rejected, "id")) == "reprovado|sem comentário|usuario@alfa.gov.br");
}

TEST_CASE_FIXTURE(Fixture, "an approval with a bad or missing member is 400 and records nothing") {
  auto before = db("select count(*) from atendimento.auditoria");
  const std::string ok_rest = R"("registro_id": 1, "alteracao": {"a": 1}, "decisao": "aprovado")";
  for (const std::string& body :
       {R"({"tabela": "cadastro.lote; drop table x", )" + ok_rest + "}", R"({"tabela": "Cadastro.Lote", )" + ok_rest + "}",
        R"({"tabela": "a.b.c", )" + ok_rest + "}", R"({"tabela": ".lote", )" + ok_rest + "}",
        R"({)" + ok_rest + "}",
        std::string(R"({"tabela": "lote", "registro_id": 1, "alteracao": [1], "decisao": "aprovado"})"),
        std::string(R"({"tabela": "lote", "registro_id": 1, "decisao": "aprovado"})"),
        std::string(R"({"tabela": "lote", "registro_id": 1, "alteracao": {}, "decisao": "talvez"})"),
        std::string(R"({"tabela": "lote", "registro_id": "", "alteracao": {}, "decisao": "aprovado"})"),
        std::string(R"({"tabela": "lote", "alteracao": {}, "decisao": "aprovado"})"),
        R"({"tabela": "lote", "usuario_email": "outro@x", )" + ok_rest + "}",
        R"({"tabela": "lote", "em": "2000-01-01", )" + ok_rest + "}", std::string("nao json")}) {
    auto a = call("POST", "/atendimento/alfa/auditoria", body);
    CHECK_MESSAGE(a->status == 400, body << " → " << a->body);
  }
  CHECK(db("select count(*) from atendimento.auditoria") == before);
}
