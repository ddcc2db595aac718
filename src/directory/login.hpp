// The directory login shared by cadastre-server (POST /ldap/login/) and cadastre-platform
// (POST /login/LDAP): the password is proved by a bind (directory/directory.hpp);
// membership of group cn=<group_prefix><slug> grants tenant <slug>; the user is found (or,
// on first login, created without a password and given the configured layer rule) in the
// identity store and gets a new session (origin "ldap"; the user's other sessions stay).
#pragma once

#include <optional>
#include <string>

#include "directory/options.hpp"
#include "store/identity.hpp"
#include "store/secret_checks.hpp"

namespace cadastre::directory {

/// Credentials as the login routes read them.
struct Credentials {
  std::string username, password;
  std::string municipio;  ///< empty: the only municipality the directory grants

  /// Whether the credentials can be sent to the directory at all: a non-empty username of
  /// at most 256 bytes without control characters, a non-empty password of at most 1024
  /// (an empty one would be an anonymous bind the directory may accept).
  bool plausible() const;
};

/// What a login needs: the directory's configuration, the identity store and the limits
/// of the sessions it opens.
struct Login {
  Login(const LdapOptions& options, store::Identity& identity, store::SecretChecks& checks,
        store::SessionLimits limits = {});

  const LdapOptions& options;
  store::Identity& identity;
  store::SecretChecks& checks;  ///< every bind is a password check: throttled (account "ldap:<user>")
  store::SessionLimits limits;
  /// LdapOptions::new_user_permission parsed (nullopt when empty); a malformed rule is
  /// refused when the service starts (Error invalid_argument).
  std::optional<store::LayerPermission> new_user_rule;
};

struct Session {
  std::string token;
  store::StoredUser user;
  store::Tenant tenant;
};

/// Who a directory session stands for: its user in its municipality.
store::Principal principal_of(const Session& s);

/// Logs `in` in from `address`: 503 when no directory is configured, 429 while the user
/// name (trimmed and folded: " Fiscal" is "fiscal") or the address must wait
/// (store::SecretChecks), 401 for credentials the directory refuses, 403 when it grants no municipality or the identity store keeps
/// the user elsewhere or inactive, 502/504 when the directory fails or is slow.
Session log_in(const Login& login, const Credentials& in, const store::SessionOrigin& origin);

}  // namespace cadastre::directory
