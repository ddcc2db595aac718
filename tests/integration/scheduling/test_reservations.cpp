// /agendamento reservations through HTTP, checked in the database: booking, validation,
// capacity, listing with filters and paging, editing, deleting, audit trail.
#include "fixture.hpp"

using sched_test::booking;
using sched_test::Fixture;

TEST_CASE("booking a free slot stores the reservation, claims its place and audits the insert") {
  Fixture f;
  auto r = f.post("/agendamento/alfa/reservas", booking("07", "08:00"));
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 201);
  auto id = Fixture::member(r->body, "id");
  CHECK(Fixture::member(r->body, "status") == "agendado");
  CHECK(Fixture::member(r->body, "vistoriador") == "ana");  // first free inspector
  CHECK(Fixture::member(r->body, "inicio") == "2030-01-07T08:00:00-03:00");
  CHECK(Fixture::member(r->body, "fim") == "2030-01-07T09:00:00-03:00");  // default: one slot
  CHECK(f.db("select status || ':' || vistoriador || ':' || protocolo || ':' || solicitante_nome || ':' || criado_por "
             "from agendamento.reserva where id = " + id) == "agendado:ana:P-0708:00:Maria Silva:usuario@alfa.gov.br");
  CHECK(f.db("select (slot_inicio = '2030-01-07 11:00Z')::text || indice || vistoriador || indice_vistoriador "
             "from agendamento.vaga where reserva_id = " + id) == "true1ana1");
  CHECK(f.db("select operacao || ':' || usuario_email || ':' || (depois->>'status') from auditoria.registro "
             "where tabela = 'agendamento.reserva' and registro_id = '" + id + "'") == "I:usuario@alfa.gov.br:agendado");
}

TEST_CASE("a booking may name the property by lot and unit and a shorter end inside the slot") {
  Fixture f;
  f.stack().load_demo("alfa", 3);
  auto lote = f.db("select min(id) from cadastro.lote");
  auto unidade = f.db("select min(id) from cadastro.imobiliario");
  auto r = f.post("/agendamento/alfa/reservas",
                  R"({"inicio": "2030-01-07T14:00:00-03:00", "fim": "2030-01-07T14:30:00-03:00", "lote_id": )" + lote +
                      R"(, "imobiliario_id": )" + unidade + R"(, "vistoriador": "bruno", "solicitante": {"nome": "José"}})");
  REQUIRE(r->status == 201);
  auto id = Fixture::member(r->body, "id");
  CHECK(f.db("select lote_id || ':' || imobiliario_id || ':' || vistoriador || ':' || (fim - inicio) "
             "from agendamento.reserva where id = " + id) == lote + ":" + unidade + ":bruno:00:30:00");
  auto missing_lot = f.post("/agendamento/alfa/reservas",
                            R"({"inicio": "2030-01-07T08:00:00-03:00", "lote_id": 999999, "solicitante": {"nome": "X"}})");
  CHECK(missing_lot->status == 400);
  CHECK(Fixture::member(missing_lot->body, "mensagem") == "lote 999999 não existe no cadastro");
}

TEST_CASE("bookings outside opening hours, on holidays, in the past or with bad bodies are 400 and store nothing") {
  Fixture f;
  auto post = [&](const std::string& body) { return f.post("/agendamento/alfa/reservas", body)->status; };
  CHECK(post(booking("08", "08:00")) == 400);  // terça: closed
  CHECK(post(booking("07", "12:00")) == 400);  // segunda between periods
  CHECK(post(booking("07", "08:30")) == 400);  // straddles two slots
  CHECK(post(booking("09", "09:00")) == 400);  // quarta 2030-01-09 is a holiday
  CHECK(post(R"({"inicio": "2020-01-06T08:00:00-03:00", "protocolo": "P", "solicitante": {"nome": "A"}})") == 400);
  CHECK(post(booking("07", "08:00", "carla")) == 400);  // not an inspector of the agenda
  CHECK(post(R"({"protocolo": "P", "solicitante": {"nome": "A"}})") == 400);                        // no inicio
  CHECK(post(R"({"inicio": "2030-01-07T08:00:00-03:00", "solicitante": {"nome": "A"}})") == 400);  // no reference
  CHECK(post(R"({"inicio": "2030-01-07T08:00:00-03:00", "protocolo": "P"})") == 400);              // no requester
  CHECK(post(R"({"inicio": "ontem", "protocolo": "P", "solicitante": {"nome": "A"}})") == 400);
  CHECK(post(booking("07", "08:00", "", R"(, "cor": "azul")")) == 400);
  CHECK(post(booking("07", "08:00", "", R"(, "status": "concluido")")) == 400);
  CHECK(post(booking("07", "08:00", "", R"(, "fim": "2030-01-07T07:00:00-03:00")")) == 400);
  CHECK(post("{nao e json") == 400);
  auto r = f.post("/agendamento/alfa/reservas", booking("08", "08:00"));
  CHECK(Fixture::member(r->body, "codigo") == "parametro_invalido");
  CHECK(Fixture::member(r->body, "tipo") == "erro");
  CHECK(f.db("select count(*) from agendamento.reserva") == "0");
  CHECK(f.db("select count(*) from agendamento.vaga") == "0");
}

