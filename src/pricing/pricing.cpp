#include "cadastre/pricing.hpp"

#include <limits>
#include <regex>

#include <fmt/format.h>

#include "cadastre/error.hpp"

namespace cadastre::pricing {
namespace {

using namespace std::chrono;

// Every month has 28 to 31 days: amounts are summed over this common denominator so the
// sum stays exact (lcm(28, 29, 30, 31) = 377580).
constexpr std::int64_t kMonthLcm = 377580;

int days_in_month(year y, month m) { return static_cast<int>(unsigned((y / m / last).day())); }

}  // namespace

Date parse_date(std::string_view text, std::string_view field) {
  static const std::regex iso(R"(\d{4}-\d{2}-\d{2})");
  std::string t(text);
  if (std::regex_match(t, iso)) {
    Date d{year(std::stoi(t.substr(0, 4))), month(static_cast<unsigned>(std::stoi(t.substr(5, 2)))),
           day(static_cast<unsigned>(std::stoi(t.substr(8, 2))))};
    if (d.ok() && d.year() >= year(1900)) return d;
  }
  throw Error(errc::invalid_argument, std::string(field) + " deve ser uma data AAAA-MM-DD", std::string(field));
}

std::string format(Date d) {
  return fmt::format("{:04}-{:02}-{:02}", int(d.year()), unsigned(d.month()), unsigned(d.day()));
}

Date add_days(Date d, int n) { return Date{sys_days(d) + days(n)}; }

Date add_months(Date d, int n) {
  year_month ym = year_month(d.year(), d.month()) + months(n);
  unsigned last_day = unsigned((ym.year() / ym.month() / last).day());
  return ym.year() / ym.month() / day(std::min(unsigned(d.day()), last_day));
}

Date period_end(Date start, int months_) { return add_days(add_months(start, months_), -1); }

int days_inclusive(Date from, Date to) {
  auto n = (sys_days(to) - sys_days(from)).count() + 1;
  return n > 0 ? static_cast<int>(n) : 0;
}

Prorated prorate(std::int64_t units, std::int64_t per, std::int64_t monthly, Date from, Date to,
                 std::string_view field) {
  Prorated out;
  Wide numerator = 0;
  for (Date cursor = from; sys_days(cursor) <= sys_days(to);) {
    int dim = days_in_month(cursor.year(), cursor.month());
    Date month_last = cursor.year() / cursor.month() / day(static_cast<unsigned>(dim));
    Date stop = sys_days(month_last) < sys_days(to) ? month_last : to;
    int taken = days_inclusive(cursor, stop);
    out.meses.push_back({fmt::format("{:04}-{:02}", int(cursor.year()), unsigned(cursor.month())), taken, dim});
    out.dias += taken;
    numerator += static_cast<Wide>(units) * monthly * taken * (kMonthLcm / dim);
    cursor = add_days(stop, 1);
  }
  const Wide denominator = static_cast<Wide>(kMonthLcm) * per;
  Wide rounded = (numerator * 2 + denominator) / (denominator * 2);  // half up: floor(x + 1/2)
  if (rounded > std::numeric_limits<std::int64_t>::max())
    throw Error(errc::invalid_argument, "valor grande demais", std::string(field));
  out.centavos = static_cast<std::int64_t>(rounded);
  return out;
}

std::int64_t tax(std::int64_t subtotal, std::int64_t basis_points) {
  Wide v = static_cast<Wide>(subtotal) * basis_points;
  return static_cast<std::int64_t>((v * 2 + 10000) / 20000);
}

}  // namespace cadastre::pricing
