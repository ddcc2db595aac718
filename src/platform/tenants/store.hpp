// The tenant's configuration (plataforma.tenants.config, a JSON document of the schema in
// docs/platform.md, "Tenant configuration").
#pragma once

#include <cstdint>
#include <string>

#include "store/pool.hpp"

namespace cadastre::platform::tenants {

/// {"tenant": {"id","slug","nome","uf","codigoIbge","fusoHorario"}, "config": {...}}, the
/// configuration without its credentials (service/tenant_config.hpp, public_view).
std::string config(store::Pool& pool, std::int64_t tenant_id);
/// Applies `changes` (already validated) member by member (tenant_config::merged), and
/// records the change by `user` in plataforma.configuracoes_auditoria, before and after
/// without credentials; one transaction, the tenant's row locked.
void change_config(store::Pool& pool, std::int64_t tenant_id, std::int64_t user, const std::string& changes);

}  // namespace cadastre::platform::tenants
