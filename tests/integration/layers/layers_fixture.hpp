// Shared by the layer tests: a 300-lot demo city in tenant "alfa" (read-only tests share
// it), helpers to call and parse.
#pragma once

#include "support/city.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(300); }

inline std::unique_ptr<Answer> get(const std::string& path, const std::string& token) {
  return call(city(), "GET", path, Stack::bearer(token));
}
inline std::unique_ptr<Answer> get(const std::string& path) { return get(path, city().user("alfa").token); }

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

}  // namespace cadastre::test
