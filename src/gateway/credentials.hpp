// The four credential forms of the gateway, read from a request without any lookup:
//
//   intranet        X-Origin: login_intranet + Authorization: Bearer <JWT> + ?nome_tenant=<slug>
//   bearer          Authorization: Bearer <auth_token>          (X-Tn-Token optional)
//   tenant headers  X-Auth-Token: <auth_token> + X-Tn-Token: <base64 of the tenant id>
//   legacy query    ?x_auth_token=<auth_token>&x_tn_token=<base64 of the tenant id>
//
// The first form whose marker is present is the one used (in the order above); a form
// that is present but incomplete is refused rather than falling through to another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "http/http.hpp"
#include "store/crypto.hpp"

namespace cadastre::gateway {

enum class AuthForm { none, bearer, tenant_headers, legacy_query, intranet };

/// "bearer", "cabecalhos", "query_legado", "intranet" or "nenhuma" (logs, docs).
std::string_view form_name(AuthForm f) noexcept;

struct Credential {
  AuthForm form = AuthForm::none;
  std::string token;                        ///< session token, or the JWT for intranet
  std::optional<std::string> tenant_token;  ///< X-Tn-Token / x_tn_token as sent (base64)
  std::string nome_tenant;                  ///< intranet: the tenant slug of the query
  std::string problem;                      ///< non-empty: why the credential is refused (401)
};

Credential read_credential(const http::Request& req);

/// Query fields carrying legacy credentials; they are never forwarded.
bool is_legacy_credential_param(std::string_view key) noexcept;

// X-Tn-Token's reading, shared with cadastre-platform (store/crypto.hpp).
using store::decode_tenant_token;
using store::encode_tenant_token;

}  // namespace cadastre::gateway
