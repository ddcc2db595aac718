// Inspection states and who may change which member.
#include <doctest/doctest.h>

#include <string>

#include "cadastre/inspection.hpp"
#include "schedule_test_util.hpp"

using namespace cadastre::schedule;
using cadastre::errc;
using schedule_test::error_of;

TEST_CASE("inspection states parse and print") {
  CHECK(parse_inspection_status("pendente") == InspectionStatus::pendente);
  CHECK(parse_inspection_status("em_andamento") == InspectionStatus::em_andamento);
  CHECK(parse_inspection_status("concluida") == InspectionStatus::concluida);
  CHECK(parse_inspection_status("cancelada") == InspectionStatus::cancelada);
  CHECK(to_string(InspectionStatus::pendente) == "pendente");
  CHECK(to_string(InspectionStatus::em_andamento) == "em_andamento");
  CHECK(to_string(InspectionStatus::concluida) == "concluida");
  CHECK(to_string(InspectionStatus::cancelada) == "cancelada");
  for (std::string_view bad : {"", "Pendente", "concluído", "concluido", "agendado", "cancelado"}) {
    CAPTURE(bad);
    auto e = error_of([&] { parse_inspection_status(bad); });
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "status");
    CHECK(std::string(e.what()) ==
          "status inválido: use pendente, em_andamento, concluida ou cancelada");
  }
}

TEST_CASE("the citizen may change an open inspection only") {
  CHECK(open_to_citizen(InspectionStatus::pendente));
  CHECK(open_to_citizen(InspectionStatus::em_andamento));
  CHECK_FALSE(open_to_citizen(InspectionStatus::concluida));
  CHECK_FALSE(open_to_citizen(InspectionStatus::cancelada));
  CHECK_NOTHROW(check_citizen_may_change(InspectionStatus::pendente));
  CHECK_NOTHROW(check_citizen_may_change(InspectionStatus::em_andamento));
  auto e = error_of([] { check_citizen_may_change(InspectionStatus::concluida); });
  CHECK(e.code() == errc::conflict);
  CHECK(e.field() == "status");
  CHECK(std::string(e.what()) == "a vistoria está concluida e não aceita mais alterações");
  CHECK(std::string(error_of([] {
                      check_citizen_may_change(InspectionStatus::cancelada);
                    }).what()) == "a vistoria está cancelada e não aceita mais alterações");
}

TEST_CASE("the citizen's members and the staff's members do not overlap") {
  for (std::string_view m :
       {"contato_cidadao", "disponibilidade", "observacoes_cidadao", "fotos_cidadao"}) {
    CAPTURE(m);
    CHECK(citizen_field(m));
    CHECK_FALSE(staff_field(m));
  }
  for (std::string_view m : {"checklist", "constatacoes", "fotos", "protocolo_id", "status"}) {
    CAPTURE(m);
    CHECK(staff_field(m));
    CHECK_FALSE(citizen_field(m));
  }
  for (std::string_view m : {"token", "token_hash", "agendamento_id", "criado_por", "", "Status"}) {
    CAPTURE(m);
    CHECK_FALSE(citizen_field(m));
    CHECK_FALSE(staff_field(m));
  }
}
