// Header rules the gateway applies to what destinations return.
//
//   tiles      every response of a tile route is marked not cacheable
//              (Cache-Control: no-cache, no-store, must-revalidate; Pragma: no-cache;
//              Expires: 0), and a successful ".pbf" tile is typed
//              application/vnd.mapbox-vector-tile whatever the tile server said.
//   providers  external provider responses carry Access-Control-Allow-Origin: *; when the
//              call asked for an image with FORMAT and the provider sent no specific type,
//              the requested type is used. Bodies are passed on byte for byte.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "http/http.hpp"

namespace cadastre::gateway {

inline constexpr const char* kMvtContentType = "application/vnd.mapbox-vector-tile";

/// True when a path names a Mapbox vector tile (ends in ".pbf", any case).
bool is_pbf_path(std::string_view path) noexcept;

void apply_tile_rules(http::Response& r, bool pbf);

/// The FORMAT (any case) query value when it names an image or a vector tile type.
std::optional<std::string> image_format(const http::Request& req);

void apply_provider_rules(http::Response& r, const http::Request& req);

}  // namespace cadastre::gateway
