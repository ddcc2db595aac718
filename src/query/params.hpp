// Private helpers for reading single-valued query parameters.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>

#include "cadastre/query.hpp"

namespace cadastre::query::detail {

/// A parameter found under one of its accepted names.
struct Found {
  std::string_view name;   ///< the spelling the request used (for error fields)
  std::string_view value;  ///< its value
};

/// Looks for a setting that may be spelled in several ways (e.g. page / pageNumber).
/// Throws errc::invalid_argument when the setting appears more than once, whether under
/// the same name or two different names. Absent → nullopt.
std::optional<Found> single(const QueryParams& params,
                            std::initializer_list<std::string_view> names);

/// Text safe to quote in a message: at most 64 bytes, control bytes shown as '?'.
std::string printable(std::string_view s);

}  // namespace cadastre::query::detail
