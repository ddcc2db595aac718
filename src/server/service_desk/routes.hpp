// Internal to the /atendimento route files (routes_service_desk.cpp, service_desk_public.cpp):
// shared checks, the JSON of an inspection and the public handlers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/app.hpp"

namespace soci {
class session;
}

namespace cadastre::server::desk {

/// The request's context after checking read (or write) permission on layer "atendimento".
const Context& allowed(App& app, const http::Request& req, bool write);
/// {agendamento_id} of the path as a positive integer (400 otherwise).
std::string path_agendamento_id(const http::Request& req);
/// Makes timestamps of this transaction render in the tenant's time zone.
void use_tenant_zone(soci::session& s, const store::Tenant& tenant);

/// FROM clause joining an inspection (v) to its reservation (r).
inline constexpr const char* kFrom = " from atendimento.vistoria v join agendamento.reserva r on r.id = v.agendamento_id";
/// The inspection as the staff sees it (every column but token_hash, its reservation and
/// the links of its photos), as text.
std::string vistoria_json_expr();
/// The inspection as the citizen sees it: status, time, the citizen's own fields.
std::string public_json_expr();

/// The staff JSON of the inspection of reservation `id` (nullopt when there is none).
std::optional<std::string> vistoria_json(soci::session& s, const std::string& id);

http::Response public_read(App& app, http::Request& req);
http::Response public_update(App& app, http::Request& req);

}  // namespace cadastre::server::desk
