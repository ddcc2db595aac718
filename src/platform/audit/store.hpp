// Reading the geometry audit (projeto.geometrias_auditoria, tenant migration 0020), which
// the geometries area writes on every create, change and delete.
#pragma once

#include <string>

#include "platform/audit/input.hpp"
#include "service/scope.hpp"

namespace cadastre::platform::audit {

/// The audit rows of `q`, newest first, as a JSON array of {"id","idGeometria","idCamada",
/// "idProjeto","operacao","versao","antes","depois","idUsuario","em","emLong"}. Unless
/// `whole_tenant` (a tenant administrator), only rows of layers the caller may see.
std::string rows(const service::Scope& s, const AuditQuery& q, bool whole_tenant);

}  // namespace cadastre::platform::audit
