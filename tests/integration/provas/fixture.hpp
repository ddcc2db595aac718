// Shared by the /cad/provas-digitais tests: one stack per test binary with demo cities in
// "alfa" (20 lots) and "beta" (10 lots; the same numero_cadastro values exist in both),
// a Basic credential of scope provas_digitais per tenant, and helpers (the request and
// database helpers are ServerFixture's).
#pragma once

#include <doctest/doctest.h>

#include <cctype>
#include <chrono>

#include "store/api_clients.hpp"
#include "store/crypto.hpp"
#include "support/server_fixture.hpp"
#include "support/url.hpp"

namespace cadastre::test {

/// The server's options for these suites: they refuse credentials on purpose, all from one
/// address, so the throttle of password checks is set out of their way (its own test sets it).
inline server::AppOptions failures_allowed() {
  server::AppOptions o;
  o.secret_checks.pair_failures = o.secret_checks.address_failures = o.secret_checks.account_failures = 100000;
  return o;
}

struct ProvasStack {
  Stack stack{{"alfa", "beta"}, failures_allowed()};
  std::map<std::string, std::pair<std::string, std::string>> basic;  ///< tenant → (user, password)

  ProvasStack() {
    stack.load_demo("alfa", 20);
    stack.load_demo("beta", 10, 2);
    store::ApiClients clients(stack.app().identity().pool(), std::chrono::milliseconds(0));
    basic["alfa"] = {"integra-alfa", clients.add({"alfa", "Integração A", "provas_digitais", "integra-alfa", ""}).secret};
    basic["beta"] = {"integra-beta",
                     clients.add({"beta", "Integração B", "provas_digitais", "integra-beta", "senha-da-beta-123"}).secret};
  }
};

inline ProvasStack& pstack() {
  static ProvasStack s;
  return s;
}

inline httplib::Headers basic_auth(const std::string& user, const std::string& password) {
  return {{"Authorization", "Basic " + store::base64_encode(user + ":" + password)}};
}
inline httplib::Headers basic_of(const std::string& slug) {
  const auto& [user, password] = pstack().basic.at(slug);
  return basic_auth(user, password);
}

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(pstack().stack) {}

  /// A request as the Basic client of `slug` (alfa by default).
  std::unique_ptr<Answer> req(const std::string& method, const std::string& path,
                              const std::string& body = "",
                              const std::string& slug = "alfa") const {
    return request(method, path, basic_of(slug), body);
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// A unit of the demo city (n-th by id).
inline std::string numero(int n = 0, const std::string& slug = "alfa") {
  return fixture().db("select numero_cadastro from cadastro.imobiliario order by id offset " +
                          std::to_string(n) + " limit 1",
                      slug);
}

inline std::string proof_json(const std::string& numero_cadastro, const std::string& tipo = "foto_fachada",
                              const std::string& sha = std::string(64, 'a')) {
  return R"({"numero_cadastro": ")" + numero_cadastro + R"(", "tipo": ")" + tipo +
         R"(", "descricao": "Fachada vista da rua", "arquivo_url": "https://arquivos.exemplo/f.jpg", "sha256": ")" + sha +
         R"(", "data": "2026-01-15"})";
}

}  // namespace cadastre::test
