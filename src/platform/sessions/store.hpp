// The statements of the login routes beyond the identity store's own: what a login
// answer reports, provider accounts, and users found by e-mail (OpenID Connect).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::sessions {

/// What the login answer says besides the tokens.
struct LoginFacts {
  std::int64_t empresa_id = 0;  ///< the user's company, else the tenant's (0: none)
  bool publico = false;
  std::string license_status;  ///< licenses::kStatuses, or "sem_licenca"
};
LoginFacts login_facts(store::Pool& pool, std::int64_t user_id, std::int64_t tenant_id);

/// A provider's user as /login-provider reads it.
struct ProviderAccount {
  std::int64_t user_id = 0, provider_id = 0;
  std::string email, nome, password_hash;
  bool active = false;  ///< user and provider active
  std::vector<std::int64_t> tenants;  ///< the active tenants that grant the provider access
};
std::optional<ProviderAccount> provider_account(store::Pool& pool, const std::string& email);

/// The active user (of an active tenant, not a provider's) with this e-mail.
std::optional<store::Principal> active_user(store::Pool& pool, const std::string& email);

/// How the user with this e-mail of `tenant_id` has signed in or can ("senha" when a
/// password is set, and the origins of their sessions); empty when no such user.
std::vector<std::string> sign_in_methods(store::Pool& pool, const std::string& email, std::int64_t tenant_id);

}  // namespace cadastre::platform::sessions
