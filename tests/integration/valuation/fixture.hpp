// Shared by the /equacao tests: one stack per test binary with tenants "alfa" and "beta"
// (default valuation profile) and "gama" (a stored profile: esquina 1.20, R1-N 3000),
// a valuation-scope API client per tenant, and helpers to call the routes (the others are
// ServerFixture's).
#pragma once

#include <doctest/doctest.h>

#include <chrono>

#include "store/api_clients.hpp"
#include "store/crypto.hpp"
#include "support/server_fixture.hpp"

namespace cadastre::test {

struct ValuationStack {
  Stack stack{{"alfa", "beta", "gama"}};
  std::map<std::string, std::string> tokens;  ///< valuation token per tenant

  ValuationStack() {
    query_value(stack.tenant_dsn("gama"),
                "insert into avaliacao.perfil (nome, ativo, configuracao) values ('Lei 123/2025', true, "
                "'{\"situacao\": {\"esquina\": 1.2}, \"cub\": {\"R1-N\": 3000}}') returning id");
    store::ApiClients clients(stack.app().identity().pool(), std::chrono::milliseconds(0));
    for (const char* slug : {"alfa", "beta", "gama"})
      tokens[slug] = clients.add({slug, "Avaliação " + std::string(slug), "avaliacao", "", ""}).secret;
  }
};

inline ValuationStack& vstack() {
  static ValuationStack s;
  return s;
}

inline std::string land_path(const std::string& slug) { return "/equacao/calculo/" + slug + "/terreno/calcularvalor/"; }
inline std::string construction_path(const std::string& slug) {
  return "/equacao/calculo/" + slug + "/construcao/calcularvalor/";
}

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(vstack().stack) {}

  /// POST `body` to `path` as the bearer of `token`.
  std::unique_ptr<Answer> post_as(const std::string& token, const std::string& path,
                                  const std::string& body) const {
    return post(path, body, token);
  }
  /// POST as the valuation client of tenant `slug`.
  std::unique_ptr<Answer> post_as_client(const std::string& slug, const std::string& path,
                                         const std::string& body) const {
    return post_as(vstack().tokens.at(slug), path, body);
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// A number of the answer: a top-level member ("valor") or an intermediate value.
inline double number(Answer& a, const char* key) { return double(a.json()[key]); }
inline double intermediate(Answer& a, const char* name) { return double(a.json()["intermediarios"][name]); }

inline std::string lot_json(double area, double frente, const std::string& extra = "") {
  return "{\"area\": " + std::to_string(area) + ", \"frente\": " + std::to_string(frente) +
         ", \"valor_m2\": 500, \"topografia\": \"plano\", \"pedologia\": \"seco\", \"situacao\": \"meio_quadra\"" + extra +
         "}";
}

}  // namespace cadastre::test
