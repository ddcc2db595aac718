// The body of POST /ldap/login/: {"username", "password", "municipio"?}.
#pragma once

#include <string_view>

#include "directory/login.hpp"

namespace cadastre::server::ldap {

/// Parses the body: a JSON object with username and password (texts) and optionally
/// municipio; another member → 400 campo_desconhecido, a missing or non-text one → 400.
directory::Credentials parse_login(std::string_view body);

}  // namespace cadastre::server::ldap
