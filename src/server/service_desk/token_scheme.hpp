// The auth scheme "vistoria_token" of the citizen's routes of an inspection
// (/atendimento/{municipio}/public/vistoria/{agendamento_id}): no bearer, but the
// inspection's access token. Shared by app.cpp (which registers the scheme) and the routes.
#pragma once

#include <string>

#include "http/http.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::server {

class App;

/// Registers "vistoria_token": the tenant of {municipio} (404 when unknown or inactive),
/// {agendamento_id} (400 when malformed) and the token (query `token`, or body member
/// `token` on PUT; 401 when missing or not the inspection's, the same 401 for an
/// inspection that does not exist) compared with the stored SHA-256 in constant time.
/// Fills Request::auth with a desk::Citizen.
void add_inspection_token_scheme(App& app);

namespace desk {

/// What "vistoria_token" establishes: the inspection's tenant and pool, and nothing wider.
struct Citizen {
  store::Tenant tenant;
  store::Pool* db = nullptr;   ///< the tenant's pool (never null)
  std::string agendamento_id;  ///< the inspection whose token was shown
  store::Principal user;       ///< "cidadao", as the audit records the citizen
};

/// The Citizen of a request whose route uses "vistoria_token" (std::logic_error otherwise).
const Citizen& citizen(const http::Request& req);

}  // namespace desk
}  // namespace cadastre::server
