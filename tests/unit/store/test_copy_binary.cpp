// PostgreSQL's binary COPY fields (store/copy_binary.hpp), byte by byte as PostgreSQL's
// numeric.c, date.c and the COPY chapter define them; the round trip through PostgreSQL
// itself is tests/integration/foundation/test_copy_binary.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "store/copy_binary.hpp"

namespace binary = cadastre::store::copy_binary;

namespace {

// The bytes as numbers, to compare and print.
std::vector<int> bytes_of(const std::string& s) {
  std::vector<int> out;
  for (unsigned char c : s) out.push_back(c);
  return out;
}

std::vector<int> numeric(const std::string& text) {
  std::string out;
  REQUIRE_MESSAGE(binary::numeric(out, text), text);
  return bytes_of(out);
}

}  // namespace

TEST_CASE("a numeric is its base-10000 digits, their weight, its sign and the scale its text shows") {
  // length 12: ndigits 2, weight 0, positive, dscale 1; digits 12 and 5000 (12.5 = 12 + 5000/10^4)
  CHECK(numeric("12.5") == std::vector<int>{0, 0, 0, 12, 0, 2, 0, 0, 0, 0, 0, 1, 0, 12, 0x13, 0x88});
  // 0.0001: one digit 1 of weight -1, dscale 4
  CHECK(numeric("0.0001") == std::vector<int>{0, 0, 0, 10, 0, 1, 0xFF, 0xFF, 0, 0, 0, 4, 0, 1});
  // 100,000,000 = 1 × 10000^2: the trailing zero digits are not written
  CHECK(numeric("100000000") == std::vector<int>{0, 0, 0, 10, 0, 1, 0, 2, 0, 0, 0, 0, 0, 1});
  // -7: negative (0x4000)
  CHECK(numeric("-7") == std::vector<int>{0, 0, 0, 10, 0, 1, 0, 0, 0x40, 0, 0, 0, 0, 7});
  // 1e+20 = 1 × 10000^5, no decimals; 1.5e-07 = 15 × 10000^-2 with eight decimals
  CHECK(numeric("1e+20") == std::vector<int>{0, 0, 0, 10, 0, 1, 0, 5, 0, 0, 0, 0, 0, 1});
  CHECK(numeric("1.5e-07") == std::vector<int>{0, 0, 0, 10, 0, 1, 0xFF, 0xFE, 0, 0, 0, 8, 0, 15});
  // Zero has no digits and is positive, whatever its sign; its scale stays ("0.00").
  CHECK(numeric("0") == std::vector<int>{0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(numeric("-0.00") == std::vector<int>{0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 2});
  // 1.50 keeps its two decimals as numeric's input does: digits 1 and 5000, dscale 2
  CHECK(numeric("1.50") == std::vector<int>{0, 0, 0, 12, 0, 2, 0, 0, 0, 0, 0, 2, 0, 1, 0x13, 0x88});
}

TEST_CASE("a numeric refuses what numeric's input would (and NaN and infinities, which imports never send)") {
  std::string out;
  for (const char* bad : {"", "-", ".", "1e", "1e+", "12a", "1.2.3", " 1", "1 ", "NaN", "Infinity", "0x10", "1e100001"})
    CHECK_MESSAGE(!binary::numeric(out, bad), bad);
  CHECK(out.empty());  // nothing written for a refused text
}

TEST_CASE("a date is its days since 2000-01-01, and only a day its month has") {
  std::string out;
  REQUIRE(binary::date(out, "2000-01-01"));
  CHECK(bytes_of(out) == std::vector<int>{0, 0, 0, 4, 0, 0, 0, 0});
  out.clear();
  REQUIRE(binary::date(out, "2024-02-29"));  // 8,825 days later (24 years, 6 of them leap, and 59 days)
  CHECK(bytes_of(out) == std::vector<int>{0, 0, 0, 4, 0, 0, 0x22, 0x79});
  out.clear();
  REQUIRE(binary::date(out, "1999-12-31"));
  CHECK(bytes_of(out) == std::vector<int>{0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF});
  out.clear();
  for (const char* bad : {"2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "0000-01-01", "2024-1-01",
                          "2024/01/01", "24-01-01x", ""})
    CHECK_MESSAGE(!binary::date(out, bad), bad);
  CHECK(out.empty());
}

TEST_CASE("the frame of a binary COPY: signature, rows of counted fields, NULL as -1, the trailer") {
  std::string out;
  binary::header(out);
  CHECK(out == std::string("PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19));
  out.clear();
  binary::row(out, 3);
  binary::bigint(out, 258);
  binary::bytes(out, "São");
  binary::null(out);
  binary::trailer(out);
  CHECK(bytes_of(out) == std::vector<int>{0, 3, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 4, 'S', 0xC3, 0xA3, 'o',
                                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
  out.clear();
  REQUIRE(binary::boolean(out, "t"));
  REQUIRE(binary::boolean(out, "false"));
  CHECK(!binary::boolean(out, "sim"));
  binary::jsonb(out, "[1]");
  CHECK(bytes_of(out) == std::vector<int>{0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 4, 1, '[', '1', ']'});
}
