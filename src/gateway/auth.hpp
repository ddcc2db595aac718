// Authentication of gateway calls: the four credential forms (credentials.hpp) validated
// against the identity store, through the `auth` circuit breaker and a short cache.
//
// The "gateway" auth scheme never throws: it stores an AuthResult in Request::auth and
// the route handler answers a refusal itself, so that even a 401 carries X-Target-URL.
#pragma once

#include <chrono>
#include <string>

#include "cadastre/error.hpp"
#include "gateway/breakers.hpp"
#include "gateway/credentials.hpp"
#include "store/intranet_users.hpp"
#include "gateway/jwt.hpp"
#include "gateway/principal_cache.hpp"
#include "http/http.hpp"
#include "store/identity.hpp"

namespace cadastre::gateway {

inline constexpr const char* kGatewayScheme = "gateway";

struct AuthResult {
  bool ok = false;
  AuthForm form = AuthForm::none;
  /// The caller; also set when a valid token came with another tenant's X-Tn-Token, so the
  /// refusal can still show the destination it would have reached.
  std::optional<store::Principal> principal;
  std::string session_token;  ///< forms carrying an auth_token
  std::string jwt;            ///< intranet form
  errc code = errc::unauthenticated;  ///< when refused: unauthenticated, or unavailable (auth breaker / store down)
  std::string message;
};

class Authenticator {
 public:
  Authenticator(store::Identity& identity, store::IntranetUsers& intranet, const JwtVerifier& jwt, Breakers& breakers,
                std::string store_host, std::chrono::milliseconds cache_ttl);

  AuthResult authenticate(const http::Request& req);
  /// Drops cached callers (tests, reloads).
  void forget();

 private:
  AuthResult session(const Credential& c);
  AuthResult intranet(const Credential& c);
  /// Runs a lookup in the identity store through the `auth` breaker.
  template <class F>
  bool guarded(F&& lookup, AuthResult& refusal);

  store::Identity& identity_;
  store::IntranetUsers& intranet_;
  const JwtVerifier& jwt_;
  Breakers& breakers_;
  std::string store_host_;
  PrincipalCache cache_;
};

/// What the gateway scheme established for `req` (a refusal when the route had no such scheme).
const AuthResult& auth_of(const http::Request& req);

}  // namespace cadastre::gateway
