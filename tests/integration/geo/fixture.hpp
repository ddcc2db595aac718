// Shared by the /geo tests: one stack per test binary with a 300-lot demo city in tenant
// "alfa" (every test only reads it); the helpers are ServerFixture's.
#pragma once

#include <cmath>
#include <map>
#include <set>

#include "support/server_fixture.hpp"
#include "support/url.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(300); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// Feature id → properties of a FeatureCollection's features.
inline std::map<std::int64_t, simdjson::dom::element> by_id(simdjson::dom::element collection) {
  std::map<std::int64_t, simdjson::dom::element> out;
  for (auto f : collection["features"].get_array()) out[int64_t(f["id"])] = f["properties"];
  return out;
}

}  // namespace cadastre::test
