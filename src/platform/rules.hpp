// Rules of the platform's account data shared by several areas (pure: no database).
#pragma once

#include <string>
#include <string_view>

namespace cadastre::platform {

/// A password a user may choose: 8 to 1024 bytes, not only blanks. Else 400 naming `field`.
void check_new_password(std::string_view password, const char* field = "senha");

/// The e-mail trimmed and lowered, when it is one plain address (mail::valid_address).
/// Else 400 naming `field`.
std::string normalize_email(std::string_view text, const char* field = "email");

/// A tenant name made of `name`: accents folded, lowercase ASCII letters, digits and '_',
/// starting with a letter, at most 40 characters ("Prefeitura de São José" →
/// "prefeitura_de_sao_jose"); "conta" when nothing usable is left.
std::string slug_from(std::string_view name);

}  // namespace cadastre::platform
