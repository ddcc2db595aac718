// Verification of intranet JWTs: known vectors, a key generated at test time, and the
// refusals (algorithm, expiry, signature, audience).
#include <doctest/doctest.h>

#include "gateway/jwt.hpp"
#include "support/jwt_signing.hpp"

using namespace cadastre;
using namespace cadastre::gateway;

namespace {
// RFC 7515, appendix A.1: an HS256 JWS with the key below; its payload expires at 1300819380.
const char* kRfcToken =
    "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9."
    "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ."
    "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const char* kRfcKey = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow";

JwtVerifier hs(const std::string& secret) {
  JwtOptions o;
  o.hs256_secret = secret;
  o.leeway = std::chrono::seconds(0);
  return JwtVerifier(o);
}

std::string refusal(const JwtVerifier& v, const std::string& token, std::int64_t now) {
  try {
    v.verify(token, now);
  } catch (const JwtError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("base64url decodes and encodes without padding") {
  CHECK(base64url_decode("") == "");
  CHECK(base64url_decode("Zg") == "f");
  CHECK(base64url_decode("Zm8") == "fo");
  CHECK(base64url_decode("Zm9v") == "foo");
  CHECK(base64url_decode("-_8") == std::string("\xfb\xff", 2));
  CHECK(base64url_encode(std::string("\xfb\xff", 2)) == "-_8");
  CHECK(base64url_encode("foo") == "Zm9v");
  CHECK(base64url_encode("fo") == "Zm8");
  CHECK_THROWS_AS(base64url_decode("a+b/"), JwtError);
  CHECK_THROWS_AS(base64url_decode("abcde"), JwtError);
}

TEST_CASE("the HS256 example of RFC 7515 verifies before its expiry and is refused after it") {
  auto v = hs(base64url_decode(kRfcKey));
  JwtClaims c = v.verify(kRfcToken, 1300819000);
  CHECK(c.expires_at == 1300819380);
  CHECK(c.subject.empty());
  CHECK(refusal(v, kRfcToken, 1300819380) == "token intranet expirado");
}

TEST_CASE("HS256 with a wrong secret or a tampered payload is refused") {
  CHECK(refusal(hs("outro-segredo"), kRfcToken, 1300819000) == "token intranet com assinatura inválida");
  std::string token = test::make_hs256_jwt(R"({"email":"a@alfa.gov.br","nome_tenant":"alfa","exp":2000000000})", "s3gredo");
  auto v = hs("s3gredo");
  CHECK(v.verify(token, 1900000000).email == "a@alfa.gov.br");
  auto dot1 = token.find('.'), dot2 = token.rfind('.');
  std::string forged = token.substr(0, dot1 + 1) +
                       base64url_encode(R"({"email":"admin@beta.gov.br","nome_tenant":"beta","exp":2000000000})") +
                       token.substr(dot2);
  CHECK(refusal(v, forged, 1900000000) == "token intranet com assinatura inválida");
}

TEST_CASE("claims: email falls back to sub and the tenant comes from nome_tenant or tenant") {
  auto v = hs("k");
  auto c = v.verify(test::make_hs256_jwt(R"({"sub":"joana@alfa.gov.br","tenant":"alfa","exp":2000000000})", "k"), 1);
  CHECK(c.email == "joana@alfa.gov.br");
  CHECK(c.subject == "joana@alfa.gov.br");
  CHECK(c.tenant == "alfa");
  c = v.verify(test::make_hs256_jwt(R"({"sub":"7","email":"j@a.br","nome_tenant":"beta","tenant":"x","exp":2e9})", "k"), 1);
  CHECK(c.email == "j@a.br");
  CHECK(c.tenant == "beta");
}

TEST_CASE("exp is required, nbf is honoured, and the leeway tolerates clock skew") {
  auto v = hs("k");
  CHECK(refusal(v, test::make_hs256_jwt(R"({"email":"a@b"})", "k"), 1) == "token intranet sem expiração (exp)");
  CHECK(refusal(v, test::make_hs256_jwt(R"({"exp":"amanhã"})", "k"), 1) == "token intranet inválido: 'exp' deve ser um número");
  CHECK(refusal(v, test::make_hs256_jwt(R"({"exp":100,"nbf":50})", "k"), 40) == "token intranet ainda não é válido (nbf)");
  CHECK(refusal(v, test::make_hs256_jwt(R"({"exp":100,"nbf":50})", "k"), 60).empty());
  JwtOptions o;
  o.hs256_secret = "k";
  o.leeway = std::chrono::seconds(30);
  JwtVerifier lenient(o);
  CHECK(refusal(lenient, test::make_hs256_jwt(R"({"exp":100})", "k"), 120).empty());
  CHECK(refusal(lenient, test::make_hs256_jwt(R"({"exp":100})", "k"), 130) == "token intranet expirado");
}

TEST_CASE("issuer and audience are enforced when configured") {
  JwtOptions o;
  o.hs256_secret = "k";
  o.issuer = "intranet.prefeitura";
  o.audience = "cadastre-gateway";
  JwtVerifier v(o);
  auto ok = test::make_hs256_jwt(R"({"iss":"intranet.prefeitura","aud":["x","cadastre-gateway"],"exp":200})", "k");
  CHECK(refusal(v, ok, 100).empty());
  CHECK(refusal(v, test::make_hs256_jwt(R"({"iss":"outro","aud":"cadastre-gateway","exp":200})", "k"), 100) ==
        "token intranet de emissor não aceito");
  CHECK(refusal(v, test::make_hs256_jwt(R"({"iss":"intranet.prefeitura","aud":"outro","exp":200})", "k"), 100) ==
        "token intranet para outro destinatário (aud)");
}

TEST_CASE("RS256 verifies with a key generated at test time and refuses another key's signature") {
  test::RsaKey key, other;
  JwtOptions o;
  o.rs256_public_pem = key.public_pem();
  JwtVerifier v(o);
  CHECK(v.enabled());
  auto token = key.jwt(R"({"email":"r@alfa.gov.br","nome_tenant":"alfa","exp":2000000000})");
  CHECK(v.verify(token, 1900000000).tenant == "alfa");
  CHECK(refusal(v, other.jwt(R"({"email":"r@alfa.gov.br","exp":2000000000})"), 1900000000) ==
        "token intranet com assinatura inválida");
}

TEST_CASE("algorithms without a configured key are refused, including none and HS256 made with the public key") {
  test::RsaKey key;
  JwtOptions o;
  o.rs256_public_pem = key.public_pem();
  JwtVerifier rs_only(o);
  // Algorithm confusion: an attacker "signs" HS256 with the (public) PEM text as the secret.
  auto confused = test::make_hs256_jwt(R"({"email":"x@y","exp":2000000000})", o.rs256_public_pem);
  CHECK(refusal(rs_only, confused, 1) == "token intranet com algoritmo não aceito: 'HS256'");
  std::string none = base64url_encode(R"({"alg":"none"})") + "." + base64url_encode(R"({"exp":2000000000})") + ".";
  CHECK(refusal(rs_only, none, 1) == "token intranet com algoritmo não aceito: 'none'");
  CHECK(refusal(hs("k"), key.jwt(R"({"exp":2000000000})"), 1) == "token intranet com algoritmo não aceito: 'RS256'");
  CHECK(refusal(hs("k"), "abc", 1) == "token intranet inválido: esperado cabeçalho.conteúdo.assinatura");
  CHECK_FALSE(JwtVerifier(JwtOptions{}).enabled());
}

TEST_CASE("a PEM that is not an RSA public key is a configuration error") {
  JwtOptions o;
  o.rs256_public_pem = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n";
  CHECK_THROWS_AS(JwtVerifier{o}, std::invalid_argument);
}
