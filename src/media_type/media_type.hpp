// What a file is, read from its bytes: the one set of signatures of the cadastre and the
// platform. A client's file name and Content-Type are never trusted (an ".exe" renamed
// ".jpg" is still an executable). cadastre-server checks bytes against a claimed extension
// (matches); the platform lets the bytes alone decide the type and stored extension (sniff).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cadastre::media_type {

enum class Family { png, jpeg, gif, webp, tiff, pdf, zip, mp4, text };

/// Whether `bytes` carry the signature of `family`. Text has no signature: valid UTF-8
/// without NUL (binary files almost always hold a NUL); an empty file is text.
bool matches(Family family, std::string_view bytes);

struct Kind {
  Family family = Family::text;
  std::string extension;   ///< stored extension, without the dot ("png")
  std::string media_type;  ///< served Content-Type
  bool image = false;      ///< a photo (png, jpeg, gif, webp)
};

/// The kind of `bytes`, signatures first and text last; nullopt for empty content and
/// for anything else (executables, unknown binaries).
std::optional<Kind> sniff(std::string_view bytes);

/// The kinds sniff() knows, for messages.
std::string accepted(bool images_only);

/// sniff() for an upload: Error(unsupported_media_type, field) when the content is of no
/// known kind, or not an image when `images_only`.
Kind require_kind(std::string_view bytes, bool images_only, const std::string& field);

}  // namespace cadastre::media_type
