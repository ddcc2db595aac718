// Counting UTF-8 text as people read it.
#pragma once

#include <cstddef>
#include <string_view>

namespace cadastre::utf8 {

/// The number of characters (Unicode code points) of UTF-8 text: the unit of every "at most
/// N characters" rule, so "São José" counts 8, not its 9 bytes. Invalid UTF-8 is counted by
/// lead bytes (it is refused elsewhere).
inline std::size_t characters(std::string_view text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace cadastre::utf8
