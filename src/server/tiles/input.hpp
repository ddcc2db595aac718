// Path segments of the tile routes → values.
#pragma once

#include <string>

#include "cadastre/tiles.hpp"
#include "http/http.hpp"

namespace cadastre::server::tiles {

inline constexpr std::string_view kTileSuffix = ".pbf";
inline constexpr std::string_view kTileJsonSuffix = ".json";

/// z, x and "<y>.pbf" of the path, checked against the tile pyramid (400 naming the part).
cadastre::tiles::Tile parse_tile(const http::Request& req);

/// The layer of the {file} segment "<camada>.json" (400 for another shape).
std::string parse_tilejson_layer(const http::Request& req);

}  // namespace cadastre::server::tiles
