// The demo agenda: an agenda with two inspectors and reservations in every status, usable
// through the routes.
#include <libpq-fe.h>

#include "fixture.hpp"
#include "demo/agenda.hpp"

using sched_test::Fixture;

TEST_CASE("the demo agenda stores the weekly agenda and reservations in every status, and reloads cleanly") {
  Fixture f(false);
  f.stack().load_demo("alfa", 5);
  PGconn* c = PQconnectdb(f.stack().tenant_dsn("alfa").c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  CHECK(cadastre::store::load_demo_agenda(c) == 7);
  CHECK(cadastre::store::load_demo_agenda(c) == 7);  // replaces its own reservations
  PQfinish(c);
  CHECK(f.db("select string_agg(status || '=' || n, ',' order by status) from (select status, count(*) n "
             "from agendamento.reserva group by status) t") == "agendado=4,concluido=2,em_progresso=1");
  CHECK(f.db("select count(*) from agendamento.vaga") == "7");
  CHECK(f.db("select count(*) from agendamento.reserva where lote_id is not null and imobiliario_id is not null") == "7");
  auto agenda = f.get("/agendamento/alfa/agenda");
  REQUIRE(agenda->status == 200);
  CHECK(Fixture::member(agenda->body, "capacidade_total") == "2");
  CHECK(agenda->body.find("\"bruno.lima\"") != std::string::npos);
  auto list = f.get("/agendamento/alfa/reservas?status=em_progresso");
  REQUIRE(list->status == 200);
  CHECK(Fixture::member(list->body, "total") == "1");
  auto concluded = f.db("select min(id) from agendamento.reserva where status = 'concluido'");
  CHECK(f.put("/agendamento/alfa/avanca-status/" + concluded, "")->status == 409);
  // Next week's Monday 08:00 is fully booked in the demo; 09:00 is free for both inspectors.
  auto monday = f.db("select to_char(date_trunc('week', now() at time zone 'America/Sao_Paulo')::date + 7, 'YYYY-MM-DD')");
  auto slots = f.get("/agendamento/alfa/horarios-disponiveis?de=" + monday + "&ate=" + monday);
  REQUIRE(slots->status == 200);
  CHECK(slots->body.find(monday + "T08:00:00-03:00") == std::string::npos);
  CHECK(slots->body.find(monday + "T09:00:00-03:00") != std::string::npos);
}
