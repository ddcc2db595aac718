#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "cadastre/decimal.hpp"

using cadastre::decimal::Sum;

namespace {

std::string sum_of(std::initializer_list<const char*> values) {
  Sum s;
  for (const char* v : values) REQUIRE_MESSAGE(s.add(v), v);
  return s.text();
}

}  // namespace

TEST_CASE("decimal sums are exact where doubles are not") {
  CHECK(sum_of({"0.1", "0.1", "0.1"}) == "0.3");  // double: 0.30000000000000004
  CHECK(sum_of({"0.2", "0.7"}) == "0.9");          // double: 0.8999999999999999
  CHECK(sum_of({"1234567.89", "0.11"}) == "1234568");
  CHECK(sum_of({"-1.5", "1.5"}) == "0");
  CHECK(sum_of({"12.50"}) == "12.5");
  CHECK(sum_of({"-0.25", "-0.5"}) == "-0.75");
  CHECK(sum_of({"0.001", "2"}) == "2.001");
  CHECK(Sum().text() == "0");
}

TEST_CASE("decimal sums read exponents as JSON writes them") {
  CHECK(sum_of({"1e-3", "2"}) == "2.001");
  CHECK(sum_of({"2.5E+2", "0.5"}) == "250.5");
  CHECK(sum_of({"+7", "1e0"}) == "8");
}

TEST_CASE("decimal sums refuse what is not a number or would lose digits, and keep the sum") {
  Sum s;
  REQUIRE(s.add("1.25"));
  for (const char* bad : {"", "-", ".", "abc", "1,5", "1.2.3", "1e", "1e500", "NaN", "Infinity", " 1", "1 "})
    CHECK_MESSAGE(!s.add(bad), bad);
  CHECK_FALSE(s.add("0." + std::string(30, '0') + "1"));           // 31 fraction digits
  CHECK(s.add("0." + std::string(29, '0') + "1"));                 // 30: kept
  CHECK(s.text() == "1.25" + std::string(27, '0') + "1");
  Sum big;
  CHECK_FALSE(big.add("123456789012345678901234567890123456789"));  // 39 digits
  REQUIRE(big.add("1.25"));
  CHECK(big.add(std::string(35, '9')));  // 10^35 + 0.25: 38 digits in all
  CHECK(big.text() == "1" + std::string(35, '0') + ".25");
  CHECK_FALSE(big.add("9" + std::string(35, '0')));  // 10^36 + 0.25 would need a 39th digit
  CHECK(big.text() == "1" + std::string(35, '0') + ".25");
}
