// Shared by the /aplicativo tests: one stack per test binary with a 200-lot demo city in
// tenant "alfa" ("beta" empty); the request and database helpers are ServerFixture's. The
// log tests write to the city; each test restores or works on records of its own.
#pragma once

#include <set>
#include <string>

#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(200); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// The "id" members of a JSON array of objects (features, units, ...).
inline std::set<std::int64_t> ids_of(simdjson::dom::element list) {
  std::set<std::int64_t> out;
  for (auto e : list.get_array()) out.insert(int64_t(e["id"]));
  return out;
}

/// A user of "alfa" with only the given permissions, created once per email.
inline const TestUser& limited_user(const std::string& email, std::vector<std::string> perms) {
  static std::map<std::string, TestUser> users;
  auto it = users.find(email);
  if (it == users.end())
    it = users.emplace(email, city().add_user("alfa", email, std::move(perms))).first;
  return it->second;
}

}  // namespace cadastre::test
