// Credentials and the "atendimento" permission on every staff route of /atendimento.
#include "fixture.hpp"

using namespace desk_test;

namespace {
struct Call {
  std::string method, path, body;
  bool write;
};

std::vector<Call> staff_routes(const std::string& id) {
  auto fresh = reserve();
  return {{"GET", "/atendimento/alfa/protocolos", "", false},
          {"POST", "/atendimento/alfa/vistoria", R"({"agendamento_id": )" + fresh + "}", true},
          {"GET", "/atendimento/alfa/vistoria", "", false},
          {"GET", "/atendimento/alfa/vistoria/" + id, "", false},
          {"PUT", "/atendimento/alfa/vistoria/" + id, R"({"status": "em_andamento"})", true},
          {"POST", "/atendimento/alfa/auditoria",
           R"({"tabela": "cadastro.lote", "registro_id": 1, "alteracao": {"area": 1}, "decisao": "aprovado"})", true}};
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "staff routes: missing or wrong credential 401, another tenant's credential 403, "
                  "nothing written") {
  auto [id, token] = inspection();
  auto counts = [] {
    return fixture().db(
        "select (select count(*) from atendimento.vistoria) || '/' || (select count(*) from "
        "atendimento.auditoria)"
        " || '/' || (select string_agg(status, ',') from atendimento.vistoria)");
  };
  auto before = counts();
  for (const auto& c : staff_routes(id)) {
    INFO(c.method << " " << c.path);
    auto missing = call(c.method, c.path, c.body, "");
    CHECK(missing->status == 401);
    CHECK(missing->codigo() == "nao_autenticado");
    CHECK(call(c.method, c.path, c.body, std::string(64, '0'))->status == 401);
    CHECK(call(c.method, c.path, c.body, token)->status == 401);  // the inspection token is no bearer
    auto other = call(c.method, c.path, c.body, this->token("beta"));
    CHECK(other->status == 403);
    CHECK(other->codigo() == "municipio_nao_permitido");
  }
  CHECK(counts() == before);
}

TEST_CASE_FIXTURE(Fixture, "reads need read and writes need write on layer atendimento") {
  auto [id, token] = inspection();
  auto reader = stack().add_user("alfa", "leitor-atendimento@alfa.gov.br", {"atendimento:r"});
  auto outsider = stack().add_user("alfa", "so-lotes-atendimento@alfa.gov.br", {"lote:rw"});
  auto denied = stack().add_user("alfa", "sem-atendimento@alfa.gov.br", {"*:rw", "atendimento:"});
  for (const auto& c : staff_routes(id)) {
    INFO(c.method << " " << c.path);
    CHECK(call(c.method, c.path, c.body, outsider.token)->status == 403);
    CHECK(call(c.method, c.path, c.body, denied.token)->status == 403);
    auto r = call(c.method, c.path, c.body, reader.token);
    CHECK(r->status == (c.write ? 403 : 200));
  }
  CHECK(db("select status from atendimento.vistoria where agendamento_id = " + id) == "pendente");
  auto clerk = stack().add_user("alfa", "atendente@alfa.gov.br", {"atendimento:rw"});
  CHECK(call("PUT", "/atendimento/alfa/vistoria/" + id, R"({"status": "em_andamento"})", clerk.token)->status == 200);
  CHECK(db("select usuario_email from auditoria.registro where tabela = 'atendimento.vistoria' and registro_id = '" + id +
           "' and operacao = 'U'") == "atendente@alfa.gov.br");
}
