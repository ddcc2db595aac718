// The tenant-specific bearer of /integracao-rest (right, wrong, missing, a session token
// of the main scheme) and the input checks made before anything is forwarded.
#include <cstdio>
#include <memory>

#include "fixture.hpp"

using namespace integracao_test;

TEST_CASE_FIXTURE(Fixture,
                  "every /integracao-rest route refuses a missing or wrong bearer and a "
                  "main-scheme session token") {
  Env& e = env();
  const std::string session = e.stack.user("alfa").token;  // valid for the main scheme
  struct Route {
    const char* method;
    const char* path;
  };
  for (const auto& r : {Route{"GET", "/integracao-rest/lote/busca/1"}, Route{"POST", "/integracao-rest/lote/"},
                        Route{"GET", "/integracao-rest/lote/getall/"}, Route{"POST", "/integracao-rest/lote/atualizar?id=1"},
                        Route{"GET", "/integracao-rest/pagination/lote/10/"}}) {
    for (const std::string& token : {std::string(), std::string(64, 'a'), std::string("curto"), session}) {
      INFO(r.method << " " << r.path << " token=" << token);
      auto a = call(r.method, r.path, "{}", token);
      CHECK(a->status == 401);
      CHECK(a->codigo() == "nao_autenticado");
      CHECK(a->header("WWW-Authenticate") == "Bearer");
    }
    CHECK(call(r.method, r.path, "{}", e.alfa_token)->status == 200);
  }
  CHECK(e.beta_service.count() == 0);
  CHECK(e.alfa_service.count() == 5);
}

TEST_CASE_FIXTURE(Fixture, "an integration token is not a session token of the main scheme") {
  Env& e = env();
  auto a = call("GET", "/geo/alfa/usuarios/permissoes/", "", e.alfa_token);
  CHECK(a->status == 401);
}

TEST_CASE_FIXTURE(Fixture, "a deactivated tenant's integration token stops working") {
  Env& e = env();
  LoopbackService service;
  Stack& stack = e.stack;
  // A third tenant is not needed: a token whose tenant row is inactive is never matched.
  std::string token = configure(stack, "beta", service.url());
  REQUIRE(
      platform_db("update plataforma.tenants set ativo = false where slug = 'beta' returning 1") ==
      "1");
  CHECK(call("GET", "/integracao-rest/lote/1", "", token)->status == 401);
  REQUIRE(platform_db(
              "update plataforma.tenants set ativo = true where slug = 'beta' returning 1") == "1");
  CHECK(call("GET", "/integracao-rest/lote/1", "", token)->status == 200);
  CHECK(service.count() == 1);
  e.beta_token = configure(stack, "beta", e.beta_service.url() + "/beta/");
}

TEST_CASE_FIXTURE(
    Fixture,
    "path traversal, hostile layer names and non-JSON records are refused before forwarding") {
  Env& e = env();
  for (const char* path : {"/integracao-rest/lote/%2e%2e/%2e%2e/admin", "/integracao-rest/%2E%2E/segredo",
                           "/integracao-rest/lote/./x", "/integracao-rest/lote/%2e%2e%2fadmin", "/integracao-rest/a%5cb/c",
                           "/integracao-rest/a%00b/c"}) {
    INFO(path);
    auto a = call("GET", path, "", e.alfa_token);
    CHECK(a->status == 400);
  }
  auto put = call("POST", "/integracao-rest/lote/%2e%2e/x?id=1", "{}", e.alfa_token);
  CHECK(put->status == 400);

  auto hostile = call("POST", "/integracao-rest/lote%3Bdrop/", "{}", e.alfa_token);
  CHECK(hostile->status == 400);
  CHECK(hostile->codigo() == "identificador_invalido");
  CHECK(call("GET", "/integracao-rest/lo-te/getall/", "", e.alfa_token)->status == 400);
  CHECK(call("GET", "/integracao-rest/pagination/x%27y/10/", "", e.alfa_token)->status == 400);
  auto not_json = call("POST", "/integracao-rest/lote/", "inscricao=1", e.alfa_token);
  CHECK(not_json->status == 400);
  CHECK(not_json->codigo() == "json_invalido");
  CHECK(call("POST", "/integracao-rest/lote/", "42", e.alfa_token)->status == 400);
  CHECK(e.alfa_service.count() == 0);
}

