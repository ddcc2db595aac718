// What a media file may contain: the extension must be on the allow-list and the bytes
// must be what the extension says (a ".png" must start with the PNG signature; text
// formats must be valid UTF-8 without NUL), so a file is never served under a type its
// content contradicts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cadastre::server::media {

/// The extension as stored: lowercase, with its leading dot. A missing dot, other
/// characters or more than 10 letters → Error(invalid_argument, field).
std::string normalize_extension(std::string_view extensao, const std::string& field);

/// The Content-Type of `bytes` stored as `extension` (normalized). An extension not in
/// `allowed`, or content that does not match it → Error(unsupported_media_type).
std::string check_content(std::string_view extension, std::string_view bytes, const std::vector<std::string>& allowed);

/// The Content-Type served for a stored extension (application/octet-stream if unknown).
std::string content_type_of(std::string_view extension);

/// A display name: the last path component of `nome`, without control characters;
/// empty or longer than 255 bytes → Error(invalid_argument, field).
std::string clean_name(std::string_view nome, const std::string& field);

}  // namespace cadastre::server::media
