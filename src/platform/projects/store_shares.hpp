// Who else works on a project: its shares (projeto.projeto_usuarios in the tenant's
// database) with the users' names and e-mails from the platform database, and the tenant's
// users of one e-mail domain with their roles (usuariospvgeo). User ids carry no foreign
// key across the two databases, so every id named by a request is checked here against
// the caller's tenant in plataforma.usuarios.
#pragma once

#include <cstdint>
#include <string>

#include "platform/projects/input.hpp"
#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::projects {

/// Whether `user` is an active user of `tenant` (platform database).
bool is_active_user(store::Pool& platform, std::int64_t tenant, std::int64_t user);

/// The project's shares: [{"idUsuario","nome","email","papel","concedidoPor","concedidoEm"}].
std::string shares(const service::Caller& scope, store::Pool& platform, std::int64_t project);

/// Creates or changes a share (audited). Returns (created, the share as shares() shows it).
std::pair<bool, std::string> upsert_share(const service::Caller& scope, store::Pool& platform, const Share& share);

/// Removes a share (audited); 404 when the user has none on the project.
void remove_share(const service::Caller& scope, std::int64_t project, std::int64_t user);

/// The tenant's active users whose e-mail is at `domain`, each with "projetos": their role
/// on every project the caller administers ([{"id","nome","papel"}], papel null: none).
std::string users_of_domain(const service::Caller& scope, store::Pool& platform, const std::string& domain);

}  // namespace cadastre::platform::projects