TEST_CASE_FIXTURE(Fixture,
                  "a tenant whose integration is misconfigured still gets 400 for bad input, 503 "
                  "only for good input") {
  Env& e = env();
  const std::string token = configure(e.stack, "beta", "nao-e-uma-url");
  auto post = [&](const std::string& path, const std::string& body) {
    return call("POST", path, body, token);
  };
  auto not_json = post("/integracao-rest/lote/", "{");
  CHECK(not_json->status == 400);
  CHECK(not_json->codigo() == "json_invalido");
  CHECK(post("/integracao-rest/lote/", R"({"id": 1, "id": 2})")->status == 400);
  CHECK(post("/integracao-rest/lote%3Bdrop/", "{}")->status == 400);
  CHECK(post("/integracao-rest/lote/atualizar?id=1", R"({"area": 1, "area": 2})")->status == 400);
  CHECK(call("GET", "/integracao-rest/lote/%2e%2e/x", "", token)->status == 400);
  auto good = post("/integracao-rest/lote/", R"({"id": 1})");
  CHECK(good->status == 503);
  CHECK(good->codigo() == "servico_indisponivel");
  CHECK(e.beta_service.count() == 0);
  e.beta_token = configure(e.stack, "beta", e.beta_service.url() + "/beta/");  // as the other tests expect it
}

#ifdef CADASTRE_ADMIN_BIN
TEST_CASE_FIXTURE(
    Fixture, "cadastre-admin tenant integracao issues a token that reaches the configured URL") {
  Env& e = env();
  LoopbackService service;
  std::string cmd = std::string(CADASTRE_ADMIN_BIN) + " --platform-dsn '" + e.stack.platform_dsn() +
                    "' tenant integracao --tenant alfa --url " + service.url() + "/externo 2>&1";
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(cmd.c_str(), "r"), &pclose);
  REQUIRE(pipe);
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof buf, pipe.get())) out += buf;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  INFO(out);
  REQUIRE(out.size() == 64);
  // Only the hash is stored; the service's own token set earlier stays.
  CHECK(platform_db("select (config->'integracao_rest'->>'token_sha256' = encode(sha256('" + out +
                    "'::bytea), 'hex'))::text || '|' || (config->'integracao_rest'->>'url') || '|' "
                    "|| (config->'integracao_rest'->>'token_destino') from plataforma.tenants "
                    "where slug = 'alfa'") ==
        "true|" + service.url() + "/externo|" + kTokenDestino);
  CHECK(call("GET", "/integracao-rest/lote/getall/", "", out)->status == 200);
  CHECK(service.last().target == "/externo/lote/getall/");

  std::string unknown = std::string(CADASTRE_ADMIN_BIN) + " --platform-dsn '" + e.stack.platform_dsn() +
                        "' tenant integracao --tenant gama --url http://127.0.0.1:1 >/dev/null 2>&1";
  CHECK(std::system(unknown.c_str()) != 0);
  e.alfa_token = configure(e.stack, "alfa", e.alfa_service.url() + "/api/v1");
}
#endif

TEST_CASE_FIXTURE(Fixture,
                  "the contract documents the integration routes under their own bearer scheme, "
                  "and login and tracker") {
  Env& e = env();
  auto a = call("GET", "/openapi.json", "", "");
  REQUIRE(a->status == 200);
  auto doc = a->json();
  CHECK(std::string_view(doc["components"]["securitySchemes"]["integracao"]["scheme"]) == "bearer");
  for (const char* path : {"/integracao-rest/{query_path}", "/integracao-rest/{camada}/",
                           "/integracao-rest/{camada}/getall/", "/integracao-rest/pagination/{camada}/{limit}/",
                           "/ldap/login/", "/aplicativo/criar-issue-externo"}) {
    INFO(path);
    simdjson::dom::element item;
    CHECK(doc["paths"][path].get(item) == simdjson::SUCCESS);
  }
  CHECK(e.alfa_service.count() == 0);
}
