// Demo scheduling data: the demo municipality's weekly inspection agenda and a few
// reservations in every status (see db/migrations/tenant/0005_agendamento.sql).
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Stores the demo agenda (America/Sao_Paulo, Monday to Friday 08:00–12:00 and
/// 13:00–17:00, 60-minute slots, one place per inspector, inspectors "ana.souza" and
/// "bruno.lima") and replaces the demo reservations (criado_por = 'demo'): concluded and
/// in-progress ones last week, scheduled ones next week (one slot fully booked), each with
/// its claimed place. Runs in the caller's transaction if one is open, else in one
/// transaction of its own. Returns the number of demo reservations. Throws cadastre::Error.
std::int64_t load_demo_agenda(PGconn* conn);

}  // namespace cadastre::store
