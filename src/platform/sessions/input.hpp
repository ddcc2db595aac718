// Bodies of the login routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "directory/login.hpp"
#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::sessions {

/// POST /login and POST /login-provider: `email` and `senha`, form-encoded (the spec) or
/// JSON; /login-provider also takes `idTenant`, the tenant to work in (needed when the
/// provider serves more than one). Missing → 400 campo_obrigatorio; an e-mail over 254
/// bytes or a password over 1024 → 400.
struct PasswordLogin {
  std::string email, senha;
  std::optional<std::int64_t> tenant_id;
};
PasswordLogin parse_password_login(const http::Request& req, bool with_tenant);

/// POST /login/LDAP: {"username", "password", "municipio"?}.
directory::Credentials parse_directory_login(const http::Request& req);

/// POST /login/oAuth: {"email", "uid", "id_token"}; the id_token is required (the e-mail
/// and uid alone prove nothing), but its absence is a 401, not a 400 (see routes).
struct OidcLogin {
  std::string email, uid, id_token;
};
OidcLogin parse_oidc_login(const http::Request& req);

/// GET /oAuth?email=: the e-mail, trimmed and lowered (400 when empty or over 254 bytes).
std::string parse_email_query(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::sessions
