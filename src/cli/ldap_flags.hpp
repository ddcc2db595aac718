// The directory login's flags (directory::LdapOptions), read the same way by cadastre-server
// and cadastre-platform. The service account's password comes from the environment only
// (CADASTRE_LDAP_BIND_PASSWORD): a flag would show in ps.
#pragma once

#include <set>
#include <stdexcept>
#include <string>

#include "cli/flags.hpp"
#include "directory/options.hpp"

namespace cadastre::cli {

inline std::set<std::string> ldap_flag_names() {
  return {"ldap-uri",          "ldap-base-dn",       "ldap-user-dn",       "ldap-user-filter", "ldap-bind-dn",
          "ldap-group-base-dn", "ldap-group-prefix", "ldap-new-user-perm", "ldap-timeout-ms"};
}

/// Reads the --ldap-* flags (or CADASTRE_LDAP_*); throws std::invalid_argument for an
/// incomplete or out-of-range set.
inline void read_ldap_flags(const Flags& f, directory::LdapOptions& o) {
  o.uri = f.get("ldap-uri", "", "CADASTRE_LDAP_URI");
  o.base_dn = f.get("ldap-base-dn", "", "CADASTRE_LDAP_BASE_DN");
  o.user_dn_template = f.get("ldap-user-dn", "", "CADASTRE_LDAP_USER_DN");
  o.user_filter = f.get("ldap-user-filter", "(uid=%s)", "CADASTRE_LDAP_USER_FILTER");
  o.bind_dn = f.get("ldap-bind-dn", "", "CADASTRE_LDAP_BIND_DN");
  if (const char* pw = std::getenv("CADASTRE_LDAP_BIND_PASSWORD")) o.bind_password = pw;
  o.group_base_dn = f.get("ldap-group-base-dn", "", "CADASTRE_LDAP_GROUP_BASE_DN");
  o.group_prefix = f.get("ldap-group-prefix", "cadastre-", "CADASTRE_LDAP_GROUP_PREFIX");
  o.new_user_permission = f.get("ldap-new-user-perm", "*:r", "CADASTRE_LDAP_NEW_USER_PERM");
  o.timeout = std::chrono::milliseconds(f.get_int("ldap-timeout-ms", 5000, "CADASTRE_LDAP_TIMEOUT_MS"));
  if (!o.uri.empty() && o.base_dn.empty()) throw std::invalid_argument("--ldap-uri pede --ldap-base-dn");
  // A service DN without a password would be an unauthenticated (anonymous) bind.
  if (!o.bind_dn.empty() && o.bind_password.empty())
    throw std::invalid_argument("--ldap-bind-dn pede a senha (CADASTRE_LDAP_BIND_PASSWORD)");
  if (o.timeout.count() < 100 || o.timeout.count() > 60000)
    throw std::invalid_argument("--ldap-timeout-ms deve estar entre 100 e 60000");
}

}  // namespace cadastre::cli
