#include "server/tiles/input.hpp"

#include <cstdint>
#include <string_view>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server::tiles {

cadastre::tiles::Tile parse_tile(const http::Request& req) {
  const std::string& last = req.param("y");
  if (!last.ends_with(kTileSuffix) || last.size() == kTileSuffix.size())
    throw Error(errc::invalid_argument, "o último segmento deve ser <y>.pbf, por exemplo 37053.pbf", "y");
  cadastre::tiles::Tile t;
  t.z = static_cast<int>(query::parse_integer(req.param("z"), "z", 0, cadastre::tiles::max_zoom));
  const std::int64_t last_index = cadastre::tiles::tiles_per_side(t.z) - 1;
  t.x = static_cast<int>(query::parse_integer(req.param("x"), "x", 0, last_index));
  t.y = static_cast<int>(
      query::parse_integer(std::string_view(last).substr(0, last.size() - kTileSuffix.size()), "y", 0, last_index));
  if (!t.is_valid()) throw Error(errc::invalid_argument, "tile fora da pirâmide XYZ", "z");
  return t;
}

std::string parse_tilejson_layer(const http::Request& req) {
  const std::string& file = req.param("file");
  if (!file.ends_with(kTileJsonSuffix) || file.size() == kTileJsonSuffix.size())
    throw Error(errc::invalid_argument, "use /tiles/{municipio}/{camada}.json para o TileJSON de uma camada", "file");
  return file.substr(0, file.size() - kTileJsonSuffix.size());
}

}  // namespace cadastre::server::tiles
