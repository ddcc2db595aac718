#include <vector>

#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;

namespace {

Agenda two_inspectors() {
  auto a = Agenda::from_json(office_agenda);
  a.vistoriadores = {"ana", "bruno"};
  a.feriados = {ymd("2026-03-04")};
  return a;
}

}  // namespace

TEST_CASE("a reservation inside a free slot fits") {
  const auto a = two_inspectors();
  auto c = check_capacity(a, {}, booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00"));
  CHECK(c.slot.inicio == "2026-03-02T08:00:00-03:00");
  CHECK(c.slot.fim == "2026-03-02T09:00:00-03:00");
  CHECK(c.slot.capacidade == 2);
  CHECK(c.slot.ocupadas == 0);
  CHECK(c.vistoriador == "ana");  // first free inspector suggested

  // Part of a slot is fine too; the whole slot is the unit of capacity.
  c = check_capacity(a, {}, booking("2026-03-02T08:30:00-03:00", "2026-03-02T09:00:00-03:00", "bruno"));
  CHECK(c.slot.inicio == "2026-03-02T08:00:00-03:00");
  CHECK(c.vistoriador == "bruno");
}

TEST_CASE("outside opening hours, across slots, on holidays and weekends: invalid_argument") {
  const auto a = two_inspectors();
  struct Case { const char* inicio; const char* fim; const char* why; };
  const Case cases[] = {
      {"2026-03-02T12:00:00-03:00", "2026-03-02T13:00:00-03:00", "lunch break"},
      {"2026-03-02T07:00:00-03:00", "2026-03-02T08:00:00-03:00", "before opening"},
      {"2026-03-02T16:30:00-03:00", "2026-03-02T17:30:00-03:00", "past closing"},
      {"2026-03-02T08:30:00-03:00", "2026-03-02T09:30:00-03:00", "straddles two slots"},
      {"2026-03-02T08:00:00-03:00", "2026-03-02T10:00:00-03:00", "two whole slots"},
      {"2026-03-07T08:00:00-03:00", "2026-03-07T09:00:00-03:00", "Saturday"},
      {"2026-03-02T08:00:00-02:00", "2026-03-02T09:00:00-02:00", "07:00 local, wrong offset"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.why);
    auto e = error_of([&] { check_capacity(a, {}, booking(c.inicio, c.fim)); });
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "inicio");
  }
  auto holiday = error_of([&] {
    check_capacity(a, {}, booking("2026-03-04T08:00:00-03:00", "2026-03-04T09:00:00-03:00"));
  });
  CHECK(holiday.code() == errc::invalid_argument);
  CHECK(contains(holiday.what(), "feriado"));
  auto empty = error_of([&] {
    check_capacity(a, {}, booking("2026-03-02T09:00:00-03:00", "2026-03-02T08:00:00-03:00"));
  });
  CHECK(empty.field() == "fim");
}

TEST_CASE("full slots and busy inspectors: conflict") {
  const auto a = two_inspectors();
  const auto eight = [](std::optional<std::string> who = std::nullopt) {
    return booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00", std::move(who));
  };
  const std::vector<Reservation> ana_busy = {eight("ana")};

  auto busy = error_of([&] { check_capacity(a, ana_busy, eight("ana")); });
  CHECK(busy.code() == errc::conflict);
  CHECK(busy.field() == "vistoriador");
  CHECK(contains(busy.what(), "'ana'"));
  CHECK(check_capacity(a, ana_busy, eight("bruno")).vistoriador == "bruno");
  CHECK(check_capacity(a, ana_busy, eight()).vistoriador == "bruno");

  const std::vector<Reservation> full = {eight("ana"), eight()};
  auto e = error_of([&] { check_capacity(a, full, eight("bruno")); });
  CHECK(e.code() == errc::conflict);
  CHECK(e.field() == "inicio");
  CHECK(contains(e.what(), "lotado"));
  // The next slot is untouched; a reservation touching 09:00 does not conflict.
  CHECK_NOTHROW(check_capacity(a, full, booking("2026-03-02T09:00:00-03:00", "2026-03-02T10:00:00-03:00")));

  auto stranger = error_of([&] { check_capacity(a, {}, eight("carla")); });
  CHECK(stranger.code() == errc::invalid_argument);
  CHECK(stranger.field() == "vistoriador");
}

TEST_CASE("without listed inspectors the pool and each named inspector are limited") {
  auto a = Agenda::from_json(office_agenda);
  a.capacidade_por_slot = 2;
  const auto r = [](std::optional<std::string> who) {
    return booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00", std::move(who));
  };
  const std::vector<Reservation> one = {r("ana")};
  auto c = check_capacity(a, one, r(std::nullopt));
  CHECK(c.slot.livres == 1);
  CHECK_FALSE(c.vistoriador.has_value());
  CHECK(check_capacity(a, one, r("ana")).vistoriador == "ana");  // 1 < capacidade_por_slot 2
  const std::vector<Reservation> two = {r("ana"), r("ana")};
  CHECK(error_of([&] { check_capacity(a, two, r("zeca")); }).code() == errc::conflict);
}

TEST_CASE("a slot that already started cannot be booked") {
  const auto a = two_inspectors();
  const auto r = booking("2026-03-02T10:30:00-03:00", "2026-03-02T11:00:00-03:00");
  CHECK_NOTHROW(check_capacity(a, {}, r));  // no clock given
  CHECK_NOTHROW(check_capacity(a, {}, r, at("2026-03-02T10:00:00-03:00")));
  auto e = error_of([&] { check_capacity(a, {}, r, at("2026-03-02T10:15:00-03:00")); });
  CHECK(e.code() == errc::invalid_argument);
  CHECK(contains(e.what(), "já começou"));
}
