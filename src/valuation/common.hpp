// Private helpers shared by the valuation sources: number formatting for the breakdown
// texts, error construction and field-path prefixing for nested inputs.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "cadastre/error.hpp"
#include "cadastre/valuation_profile.hpp"

namespace cadastre::valuation::detail {

/// A number for breakdown texts: up to 4 decimals, trailing zeros dropped ("0.25", "350000").
std::string num(double v);
/// A rate as a percentage for breakdown texts: 0.008 → "0.8%".
std::string pct(double rate);

/// Error(errc::invalid_argument, "campo '<field>' <why>", field).
[[noreturn]] void invalid(std::string_view field, std::string_view why);
/// Error(errc::missing_field, message, field).
[[noreturn]] void missing(std::string_view field, std::string_view message);

/// Looks `code` up in `table`; an unknown code is Error(errc::unknown_code, ...) naming
/// `field`, listing the known codes when `list_codes`.
double lookup(const Table& table, std::string_view code, std::string_view field,
              std::string_view table_name, bool list_codes = true);

/// Runs `fn`; an Error it throws is rethrown with `path` prefixed to its field
/// ("terreno" + "area" → "terreno.area") and to its message.
template <class Fn>
decltype(auto) within(const std::string& path, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (const Error& e) {
    throw Error(e.code(), path + ": " + e.what(),
                e.field().empty() ? path : path + "." + e.field());
  }
}

}  // namespace cadastre::valuation::detail
