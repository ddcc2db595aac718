#include "platform/files/signing.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "store/crypto.hpp"

namespace cadastre::platform::files {

std::string sign(const std::string& secret, std::int64_t tenant_id, const std::string& key, std::int64_t expira) {
  std::string message = std::to_string(tenant_id) + "\n" + key + "\n" + std::to_string(expira);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), md, &len);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += digits[md[i] >> 4];
    out += digits[md[i] & 15];
  }
  return out;
}

bool verify(const std::string& secret, std::int64_t tenant_id, const std::string& key, std::int64_t expira,
            const std::string& assinatura, std::int64_t now) {
  if (expira < now) return false;
  return store::equal_constant_time(sign(secret, tenant_id, key, expira), assinatura);
}

}  // namespace cadastre::platform::files
