// The health probes and pool gauges every service with an identity store and tenant pools
// answers the same way (cadastre-server's /health-check/*/, cadastre-platform's /health-check/*).
#pragma once

#include <string>

#include "http/http.hpp"
#include "http/server.hpp"
#include "store/identity.hpp"
#include "store/tenants.hpp"

namespace cadastre::service {

/// Startup: the identity store and every active tenant's database answer; 503 otherwise.
/// `store_key` names the identity store's member of the answer ("identidade", "plataforma").
http::Response startup_probe(store::Identity& identity, store::TenantPools& tenants, const std::string& store_key);

/// Readiness: 503 with Retry-After and `down_message` while the identity store is
/// unreachable, and 503 once `server` is draining (a graceful stop under way).
http::Response readiness_probe(const http::Server& server, store::Identity& identity, const std::string& down_message);

/// Adds the pools' gauges to the server's /metrics: the platform pool and every tenant's.
void add_pool_metrics(http::Server& server, store::Pool& platform, store::TenantPools& tenants);

}  // namespace cadastre::service
