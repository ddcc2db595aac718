// A municipality's configuration (plataforma.tenants.config): what its users read, and the
// credentials of other systems only the services read (docs/operations.md, "Credentials of
// other systems"): config.rastreador.token, config.integracao_rest.token_sha256 and
// config.integracao_rest.token_destino. Both services answer the configuration through
// public_view(), and the platform's PUT /tenants/config changes it through merged().
#pragma once

#include <string>
#include <string_view>

namespace cadastre::service::tenant_config {

/// `config` (a JSON object's text) without its credentials. Text that is not an object
/// reads as "{}".
std::string public_view(std::string_view config);

/// `config` with `changes` (a JSON object) applied member by member: a member of
/// `changes` replaces the same member, null removes it, and the members `changes` leaves
/// out stay as they are (credentials included).
std::string merged(std::string_view config, std::string_view changes);

}  // namespace cadastre::service::tenant_config
