// The arithmetic of contracting on hand-computed cases: periods of whole months at month
// ends and in leap years, pro rata by the days of each calendar month, half-up rounding of
// prices and taxes. Each case writes its arithmetic out.
#include <doctest/doctest.h>

#include "cadastre/error.hpp"
#include "cadastre/pricing.hpp"

using namespace cadastre::pricing;

namespace {
Date d(const char* text) { return parse_date(text, "data"); }
std::string f(Date x) { return format(x); }
}  // namespace

TEST_CASE("periods of whole months end the day before the same day months later, clamped at month ends") {
  CHECK(f(add_months(d("2028-01-31"), 1)) == "2028-02-29");  // leap February has 29 days
  CHECK(f(add_months(d("2027-01-31"), 1)) == "2027-02-28");
  CHECK(f(add_months(d("2028-02-29"), 12)) == "2029-02-28");
  CHECK(f(period_end(d("2027-03-01"), 12)) == "2028-02-29");  // 2028-03-01 − 1 day
  CHECK(f(period_end(d("2026-11-26"), 1)) == "2026-12-25");
  CHECK(f(period_end(d("2028-01-31"), 1)) == "2028-02-28");  // 2028-02-29 − 1 day
  CHECK(days_inclusive(d("2027-03-01"), d("2028-02-29")) == 366);
  CHECK(days_inclusive(d("2028-03-01"), d("2028-02-29")) == 0);
}

TEST_CASE("dates that are not in the calendar are refused") {
  CHECK_THROWS_AS(d("2027-02-29"), cadastre::Error);
  CHECK_THROWS_AS(d("2028-13-01"), cadastre::Error);
  CHECK_THROWS_AS(d("28-02-2028"), cadastre::Error);
  CHECK(f(d("2028-02-29")) == "2028-02-29");
}

TEST_CASE("pro rata weighs each calendar month by its own days and rounds half up once") {
  // 10 GB at 1500 centavos per GB and month, 2028-02-15 to 2028-02-29:
  // 15 of February's 29 days → 10 × 1500 × 15 / 29 = 225000 / 29 = 7758.62… → 7759.
  Prorated p = prorate(10, 1, 1500, d("2028-02-15"), d("2028-02-29"), "gb");
  CHECK(p.centavos == 7759);
  CHECK(p.dias == 15);
  REQUIRE(p.meses.size() == 1);
  CHECK(p.meses[0].mes == "2028-02");
  CHECK(p.meses[0].dias_do_mes == 29);

  // The same in 2027 (28 days): 2027-02-15 to 2027-02-28 is 14 of 28 → 15000 × 14 / 28 = 7500.
  CHECK(prorate(10, 1, 1500, d("2027-02-15"), d("2027-02-28"), "gb").centavos == 7500);

  // A whole leap February is a whole month: 29/29 → 15000.
  CHECK(prorate(10, 1, 1500, d("2028-02-01"), d("2028-02-29"), "gb").centavos == 15000);

  // From a month's last day: 2028-01-31 to 2028-02-29 = 1/31 of January + 29/29 of February
  // → 15000/31 + 15000 = 483.87… + 15000 = 15483.87… → 15484.
  Prorated end = prorate(10, 1, 1500, d("2028-01-31"), d("2028-02-29"), "gb");
  CHECK(end.centavos == 15484);
  CHECK(end.dias == 30);
  CHECK(end.meses.size() == 2);

  // Exactly half a centavo rounds up: 1 unit at 1001 for 15 of April's 30 days = 500.5 → 501.
  CHECK(prorate(1, 1, 1001, d("2028-04-16"), d("2028-04-30"), "gb").centavos == 501);
  // … and below half rounds down: 1 unit at 1001 for 1 of 30 days = 33.366… → 33.
  CHECK(prorate(1, 1, 1001, d("2028-04-30"), d("2028-04-30"), "gb").centavos == 33);

  // Per 1024 units (MB priced per GB): 512 MB at 1500 per GB for a whole month = 750.
  CHECK(prorate(512, 1024, 1500, d("2028-03-01"), d("2028-03-31"), "gb").centavos == 750);

  // A year over a leap February: 12 whole months → 12 × 15000 = 180000.
  CHECK(prorate(10, 1, 1500, d("2027-03-01"), d("2028-02-29"), "gb").centavos == 180000);
}

TEST_CASE("taxes are the rate of the subtotal rounded half up to the centavo") {
  CHECK(tax(29900, 500) == 1495);   // 5% of 299.00 = 14.95
  CHECK(tax(7759, 200) == 155);     // 2% of 77.59 = 1.5518 → 1.55
  CHECK(tax(7759, 500) == 388);     // 5% of 77.59 = 3.8795 → 3.88
  CHECK(tax(10, 500) == 1);         // 0.5 centavo → 1
  CHECK(tax(9, 500) == 0);          // 0.45 centavo → 0
  CHECK(tax(0, 10000) == 0);
}
