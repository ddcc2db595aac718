// The JWT verifier of the gateway's intranet form: the shared one (src/jwt, also used by
// cadastre-platform for OpenID Connect id_tokens), under the gateway's names.
#pragma once

#include "jwt/jwt.hpp"

namespace cadastre::gateway {

using jwt::base64url_decode;
using jwt::base64url_encode;
using jwt::JwtClaims;
using jwt::JwtError;
using jwt::JwtOptions;
using jwt::JwtVerifier;
using jwt::unix_now;

}  // namespace cadastre::gateway
