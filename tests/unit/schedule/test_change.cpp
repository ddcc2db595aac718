// Changing reservations: propose, moves, check_reschedule and the reservation windows,
// with values worked out by hand.
#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;

namespace {
Agenda hourly() { return Agenda::from_json(office_agenda); }  // 60-minute slots, America/Sao_Paulo

Reservation stored(std::string_view inicio, std::string_view fim,
                   std::optional<std::string> vistoriador = {}, Status status = Status::agendado) {
  Reservation r;
  r.intervalo = {at(inicio), at(fim)};
  r.vistoriador = std::move(vistoriador);
  r.status = status;
  return r;
}
}  // namespace

TEST_CASE("a new reservation: fim defaults to inicio plus the slot length") {
  ReservationChange c;
  c.inicio = "2030-01-07T08:00:00-03:00";  // 11:00 UTC
  Reservation r = propose(hourly(), c);
  CHECK(r.intervalo.inicio == at("2030-01-07T11:00:00Z"));
  CHECK(r.intervalo.fim == at("2030-01-07T12:00:00Z"));  // + 60 min
  CHECK(r.status == Status::agendado);
  CHECK_FALSE(r.vistoriador);

  c.fim = "2030-01-07T08:30:00-03:00";
  c.has_vistoriador = true;
  c.vistoriador = "ana";
  r = propose(hourly(), c);
  CHECK(r.intervalo.fim == at("2030-01-07T11:30:00Z"));
  CHECK(r.vistoriador == "ana");
}

TEST_CASE("a new reservation needs inicio, valid instants and fim after inicio") {
  auto missing = error_of([] { propose(hourly(), ReservationChange{}); });
  CHECK(missing.code() == errc::missing_field);
  CHECK(missing.field() == "inicio");

  ReservationChange bad;
  bad.inicio = "2030-01-07 08:00";  // no offset
  auto e = error_of([&] { propose(hourly(), bad); });
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "inicio");

  ReservationChange bad_fim;
  bad_fim.inicio = "2030-01-07T08:00:00-03:00";
  bad_fim.fim = "amanhã";
  CHECK(error_of([&] { propose(hourly(), bad_fim); }).field() == "fim");

  for (const char* fim : {"2030-01-07T08:00:00-03:00", "2030-01-07T07:59:59-03:00"}) {
    CAPTURE(fim);
    ReservationChange c;
    c.inicio = "2030-01-07T08:00:00-03:00";
    c.fim = fim;
    auto f = error_of([&] { propose(hourly(), c); });
    CHECK(f.code() == errc::invalid_argument);
    CHECK(f.field() == "fim");
    CHECK(std::string(f.what()) == "o fim da reserva deve ser posterior ao início");
  }
}

TEST_CASE("a change keeps what it does not give; a new inicio keeps the reservation's length") {
  const auto current =
      stored("2030-01-07T11:00:00Z", "2030-01-07T11:30:00Z", "ana", Status::agendado);

  ReservationChange later;
  later.inicio = "2030-01-08T14:00:00Z";
  Reservation r = propose(hourly(), later, current);
  CHECK(r.intervalo.inicio == at("2030-01-08T14:00:00Z"));
  CHECK(r.intervalo.fim == at("2030-01-08T14:30:00Z"));  // 30 min, not the 60-min slot
  CHECK(r.vistoriador == "ana");

  ReservationChange longer;
  longer.fim = "2030-01-07T12:00:00Z";
  r = propose(hourly(), longer, current);
  CHECK(r.intervalo.inicio == at("2030-01-07T11:00:00Z"));
  CHECK(r.intervalo.fim == at("2030-01-07T12:00:00Z"));

  ReservationChange other;
  other.has_vistoriador = true;
  other.vistoriador = "bruno";
  r = propose(hourly(), other, current);
  CHECK(r.intervalo.inicio == at("2030-01-07T11:00:00Z"));
  CHECK(r.intervalo.fim == at("2030-01-07T11:30:00Z"));
  CHECK(r.vistoriador == "bruno");

  ReservationChange cleared;
  cleared.has_vistoriador = true;  // "vistoriador": null
  CHECK_FALSE(propose(hourly(), cleared, current).vistoriador);

  ReservationChange before_start;
  before_start.fim = "2030-01-07T10:00:00Z";
  CHECK(error_of([&] { propose(hourly(), before_start, current); }).field() == "fim");
}

TEST_CASE("moves: a new time or another inspector; the same inspector again is no move") {
  const auto current = stored("2030-01-07T11:00:00Z", "2030-01-07T12:00:00Z", "ana");
  ReservationChange none;
  CHECK_FALSE(moves(current, none));
  ReservationChange inicio;
  inicio.inicio = "2030-01-07T11:00:00Z";  // given, even if equal
  CHECK(moves(current, inicio));
  ReservationChange fim;
  fim.fim = "2030-01-07T12:00:00Z";
  CHECK(moves(current, fim));
  ReservationChange same;
  same.has_vistoriador = true;
  same.vistoriador = "ana";
  CHECK_FALSE(moves(current, same));
  ReservationChange other = same;
  other.vistoriador = "bruno";
  CHECK(moves(current, other));
  ReservationChange cleared;
  cleared.has_vistoriador = true;
  CHECK(moves(current, cleared));
  CHECK_FALSE(moves(stored("2030-01-07T11:00:00Z", "2030-01-07T12:00:00Z"), cleared));
}

TEST_CASE("only an agendado reservation may be rescheduled") {
  CHECK_NOTHROW(check_reschedule(Status::agendado));
  auto e = error_of([] { check_reschedule(Status::em_progresso); });
  CHECK(e.code() == errc::conflict);
  CHECK(e.field() == "status");
  CHECK(std::string(e.what()) ==
        "só reservas no estado agendado podem ser remarcadas (estado atual: em_progresso)");
  CHECK(std::string(error_of([] { check_reschedule(Status::concluido); }).what()) ==
        "só reservas no estado agendado podem ser remarcadas (estado atual: concluido)");
}

TEST_CASE("the windows of reservations a check reads") {
  Interval w = capacity_window({at("2030-01-07T11:00:00Z"), at("2030-01-07T12:00:00Z")});
  CHECK(w.inicio == at("2030-01-06T11:00:00Z"));
  CHECK(w.fim == at("2030-01-08T12:00:00Z"));

  Interval s = slots_window(ymd("2030-01-07"), ymd("2030-01-09"));
  CHECK(s.inicio == at("2030-01-05T00:00:00Z"));
  CHECK(s.fim == at("2030-01-12T00:00:00Z"));
  // Across a month and a year end.
  Interval y = slots_window(ymd("2030-01-01"), ymd("2030-12-31"));
  CHECK(y.inicio == at("2029-12-30T00:00:00Z"));
  CHECK(y.fim == at("2031-01-03T00:00:00Z"));
}