TEST_CASE("a full slot or an inspector already booked in it is 409 and stores nothing") {
  Fixture f;
  f.book("07", "08:00", "ana");
  auto again = f.post("/agendamento/alfa/reservas", booking("07", "08:00", "ana"));
  CHECK(again->status == 409);
  CHECK(Fixture::member(again->body, "codigo") == "conflito");
  auto other = f.book("07", "08:00");
  CHECK(f.db("select vistoriador from agendamento.reserva where id = " + other) == "bruno");
  CHECK(f.post("/agendamento/alfa/reservas", booking("07", "08:00"))->status == 409);
  CHECK(f.db("select count(*) || '/' || count(distinct v.indice) from agendamento.reserva r "
             "join agendamento.vaga v on v.reserva_id = r.id") == "2/2");
}

TEST_CASE("without an agenda, bookings and slots are 404 and the agenda can be configured") {
  Fixture f(false);
  f.platform_db(
      "update plataforma.tenants set fuso_horario = 'America/Manaus' where slug = 'alfa' returning "
      "1");
  CHECK(f.get("/agendamento/alfa/agenda")->status == 404);
  CHECK(f.post("/agendamento/alfa/reservas", booking("07", "08:00"))->status == 404);
  CHECK(f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-07&ate=2030-01-07")->status == 404);
  CHECK(f.get("/agendamento/alfa/reservas")->status == 200);
  CHECK(f.put("/agendamento/alfa/agenda", R"({"duracao_slot_minutos": 0, "semana": {}})")->status == 400);
  CHECK(f.put("/agendamento/alfa/agenda", R"({"duracao_slot_minutos": 60, "semanas": {}})")->status == 400);
  CHECK(f.put("/agendamento/alfa/agenda", R"({"duracao_slot_minutos": 60, "fuso_horario": "Marte/Olimpo"})")->status == 400);
  // Without fuso_horario the tenant's zone applies.
  auto r = f.put("/agendamento/alfa/agenda",
                 R"({"duracao_slot_minutos": 30, "capacidade_por_slot": 3, "semana": {"sexta": [{"inicio": "08:00", "fim": "09:00"}]}})");
  REQUIRE(r->status == 200);
  CHECK(Fixture::member(r->body, "fuso_horario") == "America/Manaus");
  CHECK(Fixture::member(r->body, "capacidade_total") == "3");
  auto g = f.get("/agendamento/alfa/agenda");
  REQUIRE(g->status == 200);
  CHECK(g->body.find("\"sexta\"") != std::string::npos);
  CHECK(f.db("select configuracao->>'duracao_slot_minutos' from agendamento.agenda") == "30");
  auto slots = f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-11&ate=2030-01-11");
  REQUIRE(slots->status == 200);
  CHECK(slots->body.find("\"2030-01-11T08:30:00-04:00\"") != std::string::npos);
  CHECK(f.db("select count(*) from auditoria.registro where tabela = 'agendamento.agenda'") == "1");
}

TEST_CASE("the list filters by status, inspector and local dates, and pages") {
  Fixture f;
  auto a = f.book("07", "08:00", "ana");
  auto b = f.book("07", "09:00", "bruno");
  auto c = f.book("14", "14:00", "ana");
  REQUIRE(f.put("/agendamento/alfa/avanca-status/" + b, "")->status == 200);
  auto ids = [&](const std::string& query) {
    auto r = f.get("/agendamento/alfa/reservas" + query);
    REQUIRE(r);
    INFO(r->body);
    REQUIRE(r->status == 200);
    simdjson::dom::parser p;
    auto j = p.parse(r->body);
    std::string out = std::to_string(int64_t(j["total"])) + ":";
    for (auto e : j["reservas"].get_array()) out += std::to_string(int64_t(e["id"])) + ",";
    return out;
  };
  CHECK(ids("") == "3:" + a + "," + b + "," + c + ",");
  CHECK(ids("?status=agendado") == "2:" + a + "," + c + ",");
  CHECK(ids("?status=em_progresso") == "1:" + b + ",");
  CHECK(ids("?vistoriador=ana") == "2:" + a + "," + c + ",");
  CHECK(ids("?de=2030-01-08") == "1:" + c + ",");
  CHECK(ids("?de=2030-01-07&ate=2030-01-07") == "2:" + a + "," + b + ",");
  CHECK(ids("?ate=2030-01-06") == "0:");
  CHECK(ids("?limit=1&page=2") == "3:" + b + ",");
  auto page = f.get("/agendamento/alfa/reservas?limit=2&page=2");
  CHECK(Fixture::member(page->body, "pagina") == "2");
  CHECK(Fixture::member(page->body, "limite") == "2");
  CHECK(f.get("/agendamento/alfa/reservas?status=cancelado")->status == 400);
  CHECK(f.get("/agendamento/alfa/reservas?de=07/01/2030")->status == 400);
  CHECK(f.get("/agendamento/alfa/reservas?limit=0")->status == 400);
}

TEST_CASE("editing changes the given fields, reschedules with the booking checks and is audited") {
  Fixture f;
  auto id = f.book("07", "08:00", "ana");
  auto busy = f.book("07", "09:00", "ana");
  f.book("07", "09:00", "bruno");
  auto r = f.put("/agendamento/alfa/reservas/" + id, R"({"solicitante": {"contato": "(19) 3333-4444"}, "observacao": "portão azul"})");
  REQUIRE(r->status == 200);
  CHECK(f.db("select solicitante_nome || ':' || solicitante_contato || ':' || observacao from agendamento.reserva where id = " + id) ==
        "Maria Silva:(19) 3333-4444:portão azul");
  // Reschedule into the full 09:00 slot: refused, nothing changes.
  CHECK(f.put("/agendamento/alfa/reservas/" + id, R"({"inicio": "2030-01-07T09:00:00-03:00"})")->status == 409);
  CHECK(f.put("/agendamento/alfa/reservas/" + id, R"({"inicio": "2030-01-08T09:00:00-03:00"})")->status == 400);
  CHECK(f.db("select to_char(inicio at time zone 'America/Sao_Paulo', 'DD HH24') from agendamento.reserva where id = " + id) == "07 08");
  // Reschedule to a free slot with the other inspector: the place moves with it.
  auto moved = f.put("/agendamento/alfa/reservas/" + id, R"({"inicio": "2030-01-07T14:00:00-03:00", "vistoriador": "bruno"})");
  REQUIRE(moved->status == 200);
  CHECK(Fixture::member(moved->body, "fim") == "2030-01-07T15:00:00-03:00");
  CHECK(f.db("select (slot_inicio = '2030-01-07 17:00Z')::text || vistoriador from agendamento.vaga where reserva_id = " + id) == "truebruno");
  // Keeping its own time is not a conflict with itself.
  CHECK(f.put("/agendamento/alfa/reservas/" + busy, R"({"fim": "2030-01-07T09:45:00-03:00"})")->status == 200);
  CHECK(f.db("select count(*) from auditoria.registro where tabela = 'agendamento.reserva' and operacao = 'U' and registro_id = '" + id + "'") == "2");
  CHECK(f.db("select antes->>'inicio' <> depois->>'inicio' from auditoria.registro where tabela = 'agendamento.reserva' "
             "and operacao = 'U' and registro_id = '" + id + "' order by id desc limit 1") == "t");
  CHECK(f.put("/agendamento/alfa/reservas/999999", R"({"observacao": "x"})")->status == 404);
  CHECK(f.put("/agendamento/alfa/reservas/abc", R"({"observacao": "x"})")->status == 400);
  CHECK(f.put("/agendamento/alfa/reservas/" + id, R"({"status": "concluido"})")->status == 400);
  CHECK(f.put("/agendamento/alfa/reservas/" + id, R"({"solicitante": {"nome": null}})")->status == 400);
}

TEST_CASE("deleting a reservation frees its place and is audited; a missing one is 404") {
  Fixture f;
  auto a = f.book("07", "08:00");
  f.book("07", "08:00");
  CHECK(f.post("/agendamento/alfa/reservas", booking("07", "08:00"))->status == 409);
  auto r = f.del("/agendamento/alfa/reservas/" + a);
  REQUIRE(r->status == 200);
  CHECK(r->body.find("\"reserva\"") != std::string::npos);
  CHECK(f.db("select count(*) from agendamento.reserva where id = " + a) == "0");
  CHECK(f.db("select count(*) from agendamento.vaga where reserva_id = " + a) == "0");
  CHECK(f.db("select operacao || ':' || (antes->>'id') from auditoria.registro where tabela = 'agendamento.reserva' "
             "and operacao = 'D'") == "D:" + a);
  CHECK(f.post("/agendamento/alfa/reservas", booking("07", "08:00"))->status == 201);
  CHECK(f.del("/agendamento/alfa/reservas/" + a)->status == 404);
}
