#include "jwt/jwt.hpp"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <simdjson.h>

#include <array>
#include <cmath>
#include <vector>

#include "core/json_in.hpp"

namespace cadastre::jwt {
namespace {

constexpr std::string_view kB64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int b64url_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

struct PkeyDeleter {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct BioDeleter {
  void operator()(BIO* b) const { BIO_free(b); }
};

std::optional<std::string> string_member(simdjson::dom::object o, std::string_view key) {
  std::string_view v;
  if (o[key].get_string().get(v)) return std::nullopt;
  return std::string(v);
}

// NumericDate: a JSON number of seconds (integer or not).
std::optional<double> numeric_date(simdjson::dom::object o, std::string_view key) {
  simdjson::dom::element e;
  if (o[key].get(e)) return std::nullopt;
  double d = 0;
  if (e.is<int64_t>()) {
    d = static_cast<double>(e.get_int64().value_unsafe());
  } else if (e.is<uint64_t>()) {
    d = static_cast<double>(e.get_uint64().value_unsafe());
  } else if (e.is<double>()) {
    d = e.get_double().value_unsafe();
  } else {
    throw JwtError("token intranet inválido: '" + std::string(key) + "' deve ser um número");
  }
  if (!std::isfinite(d)) throw JwtError("token intranet inválido: '" + std::string(key) + "' deve ser finito");
  return d;
}

simdjson::dom::object parse_object(simdjson::dom::parser& parser, const std::string& json, const char* part) {
  simdjson::dom::element e;
  try {
    e = jsonin::parse(parser, json);  // a repeated claim would mean one thing here and another elsewhere
  } catch (const Error& err) {
    throw JwtError(std::string("token intranet inválido: ") + part + ": " + err.what());
  }
  simdjson::dom::object o;
  if (e.get(o)) throw JwtError(std::string("token intranet inválido: ") + part + " não é um objeto JSON");
  return o;
}

bool audience_matches(simdjson::dom::object payload, std::string_view wanted) {
  simdjson::dom::element aud;
  if (payload["aud"].get(aud)) return false;
  std::string_view one;
  if (!aud.get_string().get(one)) return one == wanted;
  simdjson::dom::array many;
  if (aud.get_array().get(many)) return false;
  for (auto item : many) {
    std::string_view s;
    if (!item.get_string().get(s) && s == wanted) return true;
  }
  return false;
}

}  // namespace

struct JwtVerifier::Keys {
  std::unique_ptr<EVP_PKEY, PkeyDeleter> rsa;
};

std::string base64url_decode(std::string_view text) {
  // JWTs omit padding; tolerate it anyway.
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) throw JwtError("token intranet inválido: base64url malformado");
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = b64url_value(c);
    if (v < 0) throw JwtError("token intranet inválido: caractere fora do base64url");
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kB64Url[(acc >> bits) & 0x3F]);
    }
  }
  if (bits > 0) out.push_back(kB64Url[(acc << (6 - bits)) & 0x3F]);
  return out;
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

JwtVerifier::JwtVerifier(JwtOptions options) : options_(std::move(options)), keys_(std::make_unique<Keys>()) {
  if (options_.rs256_public_pem.empty()) return;
  std::unique_ptr<BIO, BioDeleter> bio(
      BIO_new_mem_buf(options_.rs256_public_pem.data(), static_cast<int>(options_.rs256_public_pem.size())));
  if (!bio) throw std::invalid_argument("sem memória para ler a chave pública RS256");
  keys_->rsa.reset(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  if (!keys_->rsa || EVP_PKEY_base_id(keys_->rsa.get()) != EVP_PKEY_RSA) {
    ERR_clear_error();
    throw std::invalid_argument("a chave pública RS256 deve ser um PEM 'BEGIN PUBLIC KEY' de uma chave RSA");
  }
}

JwtVerifier::~JwtVerifier() = default;

bool JwtVerifier::enabled() const noexcept { return !options_.hs256_secret.empty() || keys_->rsa != nullptr; }

JwtClaims JwtVerifier::verify(std::string_view token, std::int64_t now) const {
  auto dot1 = token.find('.');
  auto dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos)
    throw JwtError("token intranet inválido: esperado cabeçalho.conteúdo.assinatura");
  std::string_view signing_input = token.substr(0, dot2);
  std::string header_json = base64url_decode(token.substr(0, dot1));
  std::string payload_json = base64url_decode(token.substr(dot1 + 1, dot2 - dot1 - 1));
  std::string signature = base64url_decode(token.substr(dot2 + 1));

  simdjson::dom::parser header_parser, payload_parser;
  auto header = parse_object(header_parser, header_json, "o cabeçalho");
  std::string alg = string_member(header, "alg").value_or("");

  if (alg == "HS256" && !options_.hs256_secret.empty()) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    std::size_t mac_len = 0;
    if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, options_.hs256_secret.data(), options_.hs256_secret.size(),
                   reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size(), mac.data(),
                   mac.size(), &mac_len))
      throw JwtError("token intranet: falha ao calcular HMAC");
    if (signature.size() != mac_len || CRYPTO_memcmp(signature.data(), mac.data(), mac_len) != 0)
      throw JwtError("token intranet com assinatura inválida");
  } else if (alg == "RS256" && keys_->rsa) {
    std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, keys_->rsa.get()) != 1) {
      ERR_clear_error();
      throw JwtError("token intranet: falha ao preparar a verificação RSA");
    }
    int ok = EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                              reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size());
    if (ok != 1) {
      // A refused signature leaves entries on this thread's OpenSSL error queue; clear them so
      // a later TLS call on the same worker does not read them as its own.
      ERR_clear_error();
      throw JwtError("token intranet com assinatura inválida");
    }
  } else {
    throw JwtError("token intranet com algoritmo não aceito: '" + alg + "'");
  }

  auto payload = parse_object(payload_parser, payload_json, "o conteúdo");
  auto leeway = static_cast<double>(options_.leeway.count());
  auto exp = numeric_date(payload, "exp");
  if (!exp) throw JwtError("token intranet sem expiração (exp)");
  if (static_cast<double>(now) >= *exp + leeway) throw JwtError("token intranet expirado");
  if (auto nbf = numeric_date(payload, "nbf"); nbf && static_cast<double>(now) + leeway < *nbf)
    throw JwtError("token intranet ainda não é válido (nbf)");
  if (!options_.issuer.empty() && string_member(payload, "iss").value_or("") != options_.issuer)
    throw JwtError("token intranet de emissor não aceito");
  if (!options_.audience.empty() && !audience_matches(payload, options_.audience))
    throw JwtError("token intranet para outro destinatário (aud)");

  JwtClaims c;
  c.subject = string_member(payload, "sub").value_or("");
  c.email = string_member(payload, "email").value_or(c.subject);
  c.tenant = string_member(payload, "nome_tenant").value_or(string_member(payload, "tenant").value_or(""));
  c.expires_at = static_cast<std::int64_t>(*exp);
  return c;
}

}  // namespace cadastre::jwt
