// Database side of /agendamento: every SQL statement of the area. Reservations (list,
// create, change, delete, advance), the stored agenda, the reservations an availability
// check needs, and the claim of a place in agendamento.vaga that enforces capacity in the
// database (db/migrations/tenant/0005_agendamento.sql).
//
// Capacity is enforced twice: schedule::check_capacity inside the transaction, and the
// claim of a place (unique keys), so concurrent bookings of the last place give exactly one
// reservation. Every write records an audit row in the same transaction (tabela
// "agendamento.reserva", or "agendamento.agenda" for the agenda). Timestamps render in the
// agenda's time zone (else the tenant's).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/schedule.hpp"
#include "server/scheduling/input.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
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

/// Makes timestamps of this transaction render in `time_zone` (set_config ... local).
void use_time_zone(soci::session& s, const std::string& time_zone);

/// One page of reservations by start (the records as the API answers them).
store::PageRows list_reservations(store::Pool& db, const store::Tenant& tenant,
                                  const ListFilter& filter);

/// Books a new reservation (checked by the agenda's rules, its place claimed) and returns
/// it as JSON. No agenda → 404; a rule broken → 400/409.
std::string create_reservation(store::Pool& db, const store::Tenant& tenant,
                               const store::Principal& user, const ReservaInput& in);
/// Changes reservation `id` (a move in time or to another inspector is checked like a
/// booking, and only while agendado) and returns it as JSON; 404 when missing.
std::string update_reservation(store::Pool& db, const store::Tenant& tenant,
                               const store::Principal& user, const std::string& id,
                               const ReservaInput& in);
/// Deletes reservation `id` (its place is released) and returns what it was; 404 when missing.
std::string delete_reservation(store::Pool& db, const store::Tenant& tenant,
                               const store::Principal& user, const std::string& id);
/// Moves reservation `id` to its next status and returns it; 404 when missing, 409 from concluido.
std::string advance_reservation(store::Pool& db, const store::Tenant& tenant,
                                const store::Principal& user, const std::string& id);

/// What the free slots of a date range are computed from.
struct SlotInputs {
  schedule::Agenda agenda;
  std::vector<schedule::Reservation> reservations;
};
/// The agenda (404 when none) and the reservations that can touch the local dates of `range`.
SlotInputs slot_inputs(store::Pool& db, const store::Tenant& tenant, const DateRange& range);

/// The stored agenda text with its parsed form.
struct StoredAgenda {
  std::string json;
  schedule::Agenda agenda;
};
/// The tenant's agenda; 404 when none is configured.
StoredAgenda read_agenda(store::Pool& db, const store::Tenant& tenant);
/// Stores `body` (already parsed into `agenda`) as the tenant's agenda, with its audit row.
StoredAgenda save_agenda(store::Pool& db, const store::Principal& user, std::string_view body,
                         schedule::Agenda agenda);

}  // namespace cadastre::server::sched
