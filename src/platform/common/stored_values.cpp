#include "platform/common/stored_values.hpp"

namespace cadastre::platform::common {

std::optional<field_values::Typed> stored_value(const store::Row& r, std::size_t first) {
  static const char* const kColumns[] = {"texto", "numero", "data", "booleano", "lista"};
  for (std::size_t i = 0; i < 5; ++i)
    if (r.at(first + i)) return field_values::Typed{kColumns[i], r[first + i]};
  return std::nullopt;
}

}  // namespace cadastre::platform::common
