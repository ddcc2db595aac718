#include <string>

#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;

namespace {

/// An agenda JSON with one Monday period and the given overrides spliced in.
std::string agenda_with(std::string_view extra, std::string_view monday = R"([{"inicio":"08:00","fim":"12:00"}])") {
  std::string s = R"({"duracao_slot_minutos": 60, "semana": {"segunda": )";
  s += monday;
  s += "}";
  if (!extra.empty()) {
    s += ", ";
    s += extra;
  }
  s += "}";
  return s;
}

cadastre::Error agenda_error(const std::string& json) {
  return error_of([&] { Agenda::from_json(json); });
}

}  // namespace

TEST_CASE("agenda defaults and parsing") {
  const auto a = Agenda::from_json(office_agenda);
  CHECK(a.fuso_horario == "America/Sao_Paulo");
  CHECK(a.duracao_slot_minutos == 60);
  CHECK(a.capacidade_por_slot == 1);
  CHECK(a.vistoriadores.empty());
  CHECK(a.feriados.empty());
  CHECK(a.capacidade_total() == 1);
  CHECK(a.semana[0].empty());
  CHECK(a.semana[6].empty());
  REQUIRE(a.semana[2].size() == 2);  // terca: given out of order, stored sorted
  CHECK(a.semana[2][0].inicio_minuto == 8 * 60);
  CHECK(a.semana[2][1].fim_minuto == 17 * 60);
  CHECK(a.semana[3].size() == 2);  // key "3" = quarta

  const auto b = Agenda::from_json(R"({"fuso_horario": "America/New_York", "duracao_slot_minutos": 30,
    "capacidade_por_slot": 2, "vistoriadores": ["ana", "bruno", "carla"], "feriados": ["2026-04-21"],
    "semana": {"sábado": [{"inicio": "18:00", "fim": "24:00"}], "terça": null, "0": []}})");
  CHECK(b.capacidade_total() == 6);
  CHECK(b.semana[6].size() == 1);
  CHECK(b.semana[6][0].fim_minuto == 1440);
  CHECK(b.feriados.front() == std::chrono::year{2026} / 4 / 21);
  CHECK_NOTHROW(b.validate());
}

TEST_CASE("agenda to_json round-trips") {
  const auto a = Agenda::from_json(R"({"duracao_slot_minutos": 30, "vistoriadores": ["ana"],
    "feriados": ["2026-04-21"], "semana": {"1": [{"inicio": "08:00", "fim": "09:30"}]}})");
  const std::string json = a.to_json();
  CHECK(json ==
        R"({"fuso_horario":"America/Sao_Paulo","duracao_slot_minutos":30,"capacidade_por_slot":1,)"
        R"("vistoriadores":["ana"],"feriados":["2026-04-21"],)"
        R"("semana":{"segunda":[{"inicio":"08:00","fim":"09:30"}]}})");
  CHECK(Agenda::from_json(json).to_json() == json);
}

TEST_CASE("invalid times name the field") {
  struct Case { const char* monday; const char* field; };
  const Case cases[] = {
      {R"([{"inicio":"8:00","fim":"12:00"}])", "semana.segunda[0].inicio"},
      {R"([{"inicio":"08:60","fim":"12:00"}])", "semana.segunda[0].inicio"},
      {R"([{"inicio":"24:00","fim":"24:00"}])", "semana.segunda[0].inicio"},
      {R"([{"inicio":"08:00","fim":"25:00"}])", "semana.segunda[0].fim"},
      {R"([{"inicio":"08:00","fim":"24:01"}])", "semana.segunda[0].fim"},
      {R"([{"inicio":"08:00","fim":"08h"}])", "semana.segunda[0].fim"},
      {R"([{"inicio":"08:00","fim":800}])", "semana.segunda[0].fim"},
      {R"([{"inicio":"12:00","fim":"08:00"}])", "semana.segunda[0]"},
      {R"([{"inicio":"08:00","fim":"08:00"}])", "semana.segunda[0]"},
      {R"([{"inicio":"08:00","fim":"12:00"},{"inicio":"11:00","fim":"13:00"}])", "semana.segunda"},
      {R"([{"inicio":"08:00","fim":"12:00"},{"inicio":"08:00"}])", "semana.segunda[1].fim"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.monday);
    auto e = agenda_error(agenda_with("", c.monday));
    CHECK(e.field() == c.field);
    CHECK((e.code() == errc::invalid_argument || e.code() == errc::missing_field));
  }
  CHECK(agenda_error(agenda_with("", R"([{"inicio":"08:00"}])")).code() == errc::missing_field);
  auto overlap = agenda_error(agenda_with("", R"([{"inicio":"08:00","fim":"12:00"},{"inicio":"11:00","fim":"13:00"}])"));
  CHECK(contains(overlap.what(), "sobrepostos"));
}

