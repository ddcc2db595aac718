// What the caller may do on the tenant's projects and layers (GET /permissoes/...), read
// from the same rule set the route table enforces: the roles come from
// projeto.papel_projeto / papel_camada, and each action is the guard's own decision
// (guard::allows) for the role the routes of that action declare.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::permissions {

/// Every project the caller may see: [{"idProjeto","nome","ativo","publicado","papel","pode":{...}}].
std::string projects(const service::Caller& scope);
/// One project with the caller's standing on it and on each of its layers it may see.
std::string project(const service::Caller& scope, std::int64_t project_id);
/// Every layer the caller may see: [{"idCamada","idProjeto","nome","privada","papel","pode":{...}}].
std::string layers(const service::Caller& scope);
/// One layer with the caller's standing on it.
std::string layer(const service::Caller& scope, std::int64_t layer_id);

/// A user of the tenant as the permission table needs them.
struct Member {
  std::int64_t id = 0;
  std::string nome, email;
  bool admin = false;
};
/// The tenant's active users (platform database).
std::vector<Member> members(store::Pool& platform, std::int64_t tenant_id);
/// Who may do what on a project: every member holding a role on it, with their role on the
/// project and on each of its layers, and where the role comes from.
std::string table(const service::Caller& scope, std::int64_t project_id, const std::vector<Member>& members);

}  // namespace cadastre::platform::permissions
