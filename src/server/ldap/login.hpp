// The directory login behind POST /ldap/login/: the password is proved by a bind
// (server/ldap/directory.hpp); membership of group cn=<group_prefix><slug> grants tenant
// <slug>; the user is found (or, on first login, created without a password and given
// the configured layer rule) in the identity store and gets a fresh session token.
#pragma once

#include <optional>
#include <string>

#include "server/ldap/input.hpp"
#include "server/ldap/options.hpp"
#include "store/identity.hpp"

namespace cadastre::server::ldap {

/// What the login route needs: the directory's configuration and the identity store.
struct Login {
  Login(const LdapOptions& options, store::Identity& identity);

  const LdapOptions& options;
  store::Identity& identity;
  /// LdapOptions::new_user_permission parsed (nullopt when empty); a malformed rule is
  /// refused when the server starts (Error invalid_argument).
  std::optional<store::LayerPermission> new_user_rule;
};

struct Session {
  std::string token;
  store::StoredUser user;
  store::Tenant tenant;
};

/// Logs `in` in: 503 when no directory is configured, 401 for credentials the directory
/// refuses, 403 when it grants no municipality or the identity store keeps the user
/// elsewhere or inactive, 502/504 when the directory fails or is slow.
Session log_in(const Login& login, const LoginInput& in);

}  // namespace cadastre::server::ldap
