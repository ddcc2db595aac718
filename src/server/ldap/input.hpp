// The body of POST /ldap/login/: {"username", "password", "municipio"?}.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::server::ldap {

struct LoginInput {
  std::string username, password;
  std::string municipio;  ///< empty: the only municipality the directory grants

  /// Whether the credentials can be sent to the directory at all: a non-empty username of
  /// at most 256 bytes without control characters, a non-empty password of at most 1024
  /// (an empty one would be an anonymous bind the directory may accept).
  bool plausible() const;
};

/// Parses the body: a JSON object with username and password (texts) and optionally
/// municipio; another member → 400 campo_desconhecido, a missing or non-text one → 400.
LoginInput parse_login(std::string_view body);

}  // namespace cadastre::server::ldap
