// Credentials: random tokens, SHA-256, argon2id password hashes, base64 (libsodium).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cadastre::store {

/// A new random 256-bit token as 64 lowercase hex characters.
std::string random_token();
/// SHA-256 of `data` as 64 lowercase hex characters.
std::string sha256_hex(std::string_view data);
/// Constant-time comparison of two strings of equal length (false when lengths differ).
bool equal_constant_time(std::string_view a, std::string_view b) noexcept;
/// argon2id hash string (libsodium's crypto_pwhash_str, interactive limits).
std::string hash_password(std::string_view password);
/// True when `password` matches a hash made by hash_password.
bool verify_password(std::string_view hash, std::string_view password);
/// An argon2id hash of a random secret nobody knows (made once per process): checked when a
/// login names no user, so that the answer takes as long as for a wrong password.
const std::string& decoy_password_hash();
/// Standard base64 (with padding) and its inverse; decoding invalid text throws Error.
std::string base64_encode(std::string_view data);
std::string base64_decode(std::string_view text);


/// The tenant id carried by an X-Tn-Token (the login answer's tnToken): base64 of its
/// decimal text ("NQ==" → 5), padding optional, surrounding blanks ignored. nullopt when
/// not base64, not a positive decimal integer, or too large.
std::optional<std::int64_t> decode_tenant_token(std::string_view text);
std::string encode_tenant_token(std::int64_t tenant_id);

}  // namespace cadastre::store
