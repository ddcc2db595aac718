// Private validation rules shared by Agenda::from_json and Agenda::validate, so an agenda
// built in code and one read from JSON are held to the same rules and messages.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/schedule.hpp"

namespace cadastre::schedule::detail {

inline constexpr int minutes_per_day = 24 * 60;
inline constexpr int max_capacity = 1000;      ///< per slot and inspector; keeps totals small
inline constexpr int max_inspectors = 1000;

/// Canonical weekday names, index 0 = domingo.
extern const std::array<std::string_view, 7> weekday_names;

/// Weekday index of a JSON key of "semana": "0".."6" or a name (with or without accents);
/// -1 when the key is not a weekday.
int weekday_index(std::string_view key);

void check_slot_minutes(long long minutes);
void check_capacity_per_slot(long long capacity);
/// One opening period: inside 00:00–24:00, fim > inicio, length a multiple of the slot.
void check_period(OpeningInterval p, int slot_minutes, const std::string& field);
/// Periods of a day: sorted by start and not overlapping. `day_field` is "semana.<dia>".
void check_day_order(const std::vector<OpeningInterval>& periods, const std::string& day_field);
void check_inspectors(const std::vector<std::string>& inspectors);

}  // namespace cadastre::schedule::detail
