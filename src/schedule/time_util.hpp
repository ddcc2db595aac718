// Private bridge between the public std::chrono types of the schedule module and Abseil's
// time-zone and civil-time machinery (Abseil never appears in a public header).
#pragma once

#include <absl/time/civil_time.h>
#include <absl/time/time.h>

#include <chrono>
#include <optional>
#include <string_view>

#include "cadastre/schedule.hpp"

namespace cadastre::schedule::detail {

/// Loads an IANA zone; a malformed or unknown name → Error(invalid_argument, "fuso_horario").
absl::TimeZone load_zone(std::string_view name);

inline absl::Time to_absl(std::chrono::sys_seconds t) {
  return absl::FromUnixSeconds(t.time_since_epoch().count());
}
inline std::chrono::sys_seconds from_absl(absl::Time t) {
  return std::chrono::sys_seconds{std::chrono::seconds{absl::ToUnixSeconds(t)}};
}

inline absl::CivilDay to_civil(std::chrono::year_month_day d) {
  return absl::CivilDay(static_cast<int>(d.year()), static_cast<unsigned>(d.month()),
                        static_cast<unsigned>(d.day()));
}
inline std::chrono::year_month_day from_civil(absl::CivilDay d) {
  return std::chrono::year_month_day{std::chrono::year{static_cast<int>(d.year())},
                                     std::chrono::month{static_cast<unsigned>(d.month())},
                                     std::chrono::day{static_cast<unsigned>(d.day())}};
}

/// The one instant a local wall-clock time denotes in `tz`, or nullopt when that local
/// time is skipped or repeated by a UTC-offset change (daylight saving).
std::optional<absl::Time> unique_instant(const absl::TimeZone& tz, absl::CivilSecond local);

/// Parses "HH:MM" (00:00–23:59, or 24:00 when `allow_24` is set) into minutes since
/// midnight. Bad text → Error(invalid_argument) naming `field`.
int parse_hhmm(std::string_view text, std::string_view field, bool allow_24);

/// Formats minutes since midnight as "HH:MM".
std::string format_hhmm(int minutes);

}  // namespace cadastre::schedule::detail
