#include <map>
#include <vector>

#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;

namespace {

std::map<std::string, int> per_day(const std::vector<Slot>& slots) {
  std::map<std::string, int> out;
  for (const auto& s : slots) ++out[format_date(s.data)];
  return out;
}

const Slot* find_slot(const std::vector<Slot>& slots, std::string_view inicio) {
  for (const auto& s : slots) {
    if (s.inicio == inicio) return &s;
  }
  return nullptr;
}

const auto monday = ymd("2026-03-02");
const auto sunday = ymd("2026-03-08");

}  // namespace

TEST_CASE("a DST-free week in São Paulo: 8 slots per weekday, weekend closed") {
  const auto a = Agenda::from_json(office_agenda);
  const auto slots = free_slots(a, {}, monday, sunday, long_ago);
  REQUIRE(slots.size() == 40);  // 5 weekdays × (4 morning + 4 afternoon)
  const std::map<std::string, int> expected = {{"2026-03-02", 8}, {"2026-03-03", 8}, {"2026-03-04", 8},
                                               {"2026-03-05", 8}, {"2026-03-06", 8}};
  CHECK(per_day(slots) == expected);  // 2026-03-07 (sábado) and 03-08 (domingo) absent

  const Slot& first = slots.front();
  CHECK(first.inicio == "2026-03-02T08:00:00-03:00");
  CHECK(first.fim == "2026-03-02T09:00:00-03:00");
  CHECK(first.intervalo.inicio == at("2026-03-02T11:00:00Z"));
  CHECK(first.data == monday);
  CHECK(first.capacidade == 1);
  CHECK(first.ocupadas == 0);
  CHECK(first.livres == 1);
  CHECK(first.vistoriadores_livres.empty());
  CHECK(slots[3].inicio == "2026-03-02T11:00:00-03:00");
  CHECK(slots[4].inicio == "2026-03-02T13:00:00-03:00");  // lunch 12:00–13:00 closed
  CHECK(slots.back().inicio == "2026-03-06T16:00:00-03:00");
  CHECK(slots.back().fim == "2026-03-06T17:00:00-03:00");
  for (std::size_t i = 1; i < slots.size(); ++i) CHECK(slots[i - 1].intervalo.inicio < slots[i].intervalo.inicio);

  // A weekend on its own has nothing; a single day is allowed.
  CHECK(free_slots(a, {}, ymd("2026-03-07"), sunday, long_ago).empty());
  CHECK(free_slots(a, {}, monday, monday, long_ago).size() == 8);
}

TEST_CASE("holidays are removed") {
  auto a = Agenda::from_json(office_agenda);
  a.feriados = {ymd("2026-03-04"), ymd("2026-03-07")};  // a Wednesday, and a closed Saturday
  const auto slots = free_slots(a, {}, monday, sunday, long_ago);
  CHECK(slots.size() == 32);
  CHECK(per_day(slots).count("2026-03-04") == 0);
}

TEST_CASE("full slots are removed; touching reservations do not count") {
  const auto a = Agenda::from_json(office_agenda);  // capacity 1
  const std::vector<Reservation> rs = {
      booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00"),
      booking("2026-03-02T12:00:00Z", "2026-03-02T13:00:00Z"),  // 09:00–10:00 local, given in UTC
      booking("2026-03-03T07:00:00-03:00", "2026-03-03T08:00:00-03:00"),  // touches 08:00, before opening
      booking("2026-03-03T12:00:00-03:00", "2026-03-03T13:00:00-03:00"),  // lunch: touches 11:00 and 13:00 slots
      booking("2026-03-04T14:30:00-03:00", "2026-03-04T15:30:00-03:00"),  // straddles 14:00 and 15:00 slots
  };
  const auto slots = free_slots(a, rs, monday, sunday, long_ago);
  CHECK(slots.size() == 36);
  const auto days = per_day(slots);
  CHECK(days.at("2026-03-02") == 6);
  CHECK(days.at("2026-03-03") == 8);
  CHECK(days.at("2026-03-04") == 6);
  CHECK(find_slot(slots, "2026-03-02T08:00:00-03:00") == nullptr);
  CHECK(find_slot(slots, "2026-03-02T09:00:00-03:00") == nullptr);
  CHECK(find_slot(slots, "2026-03-02T10:00:00-03:00") != nullptr);
  CHECK(find_slot(slots, "2026-03-04T14:00:00-03:00") == nullptr);
  CHECK(find_slot(slots, "2026-03-04T15:00:00-03:00") == nullptr);
}

