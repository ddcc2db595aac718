// Users of the intranet login: the JWT names a user (email) and a tenant (slug); the user
// must exist, be active and belong to that active tenant in the identity store.
//
// store::Identity has no lookup by email without a password, so the query lives here; it
// reads the same plataforma.usuarios/tenants rows as Identity::authenticate. (If Identity
// gains `principal_by_email(email, tenant_slug)`, this class can delegate to it.)
#pragma once

#include <optional>
#include <string_view>

#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::gateway {

class IntranetUsers {
 public:
  explicit IntranetUsers(store::Pool& platform) : pool_(platform) {}

  /// The active user `email` (case-insensitive) of active tenant `tenant_slug`, if any.
  /// Throws cadastre::Error(unavailable) when the identity store cannot be reached.
  std::optional<store::Principal> find(std::string_view email, std::string_view tenant_slug);

 private:
  store::Pool& pool_;
};

}  // namespace cadastre::gateway
