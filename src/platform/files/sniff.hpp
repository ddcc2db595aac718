// What an uploaded file is, read from its bytes: the client's file name and Content-Type
// are never trusted (an ".exe" renamed ".jpg" is still an executable). The signatures are
// those of the cadastre's media rules (src/server/media/content.cpp, which checks bytes
// against a claimed extension and lives in cadastre_server_app, which the platform does not
// link); here the bytes alone decide the type and the stored extension.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cadastre::platform::files {

struct Kind {
  std::string extension;  ///< stored extension, without the dot ("png")
  std::string media_type; ///< served Content-Type
  bool image = false;     ///< a photo (png, jpeg, gif, webp)
};

/// The kind of `bytes`; nullopt for content the platform does not store (executables,
/// archives it cannot read, unknown binaries).
std::optional<Kind> sniff(std::string_view bytes);

/// The accepted kinds, for messages ("png, jpg, gif, webp, tif, pdf, zip, mp4, txt").
std::string accepted(bool images_only);

/// sniff() for an upload: 415 when the content is not stored,
/// or not an image when `images_only`.
Kind require_kind(std::string_view bytes, bool images_only, const std::string& field);

}  // namespace cadastre::platform::files