TEST_CASE("every status occupies its time") {
  const auto a = Agenda::from_json(office_agenda);
  auto r = booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00");
  for (Status s : {Status::agendado, Status::em_progresso, Status::concluido}) {
    r.status = s;
    CHECK(free_slots(a, std::vector<Reservation>{r}, monday, monday, long_ago).size() == 7);
  }
}

TEST_CASE("partial capacity is reported") {
  auto a = Agenda::from_json(office_agenda);
  a.capacidade_por_slot = 3;
  const std::vector<Reservation> rs = {
      booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00"),
      booking("2026-03-02T08:30:00-03:00", "2026-03-02T09:00:00-03:00"),
      booking("2026-03-02T09:00:00-03:00", "2026-03-02T10:00:00-03:00"),
  };
  const auto slots = free_slots(a, rs, monday, monday, long_ago);
  CHECK(slots.size() == 8);
  const Slot* eight = find_slot(slots, "2026-03-02T08:00:00-03:00");
  REQUIRE(eight != nullptr);
  CHECK(eight->capacidade == 3);
  CHECK(eight->ocupadas == 2);
  CHECK(eight->livres == 1);
  const Slot* nine = find_slot(slots, "2026-03-02T09:00:00-03:00");
  REQUIRE(nine != nullptr);
  CHECK(nine->ocupadas == 1);
  CHECK(nine->livres == 2);
  CHECK(find_slot(slots, "2026-03-02T10:00:00-03:00")->livres == 3);
}

TEST_CASE("per-inspector availability") {
  auto a = Agenda::from_json(office_agenda);
  a.vistoriadores = {"ana", "bruno"};
  const std::vector<Reservation> rs = {
      booking("2026-03-02T08:00:00-03:00", "2026-03-02T09:00:00-03:00", "ana"),
      booking("2026-03-02T09:00:00-03:00", "2026-03-02T10:00:00-03:00", "ana"),
      booking("2026-03-02T09:00:00-03:00", "2026-03-02T10:00:00-03:00", "bruno"),
      booking("2026-03-02T10:00:00-03:00", "2026-03-02T11:00:00-03:00"),  // unassigned
      booking("2026-03-02T11:00:00-03:00", "2026-03-02T12:00:00-03:00"),  // unassigned
      booking("2026-03-02T11:00:00-03:00", "2026-03-02T12:00:00-03:00", "bruno"),
      booking("2026-03-02T13:00:00-03:00", "2026-03-02T14:00:00-03:00", "carla"),  // not listed: counts
  };
  const auto slots = free_slots(a, rs, monday, monday, long_ago);
  CHECK(slots.size() == 6);  // 09:00 (ana + bruno) and 11:00 (unassigned + bruno) are full

  const Slot* eight = find_slot(slots, "2026-03-02T08:00:00-03:00");
  REQUIRE(eight != nullptr);
  CHECK(eight->capacidade == 2);
  CHECK(eight->livres == 1);
  CHECK(eight->vistoriadores_livres == std::vector<std::string>{"bruno"});
  CHECK(find_slot(slots, "2026-03-02T09:00:00-03:00") == nullptr);
  const Slot* ten = find_slot(slots, "2026-03-02T10:00:00-03:00");
  REQUIRE(ten != nullptr);
  CHECK(ten->livres == 1);
  CHECK(ten->vistoriadores_livres == std::vector<std::string>{"ana", "bruno"});
  CHECK(find_slot(slots, "2026-03-02T11:00:00-03:00") == nullptr);
  const Slot* one = find_slot(slots, "2026-03-02T13:00:00-03:00");
  REQUIRE(one != nullptr);
  CHECK(one->ocupadas == 1);
  CHECK(one->vistoriadores_livres == std::vector<std::string>{"ana", "bruno"});
  CHECK(find_slot(slots, "2026-03-02T14:00:00-03:00")->vistoriadores_livres.size() == 2);
}

TEST_CASE("slots that start before now are removed") {
  const auto a = Agenda::from_json(office_agenda);
  const auto slots = free_slots(a, {}, monday, monday, at("2026-03-02T10:30:00-03:00"));
  REQUIRE(slots.size() == 5);  // 08:00, 09:00 and the running 10:00 slot are gone
  CHECK(slots.front().inicio == "2026-03-02T11:00:00-03:00");
  // A slot starting exactly now is still offered.
  CHECK(free_slots(a, {}, monday, monday, at("2026-03-02T14:00:00Z")).size() == 5);
  // Everything in the past: nothing left.
  CHECK(free_slots(a, {}, monday, sunday, at("2026-03-09T00:00:00-03:00")).empty());
}

