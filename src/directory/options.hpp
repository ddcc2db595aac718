// Configuration of the directory login (cadastre-server's POST /ldap/login/ and
// cadastre-platform's POST /login/LDAP). Without a `uri` those routes answer 503: the
// service then simply has no directory to ask.
#pragma once

#include <chrono>
#include <string>

namespace cadastre::directory {

struct LdapOptions {
  std::string uri;      ///< e.g. "ldap://127.0.0.1:389" or "ldaps://..."; empty: login by directory disabled
  std::string base_dn;  ///< subtree searched for users (and groups, unless group_base_dn is set)
  /// Direct bind: the user's DN, "%s" replaced by the username escaped per RFC 4514
  /// (e.g. "uid=%s,ou=pessoas,dc=exemplo,dc=gov,dc=br"). When empty the user is found by
  /// searching base_dn with `user_filter` first (search-then-bind).
  std::string user_dn_template;
  /// Search-then-bind: "%s" replaced by the username escaped per RFC 4515.
  std::string user_filter = "(uid=%s)";
  /// Service account for the search (empty DN: anonymous search). Never used to log in.
  std::string bind_dn, bind_password;
  std::string group_base_dn;  ///< where the access groups live (default: base_dn)
  /// Membership of the group cn=<group_prefix><slug> grants tenant <slug>: the user is
  /// created in the identity store on first login. No such group: no access (403).
  std::string group_prefix = "cadastre-";
  /// Layer rule ("camada:r", "camada:rw") given to users created on first login; empty: none.
  std::string new_user_permission = "*:r";
  /// Bound on connecting and on every directory operation (LDAP_OPT_NETWORK_TIMEOUT, LDAP_OPT_TIMEOUT).
  std::chrono::milliseconds timeout{5000};
};

}  // namespace cadastre::directory
