// Unicode normalisation for comparisons and masking (utf8proc): see CMakeLists.txt.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::text {

/// `s` in Normalization Form KC: compatibility characters become their plain forms
/// (full-width "１２３" → "123", "ﬁ" → "fi", KELVIN SIGN → "K"), composed. Invalid UTF-8
/// is returned unchanged (the callers validate their input first).
std::string nfkc(std::string_view s);

/// An identifier as it is compared: NFKC, case-folded, without surrounding blanks
/// (" Fiscal" and "fiscal", "Ana@Exemplo.gov.br" and "ana@exemplo.gov.br" are one).
/// E-mails and directory user names become lookups and throttle keys only through it.
std::string fold_identifier(std::string_view s);

}  // namespace cadastre::text
