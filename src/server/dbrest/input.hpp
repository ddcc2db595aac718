// The body of POST /dbrest/tipos/valores/geometrias/ → GeometryQuery.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::server::dbrest {

/// Most geometry ids one POST may ask about.
inline constexpr std::size_t kMaxGeometryIds = 1000;

/// Body of POST tipos/valores/geometrias/:
/// {"geometrias": [ids...] (1..1000 positive integers), "camada": "lote" (optional)}.
struct GeometryQuery {
  std::vector<std::int64_t> ids;       ///< unique, in the order first given
  std::optional<std::string> camada;   ///< only forms of this layer (still to be checked)
};

/// Parses and validates the body; unknown members, non-integer or non-positive ids, an
/// empty or too long list → Error 400 naming the member.
GeometryQuery parse_geometry_query(std::string_view body);

}  // namespace cadastre::server::dbrest
