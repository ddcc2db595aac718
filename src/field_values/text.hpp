// Text rules the field checks share (internal to the module).
#pragma once

#include <cstddef>
#include <string_view>

namespace cadastre::field_values {

/// Characters (code points) of UTF-8 text: the unit of the length rules, so "São José"
/// counts 8, not its 9 bytes.
inline std::size_t characters(std::string_view utf8) {
  std::size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace cadastre::field_values
