// Test-only JWT issuing with OpenSSL: HS256 with a secret, RS256 with an RSA key made at
// test time. The gateway itself only verifies; tests need the other side.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "jwt/jwt.hpp"

namespace cadastre::test {

inline std::string hs256_sign(const std::string& input, const std::string& secret) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  std::size_t len = 0;
  if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, secret.data(), secret.size(),
                 reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac.data(), mac.size(), &len))
    throw std::runtime_error("HMAC falhou");
  return std::string(reinterpret_cast<const char*>(mac.data()), len);
}

/// header.payload.signature with HS256.
inline std::string make_hs256_jwt(const std::string& payload_json, const std::string& secret,
                                  const std::string& header_json = R"({"alg":"HS256","typ":"JWT"})") {
  std::string input = jwt::base64url_encode(header_json) + "." + jwt::base64url_encode(payload_json);
  return input + "." + jwt::base64url_encode(hs256_sign(input, secret));
}

/// An RSA key pair generated for the test run.
class RsaKey {
 public:
  RsaKey() : key_(EVP_RSA_gen(2048), &EVP_PKEY_free) {
    if (!key_) throw std::runtime_error("não foi possível gerar a chave RSA de teste");
  }
  /// "-----BEGIN PUBLIC KEY-----" PEM.
  std::string public_pem() const {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_PUBKEY(bio.get(), key_.get());
    char* data = nullptr;
    long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
  }
  std::string sign(const std::string& input) const {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    std::size_t len = 0;
    if (EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
      throw std::runtime_error("assinatura RSA falhou");
    std::string sig(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
      throw std::runtime_error("assinatura RSA falhou");
    sig.resize(len);
    return sig;
  }
  std::string jwt(const std::string& payload_json, const std::string& header_json = R"({"alg":"RS256","typ":"JWT"})") const {
    std::string input = jwt::base64url_encode(header_json) + "." + jwt::base64url_encode(payload_json);
    return input + "." + jwt::base64url_encode(sign(input));
  }

 private:
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key_;
};

}  // namespace cadastre::test
