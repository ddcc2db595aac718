// Private building blocks of slot generation, shared by free_slots and check_capacity.
#pragma once

#include <absl/time/time.h>

#include <chrono>
#include <span>
#include <vector>

#include "cadastre/schedule.hpp"

namespace cadastre::schedule::detail {

bool is_holiday(const Agenda& agenda, std::chrono::year_month_day day);

/// The slots of one local day in chronological order, ignoring holidays and occupation
/// (empty on a closed weekday). Wall-clock times that a UTC-offset change skips or repeats
/// give no slot.
std::vector<Interval> day_slots(const Agenda& agenda, const absl::TimeZone& tz,
                                std::chrono::year_month_day day);

/// A slot with its occupation by `reservas` (all of which are considered).
Slot occupy(const Agenda& agenda, const absl::TimeZone& tz, std::chrono::year_month_day day,
            Interval slot, std::span<const Reservation> reservas);

/// Overlapping reservations of `who` within `slot`.
int inspector_load(std::span<const Reservation> reservas, Interval slot, const std::string& who);

}  // namespace cadastre::schedule::detail
