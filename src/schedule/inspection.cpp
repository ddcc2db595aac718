// Inspection states and the members each party may change (cadastre/inspection.hpp).
#include "cadastre/inspection.hpp"

#include <string>

#include "cadastre/error.hpp"

namespace cadastre::schedule {

InspectionStatus parse_inspection_status(std::string_view s) {
  if (s == "pendente") return InspectionStatus::pendente;
  if (s == "em_andamento") return InspectionStatus::em_andamento;
  if (s == "concluida") return InspectionStatus::concluida;
  if (s == "cancelada") return InspectionStatus::cancelada;
  throw Error(errc::invalid_argument,
              "status inválido: use pendente, em_andamento, concluida ou cancelada", "status");
}

std::string_view to_string(InspectionStatus s) noexcept {
  switch (s) {
    case InspectionStatus::pendente:
      return "pendente";
    case InspectionStatus::em_andamento:
      return "em_andamento";
    case InspectionStatus::concluida:
      return "concluida";
    case InspectionStatus::cancelada:
      return "cancelada";
  }
  return "desconhecido";  // unreachable for valid enumerators
}

bool open_to_citizen(InspectionStatus s) noexcept {
  return s == InspectionStatus::pendente || s == InspectionStatus::em_andamento;
}

void check_citizen_may_change(InspectionStatus current) {
  if (open_to_citizen(current)) return;
  throw Error(
      errc::conflict,
      "a vistoria está " + std::string(to_string(current)) + " e não aceita mais alterações",
      "status");
}

bool citizen_field(std::string_view m) noexcept {
  return m == "contato_cidadao" || m == "disponibilidade" || m == "observacoes_cidadao" ||
         m == "fotos_cidadao";
}

bool staff_field(std::string_view m) noexcept {
  return m == "checklist" || m == "constatacoes" || m == "fotos" || m == "protocolo_id" ||
         m == "status";
}

}  // namespace cadastre::schedule
