// Inspections (staff routes): creation with the one-time token stored hashed, reads,
// edits, list filters, and the refusals.
#include "fixture.hpp"

using namespace desk_test;

TEST_CASE_FIXTURE(
    Fixture,
    "creating an inspection answers its access token once; the database holds only its SHA-256") {
  auto foto = media_id();
  auto id = reserve();
  auto a = call("POST", "/atendimento/alfa/vistoria",
                R"({"agendamento_id": )" + id + R"(, "checklist": [{"item": "telhado", "ok": true}, "muro"], )"
                R"("constatacoes": "sem alterações", "fotos": [)" + foto + "]}");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string token = member(*a, "token");
  CHECK(token.size() == 64);
  CHECK(token.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(member(*a, "status") == "pendente");
  CHECK(member(*a, "fotos") == "[" + foto + "]");
  CHECK(a->body.find("token_hash") == std::string::npos);
  CHECK(member(*a, "criado_por") == "usuario@alfa.gov.br");

  CHECK(db("select token_hash from atendimento.vistoria where agendamento_id = " + id) ==
        cadastre::store::sha256_hex(token));
  // The token itself appears nowhere in the database: not in the row, not in the audit trail.
  CHECK(db("select count(*) from atendimento.vistoria v where strpos(v::text, '" + token + "') > 0") == "0");
  CHECK(db("select count(*) from auditoria.registro r where strpos(r::text, '" + token + "') > 0") == "0");
  CHECK(db("select count(*) from auditoria.registro where tabela = 'atendimento.vistoria' and registro_id = '" + id +
           "' and operacao = 'I' and not (depois ? 'token_hash')") == "1");

  // Reads never show the token or its hash.
  auto got = call("GET", "/atendimento/alfa/vistoria/" + id);
  REQUIRE(got->status == 200);
  CHECK(got->body.find(token) == std::string::npos);
  CHECK(got->body.find("token") == std::string::npos);
  CHECK(member(*got, "constatacoes") == "sem alterações");
  CHECK(member(*got, "checklist") == R"([{"ok":true,"item":"telhado"},"muro"])");
  CHECK(std::string(std::string_view(got->json()["fotos_arquivos"].at(0)["link"])).rfind("/midia/get?file_url=alfa.", 0) == 0);
  CHECK(int64_t(got->json()["reserva"]["id"]) == std::stoll(id));

  // Two creations give two different tokens.
  auto [other, token2] = inspection();
  CHECK(token2 != token);
}

TEST_CASE_FIXTURE(Fixture,
                  "an inspection needs an existing reservation without one (404, 409) and existing "
                  "photos and protocol (400)") {
  auto id = reserve();
  CHECK(call("POST", "/atendimento/alfa/vistoria", R"({"agendamento_id": 99999999})")->status == 404);
  CHECK(call("POST", "/atendimento/alfa/vistoria", R"({"agendamento_id": )" + id + "}")->status == 201);
  auto again = call("POST", "/atendimento/alfa/vistoria", R"({"agendamento_id": )" + id + "}");
  CHECK(again->status == 409);
  CHECK(again->codigo() == "conflito");

  // A photo id of the other tenant is not a photo of this one.
  db("select setval('midia.arquivo_id_seq', 500000)", "beta");
  auto beta_photo = media_id("beta");
  REQUIRE(db("select count(*) from midia.arquivo where id = " + beta_photo) == "0");
  auto fresh = reserve();
  auto foreign = call("POST", "/atendimento/alfa/vistoria",
                      R"({"agendamento_id": )" + fresh + R"(, "fotos": [)" + beta_photo + "]}");
  CHECK(foreign->status == 400);
  CHECK(foreign->mensagem().find(beta_photo) != std::string::npos);
  CHECK(call("POST", "/atendimento/alfa/vistoria", R"({"agendamento_id": )" + fresh + R"(, "protocolo_id": 99999999})")
            ->status == 400);
  for (const std::string& body :
       {R"({"agendamento_id": )" + fresh + R"(, "checklist": {"a": 1}})",
        R"({"agendamento_id": )" + fresh + R"(, "checklist": [1, 2]})",
        R"({"agendamento_id": )" + fresh + R"(, "fotos": ["1"]})",
        R"({"agendamento_id": )" + fresh + R"(, "fotos": [1, 1]})",
        R"({"agendamento_id": )" + fresh + R"(, "status": "feita"})",
        R"({"agendamento_id": )" + fresh + R"(, "token_hash": "00"})",
        R"({"agendamento_id": )" + fresh + R"(, "contato_cidadao": "x"})",
        std::string(R"({"agendamento_id": "1; drop table atendimento.vistoria"})"), std::string(R"({"checklist": []})"),
        std::string("[]"), std::string("{")}) {
    auto a = call("POST", "/atendimento/alfa/vistoria", body);
    CHECK_MESSAGE(a->status == 400, std::string(body) << " → " << a->body);
  }
  CHECK(db("select count(*) from atendimento.vistoria where agendamento_id = " + fresh) == "0");
}

TEST_CASE_FIXTURE(Fixture,
                  "staff edit checklist, findings, photos, protocol and status; the token and "
                  "citizen fields stay") {
  auto [id, token] = inspection();
  auto hash = db("select token_hash from atendimento.vistoria where agendamento_id = " + id);
  auto protocolo = db("insert into atendimento.protocolo (ano, numero, solicitante_nome, assunto) values "
                      "(2013, 1, 'Fulano', 'Vistoria') returning id");
  auto foto = media_id();
  auto put = call("PUT", "/atendimento/alfa/vistoria/" + id,
                  R"({"status": "concluida", "constatacoes": "ampliação nos fundos", "fotos": [)" + foto +
                      R"(], "protocolo_id": )" + protocolo + R"(, "checklist": [{"item": "área", "ok": false}]})");
  REQUIRE_MESSAGE(put->status == 200, put->body);
  CHECK(member(*put, "status") == "concluida");
  CHECK(db("select status || '|' || constatacoes || '|' || fotos::text || '|' || protocolo_id || '|' || token_hash "
           "from atendimento.vistoria where agendamento_id = " + id) ==
        "concluida|ampliação nos fundos|{" + foto + "}|" + protocolo + "|" + hash);
  CHECK(db("select depois->>'status' from auditoria.registro where tabela = 'atendimento.vistoria' and registro_id = '" +
           id + "' and operacao = 'U'") == "concluida");
  CHECK(call("PUT", "/atendimento/alfa/vistoria/" + id, R"({"agendamento_id": )" + id + R"(, "status": "pendente"})")
            ->status == 200);
  for (const char* body : {R"({"token_hash": "abc"})", R"({"contato_cidadao": "x"})", R"({"agendamento_id": 1})",
                           R"({"criado_em": "2020-01-01"})", R"({})", R"({"status": null})"}) {
    auto a = call("PUT", "/atendimento/alfa/vistoria/" + id, body);
    CHECK_MESSAGE(a->status == 400, std::string(body) << " → " << a->body);
  }
  CHECK(db("select token_hash from atendimento.vistoria where agendamento_id = " + id) == hash);
  CHECK(call("PUT", "/atendimento/alfa/vistoria/99999999", R"({"status": "pendente"})")->status == 404);
  CHECK(call("GET", "/atendimento/alfa/vistoria/99999999")->status == 404);
  CHECK(call("GET", "/atendimento/alfa/vistoria/abc")->status == 400);
  CHECK(call("PUT", "/atendimento/alfa/vistoria/0", R"({"status": "pendente"})")->status == 400);
}

TEST_CASE_FIXTURE(Fixture,
                  "inspections are listed by the reservation's start with filters status, protocol "
                  "and local dates") {
  auto protocolo = db("insert into atendimento.protocolo (ano, numero, solicitante_nome, assunto) values "
                      "(2014, 1, 'Beltrano', 'Vistoria') returning id");
  // Reservations far ahead, on 2 fixed local days, so other tests' inspections stay out.
  auto at = [&](const char* when) {
    return fixture().db(std::string("insert into agendamento.reserva (inicio, fim, protocolo, "
                                    "solicitante_nome) values ('") +
                        when + "', timestamptz '" + when +
                        "' + interval '1 hour', 'P-LISTA', 'Lista') returning id");
  };
  auto r1 = at("2040-03-05 08:00-03"), r2 = at("2040-03-05 23:30-03"), r3 = at("2040-03-06 09:00-03");
  for (const auto& r : {r1, r2, r3})
    REQUIRE(call("POST", "/atendimento/alfa/vistoria", R"({"agendamento_id": )" + r + "}")->status == 201);
  REQUIRE(call("PUT", "/atendimento/alfa/vistoria/" + r2, R"({"protocolo_id": )" + protocolo + R"(, "status": "em_andamento"})")
              ->status == 200);

  auto ids = [](Answer& a) {
    std::string out;
    for (auto v : a.json()["vistorias"].get_array())
      out += (out.empty() ? "" : ",") + std::to_string(int64_t(v["agendamento_id"]));
    return out;
  };
  auto day = call("GET", "/atendimento/alfa/vistoria?de=2040-03-05&ate=2040-03-05");
  REQUIRE(day->status == 200);
  CHECK(ids(*day) == r1 + "," + r2);  // 23:30 local is already the 6th in UTC, still the 5th here
  CHECK(ids(*call("GET", "/atendimento/alfa/vistoria?de=2040-03-05&ate=2040-03-06")) == r1 + "," + r2 + "," + r3);
  CHECK(ids(*call("GET", "/atendimento/alfa/vistoria?protocolo_id=" + protocolo)) == r2);
  CHECK(ids(*call("GET", "/atendimento/alfa/vistoria?de=2040-03-05&status=em_andamento")) == r2);
  auto paged = call("GET", "/atendimento/alfa/vistoria?de=2040-03-05&ate=2040-03-06&limit=2&page=2");
  CHECK(member(*paged, "total") == "3");
  CHECK(ids(*paged) == r3);
  CHECK(paged->body.find("token") == std::string::npos);
  auto all = call("GET", "/atendimento/alfa/vistoria");
  CHECK(member(*all, "total") == db("select count(*) from atendimento.vistoria"));
  for (const char* q : {"?status=feita", "?protocolo_id=x", "?de=2040-02-30", "?agendamento=1", "?limit=5000"})
    CHECK_MESSAGE(call("GET", std::string("/atendimento/alfa/vistoria") + q)->status == 400, std::string(q));
}
