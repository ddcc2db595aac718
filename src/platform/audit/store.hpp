// Reading the geometry audit (projeto.geometrias_auditoria, tenant migration 0020), which
// the geometries area writes on every create, change and delete.
#pragma once

#include <string>

#include "platform/audit/input.hpp"
#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::audit {

/// The names of the users who may have edited the tenant's geometries (its own users and the
/// platform administrators), from the platform database: a JSON object {"<id>": "<nome>"}.
std::string user_names(store::Pool& platform, std::int64_t tenant_id);

/// The audit rows of `q`, newest first, as a JSON array of {"id","idGeometria","idCamada",
/// "idProjeto","operacao","versao","antes","depois","idUsuario","nomeUsuario","em","emLong"}
/// (`names`: user_names(); a user no longer there has a null name). Unless `whole_tenant` (a
/// tenant administrator), only rows of layers the caller may see.
std::string rows(const service::Caller& s, const AuditQuery& q, bool whole_tenant, const std::string& names);

}  // namespace cadastre::platform::audit
