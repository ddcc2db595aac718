// Weak passwords refused when a user chooses one (sign-up, reset, profile change): Debian's
// cracklib (libcrack2: dictionary words and their variations, keyboard and digit runs,
// too few different characters) and, besides, the user's own e-mail, the part before its
// '@' and the words of the user's name, in any case.
#pragma once

#include <string_view>

namespace cadastre::platform {

/// 400 (field `field`) naming why the password is weak; nothing when it is not. The length
/// rules are check_new_password's (rules.hpp), applied first.
void require_strong_password(std::string_view password, std::string_view email, std::string_view name,
                             const char* field = "senha");

}  // namespace cadastre::platform
