// Capacity is enforced in the database: parallel bookings of the last free place.
#include <libpq-fe.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "fixture.hpp"

using sched_test::booking;
using sched_test::Fixture;
using sched_test::Stack;

namespace {
// More HTTP threads than bookers and a larger pool, so that all 20 bookings are in flight at once.
cadastre::server::AppOptions roomy() {
  cadastre::server::AppOptions o;
  o.http.threads = 32;
  o.pool.size = 12;
  return o;
}
}  // namespace

TEST_CASE("20 parallel bookings of the last free place: exactly one is created, 19 get 409") {
  Fixture f(true, roomy());
  f.book("07", "08:00");  // one of the two places of the slot
  constexpr int kBookers = 20;
  std::atomic<int> created{0}, full{0}, other{0}, connected{0};
  std::mutex mutex;
  std::string unexpected;
  std::vector<std::thread> threads;
  for (int i = 0; i < kBookers; ++i) {
    threads.emplace_back([&, i] {
      httplib::Client c = f.stack().client();
      c.set_keep_alive(true);
      c.set_read_timeout(30, 0);
      // Open the connection first, then wait until every booker has one: the POSTs start together.
      auto warm = c.Get("/agendamento/alfa/agenda", Stack::bearer(f.token()));
      ++connected;
      while (connected < kBookers) std::this_thread::yield();
      auto body = booking("07", "08:00", "", R"(, "observacao": "paralela )" + std::to_string(i) + "\"");
      auto r = warm ? c.Post("/agendamento/alfa/reservas", Stack::bearer(f.token()), body,
                             "application/json")
                    : std::move(warm);
      if (r && r->status == 201)
        ++created;
      else if (r && r->status == 409)
        ++full;
      else {
        ++other;
        std::lock_guard<std::mutex> lock(mutex);
        unexpected += (r ? std::to_string(r->status) + " " + r->body : "sem resposta: " + httplib::to_string(r.error())) + "\n";
      }
    });
  }
  for (auto& t : threads) t.join();
  INFO(unexpected);
  CHECK(created == 1);
  CHECK(full == 19);
  CHECK(other == 0);
  CHECK(f.db("select count(*) from agendamento.reserva where observacao like 'paralela %'") == "1");
  CHECK(f.db("select count(*) from agendamento.reserva") == "2");
  CHECK(f.db("select count(*) || '/' || count(distinct vistoriador) from agendamento.vaga") == "2/2");
}

namespace {
// SQLSTATE of running `sql` on `dsn` ("" when it succeeds).
std::string sqlstate(const std::string& dsn, const std::string& sql) {
  PGconn* c = PQconnectdb(dsn.c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  PGresult* r = PQexec(c, sql.c_str());
  const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  std::string out = state ? state : "";
  PQclear(r);
  PQfinish(c);
  return out;
}
}  // namespace

TEST_CASE("the database refuses a second claim of the same place even without the server's check") {
  Fixture f;
  auto id = f.book("07", "08:00");
  auto dsn = f.stack().tenant_dsn("alfa");
  auto other = f.db("insert into agendamento.reserva (inicio, fim, protocolo, solicitante_nome) values "
                    "('2030-01-07 11:00Z', '2030-01-07 12:00Z', 'X', 'Intruso') returning id");
  CHECK(sqlstate(dsn, "insert into agendamento.vaga (reserva_id, slot_inicio, indice) select " + other +
                          ", slot_inicio, indice from agendamento.vaga where reserva_id = " + id) == "23505");
  CHECK(sqlstate(dsn, "insert into agendamento.vaga (reserva_id, slot_inicio, indice, vistoriador, indice_vistoriador) "
                      "values (" + other + ", '2030-01-07 11:00Z', 2, 'ana', 1)") == "23505");
  CHECK(sqlstate(dsn, "insert into agendamento.vaga (reserva_id, slot_inicio, indice, vistoriador, indice_vistoriador) "
                      "values (" + other + ", '2030-01-07 11:00Z', 2, 'bruno', 1)") == "");
  CHECK(f.db("select count(*) from agendamento.vaga") == "2");
}
