// Inspections (vistorias) of reservations: their states and who may change what. Part of
// the schedule module (cadastre::schedule), pure like the rest of it: no database, no HTTP.
//
// An inspection belongs to one reservation (schedule.hpp). The staff edit its checklist,
// findings, photos, protocol and status, moving the status freely between the four states;
// the citizen, through the inspection's access token, edits only the citizen members and
// only while the inspection is open (pendente or em_andamento).
#pragma once

#include <string_view>

namespace cadastre::schedule {

/// Status of an inspection. concluida and cancelada close it to the citizen.
enum class InspectionStatus { pendente, em_andamento, concluida, cancelada };

/// Parses "pendente", "em_andamento", "concluida" or "cancelada" (exact, lower case).
/// Anything else → Error(errc::invalid_argument, field "status").
InspectionStatus parse_inspection_status(std::string_view s);

/// The wire name of an inspection status, e.g. "em_andamento".
std::string_view to_string(InspectionStatus s) noexcept;

/// Whether the citizen may still change the inspection: pendente and em_andamento only.
bool open_to_citizen(InspectionStatus s) noexcept;

/// open_to_citizen, or Error(errc::conflict, field "status") naming the state, e.g.
/// "a vistoria está concluida e não aceita mais alterações".
void check_citizen_may_change(InspectionStatus current);

/// The members of an inspection the citizen may change: contato_cidadao, disponibilidade,
/// observacoes_cidadao and fotos_cidadao.
bool citizen_field(std::string_view member) noexcept;

/// The members of an inspection the staff may change: checklist, constatacoes, fotos,
/// protocolo_id and status (agendamento_id only names the reservation; the citizen's
/// members are the citizen's).
bool staff_field(std::string_view member) noexcept;

}  // namespace cadastre::schedule
