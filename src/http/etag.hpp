// Conditional GET: whether a request's If-None-Match names the current entity tag.
#pragma once

#include <string_view>
#include <vector>

#include "http/http.hpp"

namespace cadastre::http {

/// Whether If-None-Match names `etag` (or is "*"): weak and strong tags compare equal, as
/// RFC 9110's weak comparison for If-None-Match says. The caller then answers 304.
bool etag_matches(const Request& req, std::string_view etag);

/// The entity tags If-None-Match lists, quoted, without W/ (weak comparison), "*" as is;
/// empty without the header. Views into `req`.
std::vector<std::string_view> etag_list(const Request& req);

}  // namespace cadastre::http