TEST_CASE("a zone with DST gets the right offset on each side of the change") {
  // New York moves from EST (-05:00) to EDT (-04:00) on 2026-03-08 at 02:00 local.
  const auto a = Agenda::from_json(R"({"fuso_horario": "America/New_York", "duracao_slot_minutos": 60,
    "semana": {"0": [{"inicio":"09:00","fim":"11:00"}], "6": [{"inicio":"09:00","fim":"11:00"}],
               "1": [{"inicio":"09:00","fim":"11:00"}]}})");
  const auto slots = free_slots(a, {}, ymd("2026-03-07"), ymd("2026-03-09"), long_ago);
  REQUIRE(slots.size() == 6);
  CHECK(slots[0].inicio == "2026-03-07T09:00:00-05:00");
  CHECK(slots[0].intervalo.inicio == at("2026-03-07T14:00:00Z"));
  CHECK(slots[1].fim == "2026-03-07T11:00:00-05:00");
  CHECK(slots[2].inicio == "2026-03-08T09:00:00-04:00");
  CHECK(slots[2].intervalo.inicio == at("2026-03-08T13:00:00Z"));
  CHECK(slots[5].inicio == "2026-03-09T10:00:00-04:00");
}

TEST_CASE("wall-clock times skipped or repeated by DST give no slot") {
  // 2026-03-08 (domingo): 02:00–03:00 does not exist in New York.
  const auto spring = Agenda::from_json(R"({"fuso_horario": "America/New_York", "duracao_slot_minutos": 60,
    "semana": {"domingo": [{"inicio":"01:00","fim":"04:00"}]}})");
  auto s = free_slots(spring, {}, ymd("2026-03-08"), ymd("2026-03-08"), long_ago);
  REQUIRE(s.size() == 1);  // 01–02 ends at a skipped time, 02–03 starts at one
  CHECK(s[0].inicio == "2026-03-08T03:00:00-04:00");
  CHECK(s[0].fim == "2026-03-08T04:00:00-04:00");
  // 2026-11-01 (domingo): 01:00–02:00 happens twice.
  const auto autumn = Agenda::from_json(R"({"fuso_horario": "America/New_York", "duracao_slot_minutos": 60,
    "semana": {"domingo": [{"inicio":"00:00","fim":"03:00"}]}})");
  s = free_slots(autumn, {}, ymd("2026-11-01"), ymd("2026-11-01"), long_ago);
  REQUIRE(s.size() == 1);
  CHECK(s[0].inicio == "2026-11-01T02:00:00-05:00");
  // The next Sunday has all three.
  CHECK(free_slots(autumn, {}, ymd("2026-11-08"), ymd("2026-11-08"), long_ago).size() == 3);
}

TEST_CASE("historical São Paulo summer time is applied") {
  // Summer time began at 00:00 on 2018-11-04 (clocks to 01:00): Thursday 11-01 is -03:00,
  // Monday 11-05 is -02:00.
  const auto a = Agenda::from_json(office_agenda);
  const auto slots = free_slots(a, {}, ymd("2018-11-01"), ymd("2018-11-05"), long_ago);
  CHECK(slots.size() == 24);  // Thu, Fri, Mon
  CHECK(slots.front().inicio == "2018-11-01T08:00:00-03:00");
  CHECK(slots.back().inicio == "2018-11-05T16:00:00-02:00");
  CHECK(slots.back().intervalo.inicio == at("2018-11-05T18:00:00Z"));
}

TEST_CASE("date range limits") {
  const auto a = Agenda::from_json(office_agenda);
  CHECK_NOTHROW(free_slots(a, {}, ymd("2026-03-01"), ymd("2026-05-31"), long_ago));  // 92 days
  auto too_long = error_of([&] { free_slots(a, {}, ymd("2026-03-01"), ymd("2026-06-01"), long_ago); });
  CHECK(too_long.code() == errc::invalid_argument);
  CHECK(too_long.field() == "data_fim");
  CHECK(contains(too_long.what(), "93 dias"));
  auto reversed = error_of([&] { free_slots(a, {}, ymd("2026-03-02"), ymd("2026-03-01"), long_ago); });
  CHECK(reversed.field() == "data_fim");
  const std::chrono::year_month_day invalid{std::chrono::year{2026}, std::chrono::month{2}, std::chrono::day{30}};
  CHECK(error_of([&] { free_slots(a, {}, invalid, sunday, long_ago); }).field() == "data_inicio");
}
