// /integracao-rest: the request's own input, checked before the external service is
// called (400 first, whatever the state of the service).
#pragma once

#include <string>
#include <string_view>

namespace cadastre::server::integracao {

/// The decoded query path of a wildcard route, re-encoded segment by segment (RFC 3986
/// unreserved characters and a segment's sub-delimiters, ':' and '@' stay). "." and ".."
/// segments (they would climb out of the service's base path), control characters and
/// backslashes → 400 naming query_path.
std::string query_path(const std::string& decoded);

/// The layer of a path: a plain identifier (400 otherwise).
std::string layer_name(const std::string& camada);

/// The {limit} of the pagination route: an integer from 1 to 10000 (400 otherwise).
long long parse_limit(const std::string& limit);

/// A record to insert must be a JSON object or array (400 otherwise).
void check_record(std::string_view body);

/// An update body sent as JSON (declared so, or not declared: it goes on as JSON) is read
/// as every JSON body here is: invalid JSON, a repeated key or a NUL is a 400.
/// `content_type` is null when the request declares none.
void check_update(std::string_view body, const std::string* content_type);

}  // namespace cadastre::server::integracao