TEST_CASE("slot length must be positive and divide every period") {
  CHECK(agenda_error(R"({"duracao_slot_minutos": 0, "semana": {}})").field() == "duracao_slot_minutos");
  CHECK(agenda_error(R"({"duracao_slot_minutos": -30, "semana": {}})").field() == "duracao_slot_minutos");
  CHECK(agenda_error(R"({"duracao_slot_minutos": 1441, "semana": {}})").field() == "duracao_slot_minutos");
  CHECK(agenda_error(R"({"duracao_slot_minutos": 7.5, "semana": {}})").field() == "duracao_slot_minutos");
  CHECK(agenda_error(R"({"semana": {}})").code() == errc::missing_field);

  // 240 min is not a multiple of 90; 300 is longer than the period.
  auto not_multiple = agenda_error(R"({"duracao_slot_minutos": 90, "semana": {"segunda": [{"inicio":"08:00","fim":"12:00"}]}})");
  CHECK(not_multiple.code() == errc::invalid_argument);
  CHECK(not_multiple.field() == "semana.segunda[0]");
  CHECK(contains(not_multiple.what(), "múltiplo"));
  auto too_long = agenda_error(R"({"duracao_slot_minutos": 300, "semana": {"1": [{"inicio":"08:00","fim":"12:00"}]}})");
  CHECK(too_long.field() == "semana.1[0]");
  CHECK(contains(too_long.what(), "mais curto"));
  CHECK_NOTHROW(Agenda::from_json(R"({"duracao_slot_minutos": 80, "semana": {"1": [{"inicio":"08:00","fim":"12:00"}]}})"));
}

TEST_CASE("other agenda errors") {
  auto tz = agenda_error(agenda_with(R"("fuso_horario": "America/Atlantida")"));
  CHECK(tz.code() == errc::invalid_argument);
  CHECK(tz.field() == "fuso_horario");
  CHECK(contains(tz.what(), "America/Atlantida"));
  for (const char* name : {"../../etc/passwd", "/etc/localtime", "localtime", "", "America/Sao Paulo"}) {
    CAPTURE(name);
    CHECK(agenda_error(agenda_with(std::string(R"("fuso_horario": ")") + name + "\"")).field() == "fuso_horario");
  }
  CHECK(agenda_error(agenda_with(R"("capacidade_por_slot": 0)")).field() == "capacidade_por_slot");
  CHECK(agenda_error(agenda_with(R"("feriados": ["2026-02-30"])")).field() == "feriados[0]");
  CHECK(agenda_error(agenda_with(R"("feriados": "2026-04-21")")).field() == "feriados");
  CHECK(agenda_error(agenda_with(R"("vistoriadores": ["ana", "ana"])")).field() == "vistoriadores[1]");
  CHECK(agenda_error(agenda_with(R"("vistoriadores": ["ana", ""])")).field() == "vistoriadores[1]");
  CHECK(agenda_error(agenda_with(R"("vistoriadores": ["ana", 7])")).field() == "vistoriadores[1]");

  auto typo = agenda_error(agenda_with(R"("feriado": [])"));
  CHECK(typo.code() == errc::unknown_field);
  CHECK(typo.field() == "feriado");
  CHECK(agenda_error(agenda_with("", R"([{"inicio":"08:00","fim":"12:00","x":1}])")).field() ==
        "semana.segunda[0].x");

  auto day = agenda_error(R"({"duracao_slot_minutos": 60, "semana": {"feriado": []}})");
  CHECK(day.field() == "semana.feriado");
  auto twice = agenda_error(R"({"duracao_slot_minutos": 60, "semana": {"1": [], "segunda": []}})");
  CHECK(twice.field() == "semana.segunda");
  CHECK(contains(twice.what(), "repetido"));
  CHECK(agenda_error(R"({"duracao_slot_minutos": 60, "semana": {"7": []}})").field() == "semana.7");
  CHECK(agenda_error("[]").code() == errc::invalid_argument);
  CHECK(agenda_error("{").code() == errc::invalid_json);
}

TEST_CASE("validate() checks agendas built in code") {
  Agenda a;
  a.semana[1] = {{8 * 60, 12 * 60}};
  CHECK_NOTHROW(a.validate());
  a.semana[1] = {{13 * 60, 17 * 60}, {8 * 60, 12 * 60}};
  CHECK(error_of([&] { a.validate(); }).field() == "semana.segunda");
  a.semana[1] = {{8 * 60, 12 * 60}};
  a.duracao_slot_minutos = 0;
  CHECK(error_of([&] { a.validate(); }).field() == "duracao_slot_minutos");
  a.duracao_slot_minutos = 50;
  CHECK(error_of([&] { a.validate(); }).field() == "semana.segunda[0]");
  a.duracao_slot_minutos = 60;
  a.fuso_horario = "Mars/Olympus_Mons";
  CHECK(error_of([&] { a.validate(); }).field() == "fuso_horario");
}
