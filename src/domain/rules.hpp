// Private text rules of domain records.
#pragma once

#include <cstddef>
#include <string_view>

namespace cadastre::domain::detail {

/// Number of Unicode code points of UTF-8 text (input is already valid UTF-8: simdjson
/// validates it), counting bytes that do not continue a sequence.
std::size_t char_count(std::string_view utf8) noexcept;

/// Throws Error(invalid_argument, ..., field) unless `code` is a valid id/codigo.
void check_code(std::string_view code, std::string_view field);

/// Throws unless `text` is a valid descricao (field "descricao").
void check_description(std::string_view text);

}  // namespace cadastre::domain::detail
