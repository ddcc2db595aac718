// What an uploaded file is, read from its bytes: the shared sniffer of cadastre-server and
// the platform (src/media_type/media_type.hpp, library cadastre_media_type), under the
// names the platform's files and ombudsman code use.
#pragma once

#include "media_type/media_type.hpp"

namespace cadastre::platform::files {

using media_type::accepted;
using media_type::Kind;
using media_type::require_kind;
using media_type::sniff;

}  // namespace cadastre::platform::files
