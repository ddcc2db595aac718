// The typed columns of projeto.valores (field_values::column_of names one per type family) and
// their SQL types, for the statements that bind a value or need a typed null.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cadastre::platform::values {

inline constexpr std::array<std::string_view, 5> kColumns = {"texto", "numero", "data", "booleano", "lista"};

/// The SQL type of a typed column (std::logic_error for any other name: a column name
/// only ever comes from field_values::column_of).
inline std::string sql_type(std::string_view column) {
  if (column == "texto") return "text";
  if (column == "numero") return "numeric";
  if (column == "data") return "date";
  if (column == "booleano") return "boolean";
  if (column == "lista") return "jsonb";
  throw std::logic_error("coluna de valor desconhecida: " + std::string(column));
}

}  // namespace cadastre::platform::values
