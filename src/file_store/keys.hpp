// The media keys and where their files live in the file store (file_store.hpp), shared by
// cadastre-server, the platform and the demo loader (cadastre-admin, which does not link
// the server), so each writes files exactly where the others look for them.
//
// A key is self-describing: "<area>.<64 hex>.<ext>", e.g. "campinas.3f…9a.png". The area is
// the tenant slug (^[a-z][a-z0-9_]{1,62}$) or "_publico" for the credential-less upload
// (a name no slug can take); the 64 hex digits are 256 random bits, so keys cannot be
// guessed. The file of a key lives at <root>/<area>/<first 2 hex>/<key>: that path is
// computed from a key that passed parse_key, never taken from the request.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cadastre::media {

inline constexpr std::string_view kPublicArea = "_publico";

struct Key {
  std::string_view area, hex, extension;  ///< extension with its leading dot
};

inline bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/// A tenant slug or the public area.
inline bool valid_area(std::string_view a) {
  if (a == kPublicArea) return true;
  if (a.size() < 2 || a.size() > 63 || a[0] < 'a' || a[0] > 'z') return false;
  for (char c : a)
    if (!is_lower_alnum(c) && c != '_') return false;
  return true;
}

/// ".png": a dot and 1 to 10 lowercase letters or digits.
inline bool valid_extension(std::string_view e) {
  if (e.size() < 2 || e.size() > 11 || e[0] != '.') return false;
  for (char c : e.substr(1))
    if (!is_lower_alnum(c)) return false;
  return true;
}

/// The parts of a well-formed key; nullopt for anything else (paths, "..", %, NUL...).
inline std::optional<Key> parse_key(std::string_view key) {
  auto dot = key.find('.', 1);  // an area never starts with '.', "_publico" has none inside
  if (dot == std::string_view::npos) return std::nullopt;
  Key k{key.substr(0, dot), {}, {}};
  std::string_view rest = key.substr(dot + 1);
  if (!valid_area(k.area) || rest.size() < 66) return std::nullopt;
  k.hex = rest.substr(0, 64);
  for (char c : k.hex)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  k.extension = rest.substr(64);
  if (!valid_extension(k.extension)) return std::nullopt;
  return k;
}

inline std::string make_key(std::string_view area, std::string_view hex, std::string_view extension) {
  return std::string(area) + "." + std::string(hex) + std::string(extension);
}

/// The directory of a key below the root, "<area>/<2 hex>".
inline std::string key_directory(const Key& k) { return std::string(k.area) + "/" + std::string(k.hex.substr(0, 2)); }

/// The key's path in the file store, "<area>/<2 hex>/<key>" (a key that passed parse_key).
inline std::string key_path(const Key& k, std::string_view key) { return key_directory(k) + "/" + std::string(key); }

/// The link the API answers for a key.
inline std::string link(std::string_view key) { return "/midia/get?file_url=" + std::string(key); }

}  // namespace cadastre::media
