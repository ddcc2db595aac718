// Shared by the /integracao-rest tests: one stack (tenants alfa and beta), an external
// REST service per tenant on loopback, and each tenant's integration token configured
// the way cadastre-admin stores it (only its SHA-256 in the tenant config).
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "loopback_service.hpp"
#include "store/crypto.hpp"
#include "support/server_fixture.hpp"

namespace integracao_test {

using cadastre::test::Stack;
using outbound_test::LoopbackService;

constexpr const char* kTokenDestino = "token-do-servico-externo";

/// Merges `json` into the tenant's config.
inline void merge_config(Stack& stack, const std::string& slug, const std::string& json) {
  REQUIRE(cadastre::test::query_value(stack.platform_dsn(), "update plataforma.tenants set config = config || '" + json +
                                                                "'::jsonb where slug = '" + slug + "' returning 1") ==
          "1");
}

/// Configures the tenant's integration to `url` and returns its new bearer.
inline std::string configure(Stack& stack, const std::string& slug, const std::string& url, int timeout_ms = 1000,
                             const std::string& token_destino = kTokenDestino) {
  std::string token = cadastre::store::random_token();
  merge_config(stack, slug,
               R"({"integracao_rest": {"url": ")" + url + R"(", "token_sha256": ")" +
                   cadastre::store::sha256_hex(token) + R"(", "token_destino": ")" + token_destino +
                   R"(", "timeout_ms": )" + std::to_string(timeout_ms) + "}}");
  return token;
}

struct Env {
  Stack stack{{"alfa", "beta"}};
  LoopbackService alfa_service, beta_service;
  std::string alfa_token = configure(stack, "alfa", alfa_service.url() + "/api/v1");
  std::string beta_token = configure(stack, "beta", beta_service.url() + "/beta/");
};

inline Env& shared_env() {
  static Env e;
  return e;
}

/// The binary's environment, reset: default handlers and empty logs (call it first).
inline Env& env() {
  Env& e = shared_env();
  e.alfa_service.on(nullptr);
  e.beta_service.on(nullptr);
  e.alfa_service.clear();
  e.beta_service.clear();
  return e;
}

/// Requests to the binary's stack; the helpers are ServerFixture's (an empty token sends no
/// Authorization header).
struct Fixture : cadastre::test::ServerFixture {
  Fixture() : ServerFixture(shared_env().stack) {}
};

}  // namespace integracao_test
