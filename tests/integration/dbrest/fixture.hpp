// Shared by the /dbrest tests: one stack per test binary, tenant "alfa" with a small demo
// city and the demo forms (vistoria_campo on lote, fachada on edificacao), "beta" empty;
// the route paths; the other helpers are ServerFixture's.
#pragma once

#include <postgresql/libpq-fe.h>

#include <vector>

#include "demo/forms.hpp"
#include "support/server_fixture.hpp"

namespace cadastre::test {

/// Runs the demo-forms loader on tenant `slug` and returns its count.
inline std::int64_t load_forms(Stack& stack, const std::string& slug) {
  PGconn* c = PQconnectdb(stack.tenant_dsn(slug).c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  std::int64_t n = store::load_demo_forms(c);
  PQfinish(c);
  return n;
}

inline Stack& city() {
  static Stack& stack = []() -> Stack& {
    Stack& s = demo_city(90);
    load_forms(s, "alfa");
    return s;
  }();
  return stack;
}

inline constexpr const char* kGeometriesPath = "/dbrest/tipos/valores/geometrias/";

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}
  /// POST /dbrest/tipos/valores/geometrias/.
  std::unique_ptr<Answer> post_geometries(const std::string& body) const {
    return post(kGeometriesPath, body);
  }
  std::unique_ptr<Answer> post_geometries(const std::string& body, const std::string& token) const {
    return post(kGeometriesPath, body, token);
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// "/dbrest/tipos/valores/<camada>/<formulario>/<limite>/<offset>/"
inline std::string values_path(const std::string& camada, const std::string& formulario,
                               const std::string& limite, const std::string& offset) {
  return "/dbrest/tipos/valores/" + camada + "/" + formulario + "/" + limite + "/" + offset + "/";
}

}  // namespace cadastre::test
