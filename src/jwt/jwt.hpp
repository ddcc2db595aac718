// Verification of JSON Web Tokens (RFC 7519) with OpenSSL: the gateway's intranet tokens
// and the OpenID Connect id_tokens of cadastre-platform's POST /login/oAuth.
//
// Accepted algorithms are exactly those a key is configured for: HS256 with the shared
// secret, RS256 with the RSA public key. The algorithm named in the token header only
// selects between configured keys, so "none" and algorithm confusion (an HS256 token
// "signed" with the public key) are refused. `exp` is required; `nbf`, `iss` and `aud`
// are checked when present or configured. Time is passed in, so checks are testable.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cadastre::jwt {

/// A refused token; what() is a Portuguese reason safe to show the caller.
class JwtError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct JwtOptions {
  std::string hs256_secret;       ///< raw bytes of the HMAC key; empty: HS256 refused
  std::string rs256_public_pem;   ///< "-----BEGIN PUBLIC KEY-----" PEM; empty: RS256 refused
  std::string issuer;             ///< required `iss` when not empty
  std::string audience;           ///< required in `aud` (string or array) when not empty
  std::chrono::seconds leeway{30};  ///< clock skew tolerated on exp and nbf
};

/// The claims the gateway uses.
struct JwtClaims {
  std::string subject;  ///< `sub`
  std::string email;    ///< `email`, else `sub`
  std::string tenant;   ///< `nome_tenant`, else `tenant`
  std::int64_t expires_at = 0;  ///< `exp` (seconds since the epoch)
};

class JwtVerifier {
 public:
  /// Throws std::invalid_argument when the PEM cannot be read as an RSA public key.
  explicit JwtVerifier(JwtOptions options);
  ~JwtVerifier();
  JwtVerifier(const JwtVerifier&) = delete;
  JwtVerifier& operator=(const JwtVerifier&) = delete;

  /// True when at least one key is configured.
  bool enabled() const noexcept;
  /// Verifies `token` at `now` (seconds since the epoch); throws JwtError when refused.
  JwtClaims verify(std::string_view token, std::int64_t now) const;

 private:
  struct Keys;
  JwtOptions options_;
  std::unique_ptr<Keys> keys_;
};

/// Seconds since the epoch, for JwtVerifier::verify.
std::int64_t unix_now();

/// base64url without padding (RFC 4648 §5), as JWTs use it; throws JwtError when invalid.
std::string base64url_decode(std::string_view text);
std::string base64url_encode(std::string_view bytes);

}  // namespace cadastre::jwt
