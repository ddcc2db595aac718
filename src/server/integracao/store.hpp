// /integracao-rest: the tenant integrations as the platform database holds them
// (plataforma.tenants.config → integracao_rest, see server/integracao/auth.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace cadastre::server::integracao {

/// An active tenant's integracao_rest configuration, as stored (texts, "" when absent).
struct Integration {
  std::int64_t tenant_id = 0;
  std::string slug, url, token_destino, timeout_ms;
};

/// The active tenants whose integracao_rest.token_sha256 is `hash` (at most 2: more than
/// one means the token cannot name a tenant).
std::vector<Integration> integrations_by_token(soci::session& s, const std::string& hash);

}  // namespace cadastre::server::integracao
