// Shared by the /dominio tests: one stack per test binary, tenant "alfa" with a small demo
// city (so lots reference domain codes) and "beta" empty; helpers for every method.
#pragma once

#include "support/city.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(40); }

/// One request as `token` (the alfa user, with "*:rw", by default); body only for POST/PUT.
inline std::unique_ptr<Answer> call(const std::string& method, const std::string& path, const std::string& body = "",
                                    const std::string& token = city().user("alfa").token) {
  return call(city(), method, path, Stack::bearer(token), body);
}

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

/// Audit rows of one domain code: "operacao|usuario_email" lines, oldest first.
inline std::string audit_of(const std::string& table, const std::string& id) {
  return db("select coalesce(string_agg(operacao || '|' || usuario_email, ';' order by id), '') from auditoria.registro "
            "where tabela = 'dominio." + table + "' and registro_id = '" + id + "'");
}

}  // namespace cadastre::test
