#include "platform/tiles/input.hpp"

#include <string_view>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::platform::tiles {

cadastre::tiles::Tile parse_tile(const http::Request& req) {
  std::string_view y = req.param("y");
  for (std::string_view suffix : {".pbf", ".mvt"})
    if (y.size() > suffix.size() && y.ends_with(suffix)) y.remove_suffix(suffix.size());
  cadastre::tiles::Tile t;
  t.z = static_cast<int>(query::parse_integer(req.param("z"), "z", 0, cadastre::tiles::max_zoom));
  const std::int64_t last = cadastre::tiles::tiles_per_side(t.z) - 1;
  t.x = static_cast<int>(query::parse_integer(req.param("x"), "x", 0, last));
  t.y = static_cast<int>(query::parse_integer(y, "y", 0, last));
  if (!t.is_valid()) throw Error(errc::invalid_argument, "tile fora da pirâmide XYZ", "z");
  return t;
}


}  // namespace cadastre::platform::tiles
