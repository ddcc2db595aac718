// The platform's storage of uploaded files and photos: each tenant's files under
// <files_dir>/<tenant slug>/ (AppOptions::files_dir, shared with the layers' store,
// src/platform/layers/files.hpp), in a folder computed from the record they belong to
// (folder_of), named by a key the store generates: "<slug>.<64 random hex>.<ext>" (the
// cadastre's media key, media/layout.hpp), the extension taken from the sniffed content.
// A name sent by a client never becomes a path.
//
// The cadastre's media rules: the size is checked (413), the type is read from the bytes
// (415 when not accepted), the SHA-256 is computed, and the bytes are written through the
// one file store (file_store/file_store.hpp: atomic, no link followed, shared by every
// instance).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cadastre/error.hpp"
#include "file_store/file_store.hpp"
#include "platform/files/sniff.hpp"

namespace cadastre::platform::files {

/// Where a record's files live, relative to the tenant's directory.
struct Folder {
  std::optional<std::int64_t> camada, projeto;  ///< both empty: the platform's (logos, photos)
};
std::string folder_of(const Folder& f);

/// What a preview's file name adds to its image's key, and the name of the note kept
/// instead when the image may not be previewed (over the limits, unreadable).
inline constexpr const char* kPreviewSuffix = ".previa.png";
inline constexpr const char* kNoPreviewSuffix = ".previa.recusada";

/// Why an image has no preview: the refusal the preview's job met (413, 422; 404 when the
/// image itself was missing from the store).
struct NoPreview {
  errc code = errc::unprocessable;
  std::string message;
};

struct Stored {
  std::string key, media_type, sha256;
  std::uintmax_t size = 0;
  bool image = false;
};

class Storage {
 public:
  explicit Storage(std::string root) : store_(std::move(root)) {}

  /// Checks and stores `bytes` for tenant `slug` in `folder`. 503 without a file store.
  Stored put(const std::string& slug, const Folder& folder, std::string_view bytes, std::size_t limit,
             bool images_only, const std::string& field) const;
  /// The content of `key` in `folder`; nullopt when it is not a stored regular file.
  std::optional<std::string> read(const std::string& slug, const Folder& folder, const std::string& key) const;
  /// Removes the file and its preview (nothing when absent): called after the record's
  /// deletion committed.
  void remove(const std::string& slug, const Folder& folder, const std::string& key) const noexcept;

  /// An image's preview (thumbnail.hpp, kPreviewSide), made once by a job after the image
  /// is stored: kept beside it as "<key>.previa.png", a name no key matches, so no client
  /// names it. When the job may not make it, it keeps why ("<key>.previa.recusada").
  void put_preview(const std::string& slug, const Folder& folder, const std::string& key, std::string_view png) const;
  std::optional<std::string> read_preview(const std::string& slug, const Folder& folder, const std::string& key) const;
  void put_no_preview(const std::string& slug, const Folder& folder, const std::string& key, const NoPreview& why) const;
  std::optional<NoPreview> read_no_preview(const std::string& slug, const Folder& folder, const std::string& key) const;

 private:
  std::string path(const std::string& slug, const Folder& folder, const std::string& key) const;
  file_store::Store store_;
};

/// Whether `key` is a key this store issues for tenant `slug` (strict: no path, no "..").
bool valid_key(std::string_view key, std::string_view slug);
/// Whether `key` is a well-formed key of any tenant.
bool valid_key(std::string_view key);

}  // namespace cadastre::platform::files
