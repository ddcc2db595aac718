// Path segments and headers of the platform's tile routes → values.
#pragma once

#include <cstdint>
#include <string>

#include "cadastre/tiles.hpp"
#include "http/http.hpp"

namespace cadastre::platform::tiles {

/// z, x and y of the path, checked against the XYZ pyramid with the library's tile math
/// (400 naming the part). y may end with ".pbf" or ".mvt" (clients that want a file name).
cadastre::tiles::Tile parse_tile(const http::Request& req);

/// A positive id of a path segment (400 naming it otherwise).
std::int64_t path_id(const http::Request& req, const char* name);

}  // namespace cadastre::platform::tiles
