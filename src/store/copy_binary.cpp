#include "store/copy_binary.hpp"

#include <endian.h>

#include <algorithm>

namespace cadastre::store::copy_binary {
namespace {

void put16(std::string& out, std::uint16_t v) {
  v = htobe16(v);
  out.append(reinterpret_cast<const char*>(&v), 2);
}
void put32(std::string& out, std::uint32_t v) {
  v = htobe32(v);
  out.append(reinterpret_cast<const char*>(&v), 4);
}

bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

// Days from 1970-01-01 to the proleptic Gregorian date y-m-d (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) noexcept {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool leap(std::int64_t y) noexcept { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// numeric's limits (PostgreSQL's numeric.c): base-10000 digits, a 14-bit display scale.
constexpr int kMaxDscale = 0x3FFF;
constexpr std::uint16_t kPositive = 0x0000, kNegative = 0x4000;

}  // namespace

void header(std::string& out) {
  out.append("PGCOPY\n\377\r\n\0", 11);
  put32(out, 0);  // flags
  put32(out, 0);  // header extension length
}

void trailer(std::string& out) { put16(out, 0xFFFF); }

void row(std::string& out, std::uint16_t fields) { put16(out, fields); }

void null(std::string& out) { put32(out, 0xFFFFFFFFu); }

void bytes(std::string& out, std::string_view value) {
  put32(out, static_cast<std::uint32_t>(value.size()));
  out.append(value);
}

void bigint(std::string& out, std::int64_t value) {
  put32(out, 8);
  std::uint64_t b = htobe64(static_cast<std::uint64_t>(value));
  out.append(reinterpret_cast<const char*>(&b), 8);
}

bool numeric(std::string& out, std::string_view text) {
  std::size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::string digits;  // every digit, the integer part's then the fraction's
  int integer = 0, fraction = 0;
  for (; i < text.size() && digit(text[i]); ++i, ++integer) digits += text[i];
  if (i < text.size() && text[i] == '.')
    for (++i; i < text.size() && digit(text[i]); ++i, ++fraction) digits += text[i];
  if (digits.empty()) return false;
  long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    const bool minus = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (i == text.size() || !digit(text[i])) return false;
    for (; i < text.size() && digit(text[i]); ++i) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 100000) return false;
    }
    if (minus) exponent = -exponent;
  }
  if (i != text.size() || digits.size() > 100000) return false;
  // numeric's input keeps the decimals written, less the exponent's shift.
  const long dscale = std::max(0L, fraction - exponent);
  if (dscale > kMaxDscale) return false;

  // The value is 0.<digits> × 10^point. Leading and trailing zeros go; then zeros before
  // bring the point to a multiple of 4, so the digits group into base-10000 digits.
  long point = integer + exponent, weight = 0;
  std::size_t groups = 0;
  if (const std::size_t first = digits.find_first_not_of('0'); first != std::string::npos) {
    point -= static_cast<long>(first);
    digits.erase(0, first);
    digits.erase(digits.find_last_not_of('0') + 1);
    const long pad = ((-point) % 4 + 4) % 4;
    digits.insert(0, static_cast<std::size_t>(pad), '0');
    point += pad;
    digits.append((4 - digits.size() % 4) % 4, '0');
    weight = point / 4 - 1;
    groups = digits.size() / 4;
    if (weight > 32767 || weight < -32768 || groups > 32767) return false;
  }
  put32(out, static_cast<std::uint32_t>(8 + 2 * groups));
  put16(out, static_cast<std::uint16_t>(groups));
  put16(out, static_cast<std::uint16_t>(static_cast<std::int16_t>(weight)));
  put16(out, negative && groups > 0 ? kNegative : kPositive);
  put16(out, static_cast<std::uint16_t>(dscale));
  for (std::size_t g = 0; g < digits.size() && groups > 0; g += 4)
    put16(out, static_cast<std::uint16_t>((digits[g] - '0') * 1000 + (digits[g + 1] - '0') * 100 +
                                          (digits[g + 2] - '0') * 10 + (digits[g + 3] - '0')));
  return true;
}

bool date(std::string& out, std::string_view text) {
  const std::size_t dash = text.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash > 7 || text.size() != dash + 6 || text[dash + 3] != '-')
    return false;
  std::int64_t y = 0;
  for (std::size_t i = 0; i < dash; ++i) {
    if (!digit(text[i])) return false;
    y = y * 10 + (text[i] - '0');
  }
  const char* md = text.data() + dash + 1;
  if (!digit(md[0]) || !digit(md[1]) || !digit(md[3]) || !digit(md[4])) return false;
  const unsigned m = static_cast<unsigned>((md[0] - '0') * 10 + (md[1] - '0'));
  const unsigned d = static_cast<unsigned>((md[3] - '0') * 10 + (md[4] - '0'));
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > kDays[m - 1] + (m == 2 && leap(y) ? 1 : 0)) return false;
  // PostgreSQL counts days from 2000-01-01, 10,957 days after 1970-01-01.
  put32(out, 4);
  put32(out, static_cast<std::uint32_t>(static_cast<std::int32_t>(days_from_civil(y, m, d) - 10957)));
  return true;
}

bool boolean(std::string& out, std::string_view text) {
  const bool yes = text == "true" || text == "t";
  if (!yes && text != "false" && text != "f") return false;
  put32(out, 1);
  out.push_back(yes ? '\1' : '\0');
  return true;
}

void jsonb(std::string& out, std::string_view json) {
  put32(out, static_cast<std::uint32_t>(json.size() + 1));
  out.push_back('\1');  // jsonb's binary format version
  out.append(json);
}

}  // namespace cadastre::store::copy_binary
