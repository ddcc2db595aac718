// The guard's reads of the tenant database (platform/guard/guard.hpp has the rules' use).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "platform/guard/guard.hpp"

namespace cadastre::platform::guard {

/// Where a record sits and how the caller stands there.
struct Located {
  std::string noun;  ///< "camada", "formulário"... for messages
  std::int64_t project_id = 0, layer_id = 0;  ///< layer 0: a project-level record
  Standing standing;
};

/// The record `id` of kind `record` in the caller's tenant, with the caller's standing on
/// it (nullopt: no such record). std::logic_error for an unknown kind.
std::optional<Located> locate(const service::Scope& scope, std::string_view record, std::int64_t id);

/// A record of the platform database: its tenant, its owner (the user themself; a comment's
/// author) and whether it is (or belongs to) a platform administrator.
struct Account {
  std::int64_t tenant_id = 0, owner_id = 0;
  bool platform_admin = false;
};

/// Whether `user` is a public user (read-only visitor account).
bool is_public(store::Pool& platform, std::int64_t user);

/// Whether the caller holds the admin role on at least one project of the tenant.
bool administers_a_project(const service::Caller& scope);

/// The platform record `id` of kind "usuario" or "comentario" (nullopt: none).
std::optional<Account> locate_account(store::Pool& platform, std::string_view record, std::int64_t id);

}  // namespace cadastre::platform::guard
