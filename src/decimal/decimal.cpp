#include "cadastre/decimal.hpp"

#include <algorithm>
#include <optional>

namespace cadastre::decimal {
namespace {

using i128 = __int128;

// 10^38: a sum must stay below it in magnitude (i128 holds about 1.7 × 10^38).
constexpr i128 limit() {
  i128 v = 1;
  for (int i = 0; i < 38; ++i) v *= 10;
  return v;
}
constexpr i128 kLimit = limit();

// v × 10^k, or nullopt past the limit.
std::optional<i128> scaled(i128 v, int k) {
  for (int i = 0; i < k; ++i) {
    if (v >= kLimit / 10 || v <= -kLimit / 10) return std::nullopt;
    v *= 10;
  }
  return v;
}

struct Parsed {
  i128 units = 0;  // the value × 10^scale
  int scale = 0;
};

std::optional<Parsed> parse(std::string_view s) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  Parsed p;
  int digits = 0, fraction = 0;
  bool seen = false, point = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    seen = true;
    if (p.units == 0 && c == '0' && !point) continue;  // leading zeros
    if (++digits > 38) return std::nullopt;
    p.units = p.units * 10 + (c - '0');
    if (point) ++fraction;
  }
  if (!seen) return std::nullopt;
  long exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool neg_exp = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg_exp = s[i++] == '-';
    if (i == s.size()) return std::nullopt;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
      if ((exponent = exponent * 10 + (s[i] - '0')) > 100) return std::nullopt;
    if (neg_exp) exponent = -exponent;
  }
  if (i != s.size()) return std::nullopt;
  long scale = fraction - exponent;
  if (scale < 0) {
    auto v = scaled(p.units, static_cast<int>(-scale));
    if (!v) return std::nullopt;
    p.units = *v, scale = 0;
  }
  // Trailing zeros of the fraction carry nothing: drop them before judging the scale.
  while (scale > 0 && p.units % 10 == 0 && p.units != 0) p.units /= 10, --scale;
  if (p.units == 0) scale = 0;
  if (scale > kMaxScale) return std::nullopt;
  p.scale = static_cast<int>(scale);
  if (negative) p.units = -p.units;
  return p;
}

}  // namespace

bool Sum::add(std::string_view text) {
  auto p = parse(text);
  if (!p) return false;
  i128 sum = units_, value = p->units;
  int scale = std::max(scale_, p->scale);
  auto a = scaled(sum, scale - scale_), b = scaled(value, scale - p->scale);
  if (!a || !b) return false;
  i128 total = *a + *b;
  if (total >= kLimit || total <= -kLimit) return false;
  units_ = total, scale_ = scale;
  return true;
}

std::string Sum::text() const {
  i128 v = units_;
  int scale = scale_;
  while (scale > 0 && v % 10 == 0) v /= 10, --scale;
  const bool negative = v < 0;
  std::string digits;
  for (i128 m = negative ? -v : v; m > 0; m /= 10) digits.push_back(static_cast<char>('0' + static_cast<int>(m % 10)));
  while (static_cast<int>(digits.size()) <= scale) digits.push_back('0');
  std::reverse(digits.begin(), digits.end());
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  return (negative ? "-" : "") + digits;
}

}  // namespace cadastre::decimal
