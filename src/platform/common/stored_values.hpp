// Reading projeto.valores rows back as typed values (field_values::Typed): the one select
// list and the one reader, for every store that hands stored values to a renderer or a
// rule.
#pragma once

#include <cstddef>
#include <optional>

#include "cadastre/field_values.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::common {

/// The select list reading projeto.valores row `v` as five texts, for stored_value().
inline constexpr const char* kValueColumns = "v.texto, v.numero::text, v.data::text, v.booleano::text, v.lista::text";

/// The value held in the five columns of kValueColumns starting at r[first]; nullopt when
/// all are null (no row, or a row with no value).
std::optional<field_values::Typed> stored_value(const store::Row& r, std::size_t first);

}  // namespace cadastre::platform::common
