// Shared by the layer tests: a 300-lot demo city in tenant "alfa" (read-only tests share
// it); the helpers are ServerFixture's.
#pragma once

#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(300); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}
};

}  // namespace cadastre::test
