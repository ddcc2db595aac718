// Internal to the /agendamento route files (routes_scheduling*.cpp): shared checks and the
// handlers registered by add_scheduling_routes.
#pragma once

#include <optional>

#include "cadastre/schedule.hpp"
#include "server/app.hpp"

namespace soci {
class session;
}

namespace cadastre::server::sched {

/// The request's context after checking read (or write) permission on layer "agendamento".
const Context& allowed(App& app, const http::Request& req, bool write);
/// The tenant's agenda, if any; sets the transaction's time zone (the agenda's, else the
/// tenant's) so timestamps render in local time.
std::optional<schedule::Agenda> prepare(soci::session& s, const Context& ctx);

http::Response list(App& app, http::Request& req);
http::Response free_slots(App& app, http::Request& req);
http::Response agenda_get(App& app, http::Request& req);
http::Response agenda_put(App& app, http::Request& req);

}  // namespace cadastre::server::sched
