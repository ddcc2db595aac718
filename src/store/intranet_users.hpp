// Users of the gateway's intranet login: the intranet's JWT names a user (email) and a
// tenant (slug); the user must exist, be active and belong to that active tenant in the
// identity store. It reads the same plataforma.usuarios/tenants rows as
// Identity::authenticate, without a password or token.
#pragma once

#include <optional>
#include <string_view>

#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::store {

class IntranetUsers {
 public:
  explicit IntranetUsers(Pool& platform) : pool_(platform) {}

  /// The active user `email` (case-insensitive) of active tenant `tenant_slug`, if any.
  /// Throws cadastre::Error(unavailable) when the identity store cannot be reached.
  std::optional<Principal> find(std::string_view email, std::string_view tenant_slug);

 private:
  Pool& pool_;
};

}  // namespace cadastre::store
