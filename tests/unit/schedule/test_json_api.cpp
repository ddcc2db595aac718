#include <string>

#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;

namespace {

constexpr std::string_view agenda = R"({"duracao_slot_minutos": 60, "vistoriadores": ["ana", "bruno"],
  "semana": {"segunda": [{"inicio": "08:00", "fim": "10:00"}]}})";

}  // namespace

TEST_CASE("free_slots_json: exact output") {
  const std::string out = free_slots_json(
      agenda,
      R"([{"id": 7, "vistoriador": "ana", "inicio": "2026-03-02T08:00:00-03:00",
           "fim": "2026-03-02T09:00:00-03:00", "status": "em_progresso"},
          {"id": 8, "vistoriador": null, "inicio": "2026-03-02T12:00:00Z", "fim": "2026-03-02T13:00:00Z"}])",
      "2026-03-02", "2026-03-08", "2026-03-01T00:00:00-03:00");
  CHECK(out ==
        R"([{"data":"2026-03-02","inicio":"2026-03-02T08:00:00-03:00","fim":"2026-03-02T09:00:00-03:00",)"
        R"("capacidade":2,"ocupadas":1,"livres":1,"vistoriadores_livres":["bruno"]},)"
        R"({"data":"2026-03-02","inicio":"2026-03-02T09:00:00-03:00","fim":"2026-03-02T10:00:00-03:00",)"
        R"("capacidade":2,"ocupadas":1,"livres":1,"vistoriadores_livres":["ana","bruno"]}])");
  // Without `now` the system clock is used: in the past, so nothing.
  CHECK(free_slots_json(agenda, "[]", "2020-01-06", "2020-01-06") == "[]");
  CHECK(to_json(std::span<const Slot>{}) == "[]");
}

TEST_CASE("free_slots_json: errors name the field") {
  auto e = error_of([] { free_slots_json(agenda, "[]", "02/03/2026", "2026-03-08"); });
  CHECK(e.field() == "data_inicio");
  CHECK(error_of([] { free_slots_json(agenda, "[]", "2026-03-02", "2026-3-8"); }).field() == "data_fim");
  CHECK(error_of([] { free_slots_json(agenda, "[]", "2026-03-02", "2026-03-08", "ontem"); }).field() == "agora");
  CHECK(error_of([] { free_slots_json(agenda, "{}", "2026-03-02", "2026-03-08"); }).field() == "reservas");
  CHECK(error_of([] { free_slots_json("{", "[]", "2026-03-02", "2026-03-08"); }).code() == errc::invalid_json);

  auto no_end = error_of([] {
    free_slots_json(agenda, R"([{"inicio": "2026-03-02T08:00:00-03:00"}])", "2026-03-02", "2026-03-08");
  });
  CHECK(no_end.code() == errc::missing_field);
  CHECK(no_end.field() == "reservas[0].fim");
  auto bad_status = error_of([] {
    free_slots_json(agenda,
                    R"([{"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00"},
                        {"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00", "status": "x"}])",
                    "2026-03-02", "2026-03-08");
  });
  CHECK(bad_status.code() == errc::invalid_argument);
  CHECK(bad_status.field() == "reservas[1].status");
  auto reversed = error_of([] {
    free_slots_json(agenda, R"([{"inicio": "2026-03-02T09:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00"}])",
                    "2026-03-02", "2026-03-08");
  });
  CHECK(reversed.field() == "reservas[0].fim");
}

TEST_CASE("reservation parsing") {
  auto r = parse_reservation(R"({"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00",
                                 "vistoriador": "", "status": "concluido", "imovel": 12})");
  CHECK_FALSE(r.vistoriador.has_value());
  CHECK(r.status == Status::concluido);
  CHECK(r.intervalo.fim - r.intervalo.inicio == std::chrono::hours{1});
  CHECK(parse_reservation(R"({"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00"})")
            .status == Status::agendado);
  CHECK(error_of([] { parse_reservation(R"({"inicio": 1, "fim": "2026-03-02T09:00:00-03:00"})"); }).field() ==
        "reserva.inicio");
  CHECK(parse_reservations("[]").empty());
}

TEST_CASE("check_capacity_json") {
  const std::string ok = check_capacity_json(
      agenda, R"([{"vistoriador": "ana", "inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00"}])",
      R"({"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00"})", "2026-03-01T00:00:00Z");
  CHECK(ok ==
        R"({"slot":{"data":"2026-03-02","inicio":"2026-03-02T08:00:00-03:00","fim":"2026-03-02T09:00:00-03:00",)"
        R"("capacidade":2,"ocupadas":1,"livres":1,"vistoriadores_livres":["bruno"]},"vistoriador":"bruno"})");
  auto past = error_of([] {
    check_capacity_json(agenda, "[]", R"({"inicio": "2020-01-06T08:00:00-03:00", "fim": "2020-01-06T09:00:00-03:00"})");
  });
  CHECK(past.code() == errc::invalid_argument);
  CHECK(error_of([] { check_capacity_json(agenda, "[]", R"({"fim": "2026-03-02T09:00:00-03:00"})"); }).field() ==
        "reserva.inicio");

  Agenda anonymous = Agenda::from_json(office_agenda);
  CapacityCheck c = check_capacity(anonymous, {}, parse_reservation(
      R"({"inicio": "2026-03-02T08:00:00-03:00", "fim": "2026-03-02T09:00:00-03:00"})"));
  CHECK(contains(to_json(c), R"("vistoriadores_livres":[]},"vistoriador":null})"));
}
