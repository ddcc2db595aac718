// Path segments and headers of the platform's tile routes → values.
#pragma once

#include <cstdint>
#include <string>

#include "cadastre/tiles.hpp"
#include "http/http.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::tiles {

/// z, x and y of the path, checked against the XYZ pyramid with the library's tile math
/// (400 naming the part). y may end with ".pbf" or ".mvt" (clients that want a file name).
cadastre::tiles::Tile parse_tile(const http::Request& req);

using service::path_id;  // the path parameter named: service/ids.hpp

}  // namespace cadastre::platform::tiles
