// Shared by the /dbrest tests: one stack per test binary, tenant "alfa" with a small demo
// city and the demo forms (vistoria_campo on lote, fachada on edificacao), "beta" empty;
// helpers to call the routes and to ask the tenant databases.
#pragma once

#include <postgresql/libpq-fe.h>

#include <vector>

#include "demo/forms.hpp"
#include "support/city.hpp"

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
  static Stack& stack = [] () -> Stack& {
    Stack& s = demo_city(90);
    load_forms(s, "alfa");
    return s;
  }();
  return stack;
}

inline std::unique_ptr<Answer> get(const std::string& path, const std::string& token = city().user("alfa").token) {
  return call(city(), "GET", path, Stack::bearer(token));
}
inline std::unique_ptr<Answer> post(const std::string& body, const std::string& token = city().user("alfa").token) {
  return call(city(), "POST", "/dbrest/tipos/valores/geometrias/", Stack::bearer(token), body);
}

inline std::string db(const std::string& sql, const std::string& slug = "alfa") {
  return query_value(city().tenant_dsn(slug), sql);
}

/// "/dbrest/tipos/valores/<camada>/<formulario>/<limite>/<offset>/"
inline std::string values_path(const std::string& camada, const std::string& formulario, const std::string& limite,
                               const std::string& offset) {
  return "/dbrest/tipos/valores/" + camada + "/" + formulario + "/" + limite + "/" + offset + "/";
}

}  // namespace cadastre::test
