// Credentials: random tokens, SHA-256, argon2id password hashes, base64 (libsodium).
#pragma once

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
/// Standard base64 (with padding) and its inverse; decoding invalid text throws Error.
std::string base64_encode(std::string_view data);
std::string base64_decode(std::string_view text);

}  // namespace cadastre::store
