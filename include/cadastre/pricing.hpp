// The arithmetic of contracting a service (the platform's plans, storage, users and
// add-ons), apart from any storage: calendar dates, periods of whole
// months, prices pro rata by the days of each calendar month, and taxes. Money is an
// integer number of centavos; every rounding is half up to the centavo, done once on an
// exact rational amount (never on floating point).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::pricing {

/// 128-bit integer for the intermediate products of money (centavos × units × days): a
/// GCC/Clang extension, named once so -Wpedantic is told so.
__extension__ typedef __int128 Wide;

using Date = std::chrono::year_month_day;

/// A calendar date written YYYY-MM-DD (2027-02-29 is not one): 400 naming `field` otherwise.
Date parse_date(std::string_view text, std::string_view field);
std::string format(Date d);
Date add_days(Date d, int days);
/// `d` plus `months` calendar months, clamped to the last day of the month reached
/// (2028-01-31 + 1 month = 2028-02-29; 2027-01-31 + 1 month = 2027-02-28).
Date add_months(Date d, int months);
/// The last day of a period of `months` months that starts on `start`:
/// add_months(start, months) − 1 day (2027-03-01 + 12 months → 2028-02-29).
Date period_end(Date start, int months);
/// Days from `from` to `to`, both included (0 when `to` is before `from`).
int days_inclusive(Date from, Date to);

/// One calendar month of a pro rata period: the days taken and the days of the month.
struct MonthShare {
  std::string mes;  ///< YYYY-MM
  int dias = 0, dias_do_mes = 0;
};
struct Prorated {
  std::int64_t centavos = 0;
  int dias = 0;
  std::vector<MonthShare> meses;
};

/// The price of `units` (each `monthly` centavos per `per` units per calendar month) from
/// `from` to `to`, both included: each calendar month counts (days taken / days of that
/// month), so a whole month costs exactly `monthly` and February weighs its 28 or 29 days.
/// The exact sum Σ units·monthly·days/(per·days_of_month) is rounded half up once.
/// 400 (field `field`) when the amount does not fit in 64 bits.
Prorated prorate(std::int64_t units, std::int64_t per, std::int64_t monthly, Date from, Date to,
                 std::string_view field);

/// A tax of `basis_points` (500 = 5%) on `subtotal`, rounded half up to the centavo.
std::int64_t tax(std::int64_t subtotal, std::int64_t basis_points);

}  // namespace cadastre::pricing
