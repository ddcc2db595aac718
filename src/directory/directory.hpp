// The directory side of the directory login: escaping of user input for LDAP filters and
// DNs, and the bind that proves a username/password pair (libldap, blocking, bounded by
// LdapOptions::timeout). libldap stays inside directory.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "directory/options.hpp"

namespace cadastre::directory {

/// `value` escaped as an assertion value of a search filter (RFC 4515): '*', '(', ')',
/// '\' and NUL become \2a, \28, \29, \5c and \00.
std::string escape_filter_value(std::string_view value);
/// `value` escaped as an attribute value of a DN (RFC 4514): the specials "+,;<>\= and
/// NUL anywhere, a leading space or '#' and a trailing space, as \XX.
std::string escape_dn_value(std::string_view value);
/// `pattern` with every "%s" replaced by `value` (already escaped).
std::string fill(std::string_view pattern, std::string_view value);

/// What the directory says about a user whose password it accepted.
struct DirectoryUser {
  std::string dn, mail, nome;
  std::vector<std::string> groups;  ///< cn of the access groups (those starting with group_prefix)
};

/// Binds as `username` with `password`. nullopt when the directory refuses the
/// credentials (unknown user, wrong or empty password, ambiguous search). Throws
/// Error(upstream_timeout) when the directory does not answer in time and
/// Error(upstream_failed) when it cannot be reached or fails otherwise.
std::optional<DirectoryUser> authenticate(const LdapOptions& options, std::string_view username,
                                          std::string_view password);

}  // namespace cadastre::directory
