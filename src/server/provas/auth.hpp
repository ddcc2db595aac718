// HTTP Basic authentication of /cad/provas-digitais: integration clients of scope
// 'provas_digitais' (plataforma.clientes_api, argon2id passwords). A credential belongs
// to one tenant, which is the tenant every request of it works on.
//
// A refused credential must answer 401 with `WWW-Authenticate: Basic realm=...`, while
// the server's error path challenges with Bearer. So the "basic" scheme's hook records
// the outcome in Request::auth instead of throwing, and basic_handler() turns a refusal
// into the 401 with the Basic challenge. Routes of this scheme must go through
// basic_handler(): a handler reading the context without it fails closed (500), never open.
#pragma once

#include <functional>
#include <string>

#include "server/app.hpp"
#include "store/api_clients.hpp"

namespace cadastre::server {

/// What the basic scheme establishes for an accepted request.
struct ProvasContext {
  store::ApiClient client;
  store::Tenant tenant;
  store::Pool* db = nullptr;
  store::Principal auditor;  ///< the client as the audit trail records it (usuario_id 0: not a user)
};

inline constexpr const char* kBasicChallenge = R"(Basic realm="provas-digitais", charset="UTF-8")";

/// Registers the "basic" auth scheme.
void add_basic_scheme(App& app);

/// Wraps `fn` so it runs only for an accepted credential; a refused one gets 401 with the
/// Basic challenge.
http::Handler basic_handler(std::function<http::Response(http::Request&, const ProvasContext&)> fn);

}  // namespace cadastre::server
