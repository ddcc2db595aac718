// Shared by the /dominio tests: one stack per test binary, tenant "alfa" with a small demo
// city (so lots reference domain codes) and "beta" empty; the helpers are ServerFixture's.
#pragma once

#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(40); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}

  /// Audit rows of one domain code: "operacao|usuario_email" lines, oldest first.
  std::string audit_of(const std::string& table, const std::string& id) const {
    return db(
        "select coalesce(string_agg(operacao || '|' || usuario_email, ';' order by id), '') from "
        "auditoria.registro where tabela = 'dominio." +
        table + "' and registro_id = '" + id + "'");
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

}  // namespace cadastre::test
