// What the proxy routes take from a request.
#pragma once

#include <string>

#include "http/http.hpp"

namespace cadastre::platform::proxy {

/// The raw (still encoded) path and query after the route's first segment:
/// "/app-backend/a%20b/c?x=1" → "/a%20b/c?x=1". A "." or ".." segment (encoded or not) → 400:
/// it could climb out of the destination's base path.
std::string forwarded_target(const http::Request& req);

/// The `url` query field (400 when absent).
std::string target_url(const http::Request& req);

}  // namespace cadastre::platform::proxy
