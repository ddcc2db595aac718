// The tenant's configuration (plataforma.tenants.config, a JSON document of the schema in
// docs/platform.md, "Tenant configuration").
#pragma once

#include <cstdint>
#include <string>

#include "store/pool.hpp"

namespace cadastre::platform::tenants {

/// {"tenant": {"id","slug","nome","uf","codigoIbge","fusoHorario"}, "config": {...}}.
std::string config(store::Pool& pool, std::int64_t tenant_id);
/// Replaces the configuration with `json` (already validated).
void set_config(store::Pool& pool, std::int64_t tenant_id, const std::string& json);

}  // namespace cadastre::platform::tenants
