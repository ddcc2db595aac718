// Database side of /agendamento: the stored agenda, the reservations an availability check
// needs, the reservation JSON the routes answer, and the claim of a place in
// agendamento.vaga that enforces capacity in the database (db/migrations/tenant/0005).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/schedule.hpp"
#include "store/identity.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::sched {

/// The tenant's agenda (nullopt when none is stored). An agenda that names no
/// "fuso_horario" takes the tenant's time zone.
std::optional<schedule::Agenda> load_agenda(soci::session& s, const store::Tenant& tenant);
/// load_agenda, or Error(not_found) when the tenant has no agenda yet.
schedule::Agenda require_agenda(soci::session& s, const store::Tenant& tenant);
/// Parses and validates an agenda body as load_agenda would read it back.
schedule::Agenda parse_agenda(std::string_view json, const store::Tenant& tenant);

/// Makes timestamps of this transaction render in `time_zone` (set_config ... local).
void use_time_zone(soci::session& s, const std::string& time_zone);

/// Reservations overlapping [from, to), leaving out reservation `except_id` if given.
std::vector<schedule::Reservation> load_reservations(soci::session& s, std::chrono::sys_seconds from,
                                                     std::chrono::sys_seconds to,
                                                     const std::optional<std::string>& except_id = std::nullopt);

/// Binds an instant as timestamptz.
store::Sql& bind_instant(store::Sql& sql, std::chrono::sys_seconds t);

/// SQL expression of the reservation JSON object for the row alias `r` (as text).
std::string reservation_json_expr();
/// The reservation as JSON text, nullopt when it does not exist.
std::optional<std::string> reservation_json(soci::session& s, const std::string& id);

/// Claims a place for reservation `id` in the slot chosen by check_capacity (and a place
/// of its inspector, if any). A place taken meanwhile → Error(conflict).
void claim_place(soci::session& s, const std::string& id, const schedule::Agenda& agenda,
                 const schedule::CapacityCheck& check);

}  // namespace cadastre::server::sched
