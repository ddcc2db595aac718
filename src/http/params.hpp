// The one check of request parameters against the route table, run for every matched
// route before its auth scheme and handler: what a route declares in Route::params is
// what it accepts, the same way on every route.
#pragma once

#include "http/http.hpp"

namespace cadastre::http {

/// Refuses (cadastre::Error, field = the parameter) a request that does not keep to the
/// route's declared query parameters:
///  - a NUL character in any path parameter, query key or query value (PostgreSQL's C
///    strings would cut the value there): errc::invalid_argument;
///  - a query key the route does not declare, unless it declares free-form fields
///    (Param::type "object"): errc::unknown_field;
///  - a declared parameter given twice, an integer, number or boolean that does not
///    parse, a value outside Param::values: errc::invalid_argument.
/// Ranges and the meaning of a missing parameter stay with the handler.
void validate_params(const Route& route, const Request& req);

}  // namespace cadastre::http
