// The local-filesystem storage backend of /midia (the SQL of the area is in store.cpp).
// Files live under MediaOptions::root in the layout of file_store/keys.hpp, named by
// keys the backend generates itself.
//
// Writes go to a temporary name in the key's directory (".tmp-…", which no key matches)
// and are renamed into place after fsync, so a reader never sees a partial file and a
// failed write leaves nothing. Reads open every component below the root with O_NOFOLLOW
// (openat), so a symbolic link placed inside the store never leads outside it, and only
// regular files are served.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "file_store/file_store.hpp"
#include "server/app.hpp"

namespace cadastre::server::media {

struct StoredFile {
  std::string key, nome, extensao, content_type, sha256;
  std::size_t tamanho = 0;
};

class Files {
 public:
  explicit Files(MediaOptions options) : options_(std::move(options)), store_(options_.root) {}

  const MediaOptions& options() const noexcept { return options_; }

  /// Checks the content (size ≤ `limit` → else 413, extension allowed, content matching
  /// it → else 415) and stores it in `area` under a new key. Nothing is written when a
  /// check fails. `nome` is the display name (already cleaned).
  StoredFile put(std::string_view area, std::string nome, std::string_view extensao, std::string_view bytes,
                 std::size_t limit) const;
  /// The content of the file of `key`; nullopt when the key is malformed or names no
  /// regular file inside the store.
  std::optional<std::string> read(std::string_view key) const;
  /// Whether `key` names a stored regular file.
  bool exists(std::string_view key) const;
  /// Removes the file of `key` (nothing when absent).
  void remove(std::string_view key) const noexcept;

 private:
  MediaOptions options_;
  file_store::Store store_;
};

}  // namespace cadastre::server::media
