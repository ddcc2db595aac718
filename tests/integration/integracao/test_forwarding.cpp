// /integracao-rest forwards every route of the spec's table to the tenant's external
// service: same path below the base URL, query string exactly as sent, POST with a
// query path as PUT, the service's token instead of the caller's.
#include "fixture.hpp"

using namespace integracao_test;

TEST_CASE_FIXTURE(Fixture,
                  "GET with a query path reaches the tenant's service with path and query string "
                  "exactly as sent") {
  Env& e = env();
  e.alfa_service.on([](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content(R"({"dados":[{"id":7}]})", "application/json");
  });
  auto a =
      call("GET", "/integracao-rest/lote/busca/123?campo=a%20b&x=1&x=2&vazio=", "", e.alfa_token);
  INFO(a->body);
  CHECK(a->status == 200);
  CHECK(a->body == R"({"dados":[{"id":7}]})");
  CHECK(a->content_type.find("application/json") == 0);
  REQUIRE(e.alfa_service.count() == 1);
  auto got = e.alfa_service.last();
  CHECK(got.method == "GET");
  CHECK(got.target == "/api/v1/lote/busca/123?campo=a%20b&x=1&x=2&vazio=");
  // The caller's bearer stays here; the service gets its own.
  CHECK(got.header("Authorization") == std::string("Bearer ") + kTokenDestino);
  CHECK(e.beta_service.count() == 0);

  auto slash = call("GET", "/integracao-rest/imovel/?inscricao=01.02", "", e.alfa_token);
  CHECK(slash->status == 200);
  CHECK(e.alfa_service.last().target == "/api/v1/imovel/?inscricao=01.02");
}

TEST_CASE_FIXTURE(Fixture,
                  "POST /integracao-rest/{camada}/ inserts at the destination with the same body") {
  Env& e = env();
  e.alfa_service.on([](const httplib::Request&, httplib::Response& res) {
    res.status = 201;
    res.set_content(R"({"id":42})", "application/json");
  });
  const std::string body = R"({"inscricao": "01.02.003", "area": 250.5})";
  auto a = call("POST", "/integracao-rest/lote/", body, e.alfa_token);
  CHECK(a->status == 201);
  CHECK(a->body == R"({"id":42})");
  auto got = e.alfa_service.last();
  CHECK(got.method == "POST");
  CHECK(got.target == "/api/v1/lote/");
  CHECK(got.body == body);
  CHECK(got.header("Content-Type").find("application/json") == 0);
}

TEST_CASE_FIXTURE(
    Fixture, "POST with a query path becomes a PUT at the destination, query string included") {
  Env& e = env();
  const std::string body = R"({"area": 300})";
  auto a = call("POST", "/integracao-rest/lote/atualizar?id=7&campo=area&obs=com%20espa%C3%A7o",
                body, e.alfa_token);
  INFO(a->body);
  CHECK(a->status == 200);
  REQUIRE(e.alfa_service.count() == 1);
  auto got = e.alfa_service.last();
  CHECK(got.method == "PUT");
  CHECK(got.target == "/api/v1/lote/atualizar?id=7&campo=area&obs=com%20espa%C3%A7o");
  CHECK(got.body == body);
}

TEST_CASE_FIXTURE(
    Fixture,
    "getall and pagination reach their paths; a limit that is not an integer in range is 400") {
  Env& e = env();
  CHECK(call("GET", "/integracao-rest/lote/getall/", "", e.alfa_token)->status == 200);
  CHECK(e.alfa_service.last().target == "/api/v1/lote/getall/");
  CHECK(e.alfa_service.last().method == "GET");
  CHECK(call("GET", "/integracao-rest/pagination/lote/50/?page=2", "", e.alfa_token)->status ==
        200);
  CHECK(e.alfa_service.last().target == "/api/v1/pagination/lote/50/?page=2");

  e.alfa_service.clear();
  for (const char* limit : {"abc", "5.0", "-1", "0", "10001", "1e3", "99999999999999999999"}) {
    INFO(limit);
    auto a = call("GET", std::string("/integracao-rest/pagination/lote/") + limit + "/", "",
                  e.alfa_token);
    CHECK(a->status == 400);
    CHECK(a->codigo() == "parametro_invalido");
  }
  CHECK(e.alfa_service.count() == 0);
}

TEST_CASE_FIXTURE(
    Fixture, "each tenant's token reaches its own service (base URL with a trailing slash too)") {
  Env& e = env();
  CHECK(call("GET", "/integracao-rest/lote/getall/", "", e.beta_token)->status == 200);
  CHECK(e.alfa_service.count() == 0);
  REQUIRE(e.beta_service.count() == 1);
  CHECK(e.beta_service.last().target == "/beta/lote/getall/");
}

TEST_CASE_FIXTURE(
    Fixture,
    "the service's 4xx answers pass through; 5xx, a dead service and a slow one are 502/502/504") {
  Env& e = env();
  e.alfa_service.on([](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content(R"({"erro":"lote inexistente"})", "application/json");
  });
  auto missing = call("GET", "/integracao-rest/lote/9999", "", e.alfa_token);
  CHECK(missing->status == 404);
  CHECK(missing->body == R"({"erro":"lote inexistente"})");

  e.alfa_service.on([](const httplib::Request&, httplib::Response& res) {
    res.status = 500;
    res.set_content("stack trace do serviço", "text/plain");
  });
  auto broken = call("GET", "/integracao-rest/lote/1", "", e.alfa_token);
  CHECK(broken->status == 502);
  CHECK(broken->codigo() == "falha_no_servico_externo");
  CHECK(broken->text("tipo") == "erro");
  CHECK(broken->body.find("stack trace") == std::string::npos);

  SUBCASE("slow") {
    e.alfa_service.on([](const httplib::Request&, httplib::Response& res) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2500));
      res.set_content("{}", "application/json");
    });
    auto started = std::chrono::steady_clock::now();
    auto slow = call("GET", "/integracao-rest/lote/1", "", e.alfa_token);
    auto elapsed = std::chrono::steady_clock::now() - started;
    CHECK(slow->status == 504);
    CHECK(slow->codigo() == "tempo_esgotado_no_servico_externo");
    CHECK(elapsed < std::chrono::milliseconds(2000));  // the tenant's timeout_ms is 1000
  }
  SUBCASE("down") {
    LoopbackService doomed;
    std::string token = configure(e.stack, "beta", doomed.url());
    doomed.stop();
    auto down = call("GET", "/integracao-rest/lote/1", "", token);
    CHECK(down->status == 502);
    CHECK(down->codigo() == "falha_no_servico_externo");
    e.beta_token = configure(e.stack, "beta", e.beta_service.url() + "/beta/");
  }
}
