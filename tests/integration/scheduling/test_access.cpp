// Credentials and permissions on every /agendamento route.
#include <vector>

#include "fixture.hpp"

using sched_test::booking;
using sched_test::Fixture;
using sched_test::Stack;

namespace {
struct Call {
  std::string method, path, body;
  bool write;
};

std::vector<Call> every_route(const std::string& id) {
  return {{"GET", "/agendamento/alfa/reservas", "", false},
          {"POST", "/agendamento/alfa/reservas", booking("07", "14:00"), true},
          {"PUT", "/agendamento/alfa/reservas/" + id, R"({"observacao": "x"})", true},
          {"DELETE", "/agendamento/alfa/reservas/" + id, "", true},
          {"PUT", "/agendamento/alfa/avanca-status/" + id, "", true},
          {"GET", "/agendamento/alfa/horarios-disponiveis?de=2030-01-07&ate=2030-01-07", "", false},
          {"GET", "/agendamento/alfa/agenda", "", false},
          {"PUT", "/agendamento/alfa/agenda", sched_test::kAgenda, true}};
}

int call(Fixture& f, const Call& c, const httplib::Headers& headers) {
  auto cl = f.stack().client();
  auto r = c.method == "GET"    ? cl.Get(c.path, headers)
           : c.method == "POST" ? cl.Post(c.path, headers, c.body, "application/json")
           : c.method == "PUT"  ? cl.Put(c.path, headers, c.body, "application/json")
                                : cl.Delete(c.path, headers);
  REQUIRE(r);
  return r->status;
}
}  // namespace

TEST_CASE("every route needs a valid bearer token of the tenant: missing or wrong 401, another tenant 403") {
  Fixture f;
  auto id = f.book("07", "08:00");
  auto beta = f.stack().user("beta").token;
  for (const auto& c : every_route(id)) {
    INFO(c.method << " " << c.path);
    CHECK(call(f, c, {}) == 401);
    CHECK(call(f, c, Stack::bearer("token-invalido")) == 401);
    CHECK(call(f, c, Stack::bearer(beta)) == 403);
  }
  CHECK(f.db("select count(*) || status from agendamento.reserva group by status") == "1agendado");
  CHECK(f.db("select count(*) from auditoria.registro where tabela = 'agendamento.reserva'") == "1");
}

TEST_CASE("reads need read and writes need write on layer agendamento; the agenda needs admin or layer agenda") {
  Fixture f;
  auto id = f.book("07", "08:00");
  auto reader = f.stack().add_user("alfa", "leitor@alfa.gov.br", {"agendamento:r"});
  auto outsider = f.stack().add_user("alfa", "outro@alfa.gov.br", {"lote:rw"});
  auto scheduler = f.stack().add_user("alfa", "agendador@alfa.gov.br", {"agendamento:rw"});
  auto admin = f.stack().add_user("alfa", "admin@alfa.gov.br", {}, true);
  for (const auto& c : every_route(id)) {
    INFO(c.method << " " << c.path);
    bool agenda_put = c.method == "PUT" && c.path == "/agendamento/alfa/agenda";
    CHECK(call(f, c, Stack::bearer(outsider.token)) == 403);
    if (c.write) CHECK(call(f, c, Stack::bearer(reader.token)) == 403);
    else CHECK(call(f, c, Stack::bearer(reader.token)) == 200);
    if (agenda_put) CHECK(call(f, c, Stack::bearer(scheduler.token)) == 403);
  }
  CHECK(f.db("select count(*) from agendamento.reserva") == "1");
  CHECK(f.put("/agendamento/alfa/reservas/" + id, R"({"observacao": "ok"})", scheduler.token)->status == 200);
  CHECK(f.put("/agendamento/alfa/agenda", sched_test::kAgenda, admin.token)->status == 200);
  auto agenda_writer = f.stack().add_user("alfa", "agenda@alfa.gov.br", {"agenda:rw"});
  CHECK(f.put("/agendamento/alfa/agenda", sched_test::kAgenda, agenda_writer.token)->status == 200);
}
