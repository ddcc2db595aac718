// The users of a tenant as its administrators manage them (plataforma.usuarios and their
// layer rules). Every statement is bounded to one tenant, except all() for platform
// administrators.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/paging.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::users {

/// The columns lists may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"id", "nome", "email", "criadoEm"};

/// A page of the tenant's users; `ativo` filters when set.
store::PageRows list(store::Pool& pool, std::int64_t tenant_id, const Page& page, std::optional<bool> ativo);
/// A page of every user of the platform (platform administrators).
store::PageRows all(store::Pool& pool, const Page& page, std::optional<bool> ativo);
/// One user of the tenant with their layer rules (404 for another tenant's id).
std::string one(store::Pool& pool, std::int64_t tenant_id, std::int64_t id);

struct Fields {
  std::optional<std::string> nome, email, telefone, cargo;
  std::optional<bool> adm, publico;
  /// Replaces every layer rule of the user when present.
  std::optional<std::vector<store::LayerPermission>> permissoes;
};

/// Creates a user without a password in the tenant, within the license's user quota
/// (403 when full; 409 when the e-mail has a user). Returns the new id.
std::int64_t create(store::Pool& pool, std::int64_t tenant_id, const Fields& f);
/// Updates a user of the tenant (404 for another tenant's id; 409 for a taken e-mail).
void update(store::Pool& pool, std::int64_t tenant_id, std::int64_t id, const Fields& f);
/// Marks a user of the tenant inactive (404 for another tenant's id).
void deactivate(store::Pool& pool, std::int64_t tenant_id, std::int64_t id);

}  // namespace cadastre::platform::users
