// Small helpers shared by the schedule unit tests.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "cadastre/error.hpp"
#include "cadastre/schedule.hpp"

namespace schedule_test {

using namespace cadastre::schedule;

inline std::chrono::sys_seconds at(std::string_view rfc3339) { return parse_instant(rfc3339); }
inline std::chrono::year_month_day ymd(std::string_view date) { return parse_date(date); }

/// Runs `f`, which must throw cadastre::Error, and returns the error for inspection.
template <class F>
cadastre::Error error_of(F&& f) {
  try {
    f();
  } catch (const cadastre::Error& e) {
    return e;
  }
  FAIL("esperava cadastre::Error");
  return cadastre::Error(cadastre::errc::internal, "não alcançado");
}

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

/// Mon–Fri 08:00–12:00 and 13:00–17:00, 60-minute slots, capacity 1, no inspectors,
/// America/Sao_Paulo: 8 slots per weekday, weekend closed.
inline constexpr std::string_view office_agenda = R"({
  "duracao_slot_minutos": 60,
  "semana": {
    "segunda": [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
    "terca":   [{"inicio": "13:00", "fim": "17:00"}, {"inicio": "08:00", "fim": "12:00"}],
    "3":       [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
    "quinta":  [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
    "sexta":   [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}]
  }
})";

/// A Reservation from RFC 3339 texts.
inline Reservation booking(std::string_view inicio, std::string_view fim,
                           std::optional<std::string> who = std::nullopt) {
  Reservation r;
  r.intervalo = {at(inicio), at(fim)};
  r.vistoriador = std::move(who);
  return r;
}

/// Long ago, so no slot is dropped for having started.
inline const std::chrono::sys_seconds long_ago = at("2000-01-01T00:00:00Z");

}  // namespace schedule_test
