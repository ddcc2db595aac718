// Shared by the /caracterizacao tests: the demo city of the binary (tenant "alfa", "beta"
// empty), and calls to the routes; the other helpers are ServerFixture's.
#pragma once

#include <set>
#include <string>

#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(120); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}

  /// GET /caracterizacao/alfa/<rest> as `token`.
  std::unique_ptr<Answer> carac(const std::string& rest) const { return carac(rest, token()); }
  std::unique_ptr<Answer> carac(const std::string& rest, const std::string& token) const {
    return get("/caracterizacao/alfa/" + rest, token);
  }
  std::unique_ptr<Answer> lookups(const std::string& body) const { return lookups(body, token()); }
  std::unique_ptr<Answer> lookups(const std::string& body, const std::string& token) const {
    return post("/caracterizacao/alfa/lookups/batch", body, token);
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

}  // namespace cadastre::test
