// Shared by the /caracterizacao tests: the demo city of the binary (tenant "alfa", "beta"
// empty), helpers to call the routes and to ask the tenant database.
#pragma once

#include <set>
#include <string>

#include "support/city.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(120); }

inline const std::string& alfa_token() { return city().user("alfa").token; }

/// GET /caracterizacao/alfa/<rest> as `token`.
inline std::unique_ptr<Answer> carac(const std::string& rest, const std::string& token = alfa_token()) {
  return call(city(), "GET", "/caracterizacao/alfa/" + rest, Stack::bearer(token));
}

inline std::unique_ptr<Answer> lookups(const std::string& body, const std::string& token = alfa_token()) {
  return call(city(), "POST", "/caracterizacao/alfa/lookups/batch", Stack::bearer(token), body);
}

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

}  // namespace cadastre::test
