// The reservation status machine and the free slots of the agenda, through HTTP.
#include <atomic>
#include <thread>
#include <vector>

#include "fixture.hpp"

using sched_test::Fixture;
using sched_test::Stack;

TEST_CASE("the status advances agendado → em_progresso → concluido, then 409 naming concluido") {
  Fixture f;
  auto id = f.book("07", "08:00");
  auto first = f.put("/agendamento/alfa/avanca-status/" + id, "");
  REQUIRE(first->status == 200);
  CHECK(Fixture::member(first->body, "status") == "em_progresso");
  CHECK(f.db("select status from agendamento.reserva where id = " + id) == "em_progresso");
  // Only scheduled reservations can be moved to another time.
  CHECK(f.put("/agendamento/alfa/reservas/" + id, R"({"inicio": "2030-01-07T09:00:00-03:00"})")->status == 409);
  auto second = f.put("/agendamento/alfa/avanca-status/" + id, "");
  REQUIRE(second->status == 200);
  CHECK(Fixture::member(second->body, "status") == "concluido");
  auto third = f.put("/agendamento/alfa/avanca-status/" + id, "");
  CHECK(third->status == 409);
  CHECK(Fixture::member(third->body, "codigo") == "transicao_invalida");
  CHECK(Fixture::member(third->body, "mensagem").find("concluido") != std::string::npos);
  CHECK(f.db("select status from agendamento.reserva where id = " + id) == "concluido");
  CHECK(f.db("select string_agg((antes->>'status') || '>' || (depois->>'status'), ',' order by id) from auditoria.registro "
             "where tabela = 'agendamento.reserva' and operacao = 'U' and registro_id = '" + id + "'") ==
        "agendado>em_progresso,em_progresso>concluido");
  CHECK(f.put("/agendamento/alfa/avanca-status/999999", "")->status == 404);
  CHECK(f.put("/agendamento/alfa/avanca-status/0", "")->status == 400);
}

TEST_CASE("concurrent status advances never skip a state: exactly two succeed") {
  Fixture f;
  auto id = f.book("07", "08:00");
  std::atomic<int> ok{0}, refused{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      httplib::Client c = f.stack().client();
      auto r = c.Put("/agendamento/alfa/avanca-status/" + id, Stack::bearer(f.token()), "",
                     "application/json");
      if (r && r->status == 200)
        ++ok;
      else if (r && r->status == 409)
        ++refused;
      else
        ++other;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 2);
  CHECK(refused == 6);
  CHECK(other == 0);
  CHECK(f.db("select status from agendamento.reserva where id = " + id) == "concluido");
  CHECK(f.db("select count(*) from auditoria.registro where tabela = 'agendamento.reserva' and operacao = 'U'") == "2");
}

namespace {
// The slot list of an answer as "data inicio–fim capacidade/ocupadas/livres [livres]" lines.
std::string slots_text(const std::string& body) {
  simdjson::dom::parser p;
  auto j = p.parse(body);
  std::string out;
  for (auto s : j["horarios"].get_array()) {
    out += std::string(std::string_view(s["data"])) + " " + std::string(std::string_view(s["inicio"])) + "–" +
           std::string(std::string_view(s["fim"])) + " " + std::to_string(int64_t(s["capacidade"])) + "/" +
           std::to_string(int64_t(s["ocupadas"])) + "/" + std::to_string(int64_t(s["livres"])) + " [";
    for (auto v : s["vistoriadores_livres"].get_array()) out += std::string(std::string_view(v)) + " ";
    out += "]\n";
  }
  return out;
}
}  // namespace

TEST_CASE("free slots match the hand-computed slots of the agenda, bookings and holidays") {
  Fixture f;
  f.book("07", "08:00", "ana");
  f.book("07", "09:00", "ana");
  f.book("07", "09:00", "bruno");
  auto r = f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-07&ate=2030-01-13");
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 200);
  CHECK(Fixture::member(r->body, "fuso_horario") == "America/Sao_Paulo");
  // Monday: 08:00 has one place left (bruno), 09:00 is full, 14:00 is free; Wednesday is a holiday.
  CHECK(slots_text(r->body) ==
        "2030-01-07 2030-01-07T08:00:00-03:00–2030-01-07T09:00:00-03:00 2/1/1 [bruno ]\n"
        "2030-01-07 2030-01-07T14:00:00-03:00–2030-01-07T15:00:00-03:00 2/0/2 [ana bruno ]\n");
  auto wednesday = f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-16&ate=2030-01-16");
  REQUIRE(wednesday->status == 200);
  CHECK(slots_text(wednesday->body) ==
        "2030-01-16 2030-01-16T09:00:00-03:00–2030-01-16T10:00:00-03:00 2/0/2 [ana bruno ]\n"
        "2030-01-16 2030-01-16T10:00:00-03:00–2030-01-16T11:00:00-03:00 2/0/2 [ana bruno ]\n");
  CHECK(f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-07")->status == 400);
  CHECK(f.get("/agendamento/alfa/horarios-disponiveis?ate=2030-01-07")->status == 400);
  CHECK(f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-08&ate=2030-01-07")->status == 400);
  CHECK(f.get("/agendamento/alfa/horarios-disponiveis?de=2030-01-01&ate=2030-12-31")->status == 400);
  CHECK(f.get("/agendamento/alfa/horarios-disponiveis?de=2030-02-30&ate=2030-03-01")->status == 400);
}
