// Exact sums of decimal numbers written as text, for what a municipality reads as money or
// areas: 0.1 + 0.1 + 0.1 is 0.3 and 0.2 + 0.7 is 0.9, never 0.30000000000000004. The
// values come as PostgreSQL writes numeric (and JSON numbers): an optional sign, digits,
// an optional fraction and an optional exponent.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::decimal {

/// The most fraction digits a sum keeps (a value with more is refused by Sum::add).
inline constexpr int kMaxScale = 30;

/// A running exact sum.
class Sum {
 public:
  /// Adds `text`. False, and nothing added, when it is not a decimal number, has more than
  /// kMaxScale fraction digits, or the sum would pass 38 significant digits.
  bool add(std::string_view text);
  /// The sum without trailing zeros of its fraction: "0.3", "12.5", "-3", "0".
  std::string text() const;

 private:
  __int128 units_ = 0;  ///< the sum × 10^scale_
  int scale_ = 0;
};

}  // namespace cadastre::decimal
