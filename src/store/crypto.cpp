#include "store/crypto.hpp"

#include <sodium.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {
void ensure_sodium() {
  static const bool ok = sodium_init() >= 0;
  if (!ok) throw Error(errc::internal, "libsodium não inicializou");
}

std::string to_hex(const unsigned char* bytes, std::size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}
}  // namespace

std::string random_token() {
  ensure_sodium();
  unsigned char buf[32];
  randombytes_buf(buf, sizeof buf);
  return to_hex(buf, sizeof buf);
}

std::string sha256_hex(std::string_view data) {
  ensure_sodium();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return to_hex(digest, sizeof digest);
}

bool equal_constant_time(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string hash_password(std::string_view password) {
  ensure_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw Error(errc::internal, "memória insuficiente para o hash de senha");
  }
  return out;
}

bool verify_password(std::string_view hash, std::string_view password) {
  ensure_sodium();
  std::string h(hash);  // needs NUL termination
  return crypto_pwhash_str_verify(h.c_str(), password.data(), password.size()) == 0;
}

std::string base64_encode(std::string_view data) {
  ensure_sodium();
  std::string out(sodium_base64_ENCODED_LEN(data.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data.data()),
                    data.size(), sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);
  return out;
}

std::string base64_decode(std::string_view text) {
  ensure_sodium();
  std::string out(text.size() / 4 * 3 + 3, '\0');
  std::size_t len = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(),
                        "\n\r ", &len, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size()) {
    throw Error(errc::invalid_argument, "conteúdo base64 inválido");
  }
  out.resize(len);
  return out;
}

const std::string& decoy_password_hash() {
  static const std::string hash = hash_password(random_token());
  return hash;
}

std::optional<std::int64_t> decode_tenant_token(std::string_view text) {
  auto first = text.find_first_not_of(" \t");
  auto last = text.find_last_not_of(" \t");
  std::string padded = first == std::string_view::npos ? std::string() : std::string(text.substr(first, last - first + 1));
  // Padding is optional: cpp-httplib's query parser drops '=' from values, so a legacy
  // x_tn_token=NQ== arrives as "NQ".
  while (padded.size() % 4 != 0) padded.push_back('=');
  std::string decoded;
  try {
    decoded = base64_decode(padded);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (decoded.empty() || decoded.size() > 18 ||
      !std::all_of(decoded.begin(), decoded.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  std::int64_t id = std::stoll(decoded);
  if (id <= 0) return std::nullopt;
  return id;
}

std::string encode_tenant_token(std::int64_t tenant_id) { return base64_encode(std::to_string(tenant_id)); }

}  // namespace cadastre::store
