// A record's id named by a path parameter ("/x/{id}"): an integer from 1, else 400
// parametro_invalido naming the parameter. The one reader of path ids of both services.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "cadastre/query.hpp"
#include "http/http.hpp"

namespace cadastre::service {

inline std::int64_t path_id(const http::Request& req, std::string_view name = "id") {
  return query::parse_integer(req.param(name), name, 1, std::numeric_limits<std::int64_t>::max());
}

}  // namespace cadastre::service
