// The tenant-specific bearer of /integracao-rest. Each tenant that integrates an external
// REST database service holds in its configuration (plataforma.tenants.config):
//
//   {"integracao_rest": {"url": "http://host:port/base", "token_sha256": "<hex>",
//                        "token_destino": "<sent upstream, optional>", "timeout_ms": 5000}}
//
// The bearer itself names the tenant: its SHA-256 is looked up among the tenants'
// token_sha256 (cadastre-admin tenant integracao issues the token and stores the hash).
// Session tokens of the main scheme are never accepted here, and integration tokens are
// never accepted by the main scheme.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "server/integracao/client.hpp"

namespace cadastre::server {

class App;

/// What the scheme establishes for a request (in Request::auth).
struct IntegracaoTarget {
  std::int64_t tenant_id = 0;
  std::string slug;
  outbound::Url base;         ///< the external service
  std::string token_destino;  ///< bearer sent upstream (empty: none)
  std::chrono::milliseconds timeout{5000};
  /// Why the tenant's configuration cannot be used (no valid url, timeout_ms out of range);
  /// empty when it can. A route reports it (503) only when it is about to call the
  /// service, so that bad input is still answered 400 first.
  std::string config_error;
};

/// Registers the auth scheme "integracao" (call before adding its routes).
void add_integracao_auth_scheme(App& app);

}  // namespace cadastre::server
