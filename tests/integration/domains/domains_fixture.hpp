// Shared by the /dominio tests: one stack per test binary, tenant "alfa" with a small demo
// city (so lots reference domain codes) and "beta" empty; helpers for every method.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include "support/harness.hpp"

namespace cadastre::test {

inline Stack& city() {
  static std::unique_ptr<Stack> stack = [] {
    auto s = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"});
    s->load_demo("alfa", 40);
    return s;
  }();
  return *stack;
}

struct Answer {
  int status = 0;
  std::string body;
  simdjson::dom::parser parser;
  simdjson::dom::element json() {
    simdjson::dom::element e;
    REQUIRE_MESSAGE(parser.parse(body).get(e) == simdjson::SUCCESS, body);
    return e;
  }
  std::string text(const char* key) { return std::string(std::string_view(json()[key])); }
  std::string codigo() { return text("codigo"); }
  std::string mensagem() { return text("mensagem"); }
};

/// One request as `token` (the alfa user, with "*:rw", by default); body only for POST/PUT.
inline std::unique_ptr<Answer> call(const std::string& method, const std::string& path, const std::string& body = "",
                                    const std::string& token = city().user("alfa").token) {
  auto cli = city().client();
  auto headers = Stack::bearer(token);
  httplib::Result r = method == "GET"    ? cli.Get(path, headers)
                      : method == "POST" ? cli.Post(path, headers, body, "application/json")
                      : method == "PUT"  ? cli.Put(path, headers, body, "application/json")
                                         : cli.Delete(path, headers);
  REQUIRE_MESSAGE(r, method << " " << path);
  auto a = std::make_unique<Answer>();
  a->status = r->status;
  a->body = r->body;
  return a;
}

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

/// Audit rows of one domain code: "operacao|usuario_email" lines, oldest first.
inline std::string audit_of(const std::string& table, const std::string& id) {
  return db("select coalesce(string_agg(operacao || '|' || usuario_email, ';' order by id), '') from auditoria.registro "
            "where tabela = 'dominio." + table + "' and registro_id = '" + id + "'");
}

}  // namespace cadastre::test
