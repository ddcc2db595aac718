// The citizen's routes: no bearer, the inspection's access token in the query or body;
// only the citizen fields, read and written.
#include "fixture.hpp"

using namespace desk_test;

namespace {
std::string path(const std::string& id, const std::string& slug = "alfa") {
  return "/atendimento/" + slug + "/public/vistoria/" + id;
}
std::string citizen_row(const std::string& id) {
  return fixture().db(
      "select concat_ws('|', contato_cidadao, disponibilidade, observacoes_cidadao, "
      "fotos_cidadao::text, status, "
      "constatacoes) from atendimento.vistoria where agendamento_id = " +
      id);
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "the citizen reads the inspection with its token; only status, time and citizen "
                  "fields are shown") {
  auto [id, token] = inspection(R"(, "constatacoes": "nota interna", "checklist": [{"item": "muro", "ok": false}])");
  auto a = call("GET", path(id) + "?token=" + token, "", "");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(member(*a, "agendamento_id") == id);
  CHECK(member(*a, "status") == "pendente");
  CHECK(member(*a, "fotos_cidadao") == "[]");
  CHECK(a->json()["inicio"].is_string());
  for (const char* hidden : {"token_hash", "constatacoes", "nota interna", "checklist", "criado_por", "vistoriador",
                             "solicitante_nome", "protocolo_id", token.c_str()})
    CHECK_MESSAGE(a->body.find(hidden) == std::string::npos, std::string(hidden));
  // A bearer token is not what this route takes.
  CHECK(call("GET", path(id), "", this->token())->status == 401);
}

TEST_CASE_FIXTURE(Fixture,
                  "a missing or wrong token is 401, also for unknown inspections; an unknown "
                  "municipality is 404") {
  auto [id, token] = inspection();
  auto [other, other_token] = inspection();
  auto missing = call("GET", path(id), "", "");
  CHECK(missing->status == 401);
  CHECK(missing->codigo() == "nao_autenticado");
  CHECK(call("GET", path(id) + "?token=", "", "")->status == 401);
  CHECK(call("GET", path(id) + "?token=" + std::string(64, 'a'), "", "")->status == 401);
  CHECK(call("GET", path(id) + "?token=" + token.substr(0, 63), "", "")->status == 401);
  CHECK(call("GET", path(id) + "?token=" + other_token, "", "")->status == 401);  // another inspection's token
  CHECK(call("GET", path("99999999") + "?token=" + token, "", "")->status == 401);
  CHECK(call("GET", path(id, "beta") + "?token=" + token, "", "")->status == 401);  // same id, other tenant
  CHECK(call("GET", path(id, "zeta") + "?token=" + token, "", "")->status == 404);
  CHECK(call("GET", path(id, "_publico") + "?token=" + token, "", "")->status == 404);
  CHECK(call("GET", path("abc") + "?token=" + token, "", "")->status == 400);
  CHECK(call("PUT", path(id), R"({"contato_cidadao": "x"})", "")->status == 401);
  CHECK(call("PUT", path(id), R"({"token": "errado", "contato_cidadao": "x"})", "")->status == 401);
  CHECK(call("PUT", path(id) + "?token=" + other_token, R"({"contato_cidadao": "x"})", "")->status == 401);
  // A wrong token with a forbidden field is still 401: fields are judged after the token.
  CHECK(call("PUT", path(id), R"({"token": "errado", "status": "concluida"})", "")->status == 401);
  CHECK(citizen_row(id) == "{}|pendente");
}

TEST_CASE_FIXTURE(Fixture,
                  "the citizen updates contact, availability, notes and photos, with the token in "
                  "the body or query") {
  auto [id, token] = inspection();
  auto foto = public_key();
  auto a = call("PUT", path(id),
                R"({"token": ")" + token + R"(", "contato_cidadao": "(19) 99999-1234", "disponibilidade": "manhãs", )"
                R"("observacoes_cidadao": "portão azul", "fotos_cidadao": [")" + foto + R"("]})",
                "");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(member(*a, "contato_cidadao") == "(19) 99999-1234");
  CHECK(citizen_row(id) == "(19) 99999-1234|manhãs|portão azul|{" + foto + "}|pendente");
  std::string link(std::string_view(a->json()["fotos_cidadao_links"].at(0)));
  CHECK(link == "/midia/get?file_url=" + foto);
  CHECK(call("GET", link, "", "")->status == 200);
  CHECK(db("select usuario_email || '|' || (depois->>'contato_cidadao') from auditoria.registro where tabela = "
           "'atendimento.vistoria' and registro_id = '" + id + "' and operacao = 'U'") == "cidadao|(19) 99999-1234");
  // The staff see what the citizen wrote.
  auto staff = call("GET", "/atendimento/alfa/vistoria/" + id);
  CHECK(member(*staff, "observacoes_cidadao") == "portão azul");

  auto q = call("PUT", path(id) + "?token=" + token, R"({"disponibilidade": null})", "");
  REQUIRE_MESSAGE(q->status == 200, q->body);
  CHECK(citizen_row(id) == "(19) 99999-1234|portão azul|{" + foto + "}|pendente");
}

TEST_CASE_FIXTURE(Fixture, "any field but the citizen's is refused with 400 and nothing changes") {
  auto [id, token] = inspection(R"(, "constatacoes": "interna")");
  auto before = citizen_row(id);
  auto hash = db("select token_hash from atendimento.vistoria where agendamento_id = " + id);
  auto tenant_photo = db("select chave from midia.arquivo where id = " + media_id());
  for (const std::string& field :
       {std::string(R"("status": "concluida")"), std::string(R"("constatacoes": "alterada")"),
        std::string(R"("checklist": [])"), std::string(R"("fotos": [1])"), std::string(R"("token_hash": "00")"),
        std::string(R"("agendamento_id": 1)"), std::string(R"("protocolo_id": 1)"), std::string(R"("criado_por": "x")"),
        std::string(R"("contato_cidadao": 5)"), R"("fotos_cidadao": [")" + tenant_photo + R"("])",
        R"("fotos_cidadao": ["_publico.)" + std::string(64, 'a') + R"(.png"])", std::string(R"("fotos_cidadao": ["../x"])")}) {
    auto a = call("PUT", path(id), R"({"token": ")" + token + R"(", "contato_cidadao": "ok", )" + field + "}", "");
    CHECK_MESSAGE(a->status == 400, field << " → " << a->body);
  }
  CHECK(call("PUT", path(id), R"({"token": ")" + token + R"("})", "")->status == 400);  // nothing to change
  CHECK(citizen_row(id) == before);
  CHECK(db("select token_hash from atendimento.vistoria where agendamento_id = " + id) == hash);
}

TEST_CASE_FIXTURE(Fixture,
                  "a concluded or cancelled inspection no longer takes the citizen's changes (409) "
                  "but is still readable") {
  auto [id, token] = inspection();
  REQUIRE(call("PUT", "/atendimento/alfa/vistoria/" + id, R"({"status": "concluida"})")->status == 200);
  auto a = call("PUT", path(id), R"({"token": ")" + token + R"(", "contato_cidadao": "tarde"})", "");
  CHECK(a->status == 409);
  CHECK(citizen_row(id) == "{}|concluida");
  auto r = call("GET", path(id) + "?token=" + token, "", "");
  CHECK(r->status == 200);
  CHECK(member(*r, "status") == "concluida");
}
