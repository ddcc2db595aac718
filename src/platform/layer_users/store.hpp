// Per-user rights on one layer (projeto.camada_usuarios): "leitura" or "edicao", which
// replace what the project's share gives on that layer and let a user see a private
// layer. The layer's administrators (its project's) manage them. Users live in the platform
// database: a right is only given to an active user of the caller's tenant, and the
// answers carry the user's name and e-mail from there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::layer_users {

/// The rights on the layers the caller administers (of one layer when `layer` is set),
/// by layer and user: [{"id","idCamada","idUsuario","direito","concedidoPor","concedidoEm",
/// "usuario":{"nome","email"}|null}].
std::string list(const service::Caller& s, store::Pool& platform, std::optional<std::int64_t> layer);
/// One right.
std::string one(const service::Caller& s, store::Pool& platform, std::int64_t id);

/// 400 naming idUsuario unless `user_id` is an active user of the caller's tenant.
void require_tenant_user(const service::Caller& s, store::Pool& platform, std::int64_t user_id);

/// Gives `user_id` `direito` on the layer; 409 when the user already has a right there.
std::int64_t create(const service::Caller& s, std::int64_t layer_id, std::int64_t user_id, const std::string& direito);
void update(const service::Caller& s, std::int64_t id, const std::string& direito);
void remove(const service::Caller& s, std::int64_t id);

}  // namespace cadastre::platform::layer_users
