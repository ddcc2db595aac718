// Server behaviour shared by every route: health, errors, CORS, request ids, OpenAPI,
// metrics, limits.
#include <doctest/doctest.h>
#include <simdjson.h>
#include <soci/soci.h>

#include <algorithm>
#include <map>
#include <set>

#include "store/pool.hpp"
#include "support/harness.hpp"

using namespace cadastre;
using test::Stack;

namespace {
std::size_t key_count(simdjson::dom::object o) {
  std::size_t n = 0;
  for (auto field : o) {
    (void)field;
    ++n;
  }
  return n;
}
}  // namespace

TEST_CASE("health probes answer without credentials and startup checks every tenant database") {
  Stack stack;
  auto cli = stack.client();
  for (const char* path : {"/health-check/", "/health-check/liveness/", "/health-check/readiness/", "/health-check"}) {
    auto r = cli.Get(path);
    REQUIRE(r);
    CHECK_MESSAGE(r->status == 200, path);
  }
  auto startup = cli.Get("/health-check/startup/");
  REQUIRE(startup->status == 200);
  simdjson::dom::parser p;
  auto doc = p.parse(startup->body);
  CHECK(std::string_view(doc["identidade"]) == "ok");
  CHECK(std::string_view(doc["municipios"]["alfa"]) == "ok");
  CHECK(std::string_view(doc["municipios"]["beta"]) == "ok");
}

TEST_CASE("unknown paths get 404 rota_nao_encontrada and wrong methods 405 with Allow, in the error shape") {
  Stack stack({"alfa"});
  auto cli = stack.client();
  auto nf = cli.Get("/nao/existe/aqui/de/jeito/nenhum");
  REQUIRE(nf);
  CHECK(nf->status == 404);
  simdjson::dom::parser p;
  auto body = p.parse(nf->body).get_object().value();
  CHECK(key_count(body) == 3);
  CHECK(std::string_view(body["codigo"]) == "rota_nao_encontrada");
  CHECK(std::string_view(body["tipo"]) == "erro");
  CHECK(!std::string_view(body["mensagem"]).empty());

  auto wrong = cli.Delete("/health-check/liveness/");
  REQUIRE(wrong);
  CHECK(wrong->status == 405);
  CHECK(wrong->get_header_value("Allow").find("GET") != std::string::npos);
  simdjson::dom::parser p2;
  CHECK(std::string_view(p2.parse(wrong->body)["codigo"]) == "metodo_nao_permitido");
}

TEST_CASE("X-Request-Id is echoed when plain and generated otherwise") {
  Stack stack({"alfa"});
  auto cli = stack.client();
  auto given = cli.Get("/health-check/", {{"X-Request-Id", "abc-123"}});
  CHECK(given->get_header_value("X-Request-Id") == "abc-123");
  auto generated = cli.Get("/health-check/");
  CHECK(generated->get_header_value("X-Request-Id").size() == 16);
  auto hostile = cli.Get("/health-check/", {{"X-Request-Id", "x\"y"}});
  CHECK(hostile->get_header_value("X-Request-Id") != "x\"y");
}

TEST_CASE("CORS preflight is answered and responses expose ETag and X-Request-Id") {
  Stack stack({"alfa"});
  auto cli = stack.client();
  auto pre = cli.Options("/geo/alfa/usuarios/permissoes/",
                         {{"Origin", "https://mapa.example.org"}, {"Access-Control-Request-Method", "GET"},
                          {"Access-Control-Request-Headers", "authorization"}});
  REQUIRE(pre);
  CHECK(pre->status == 204);
  CHECK(pre->get_header_value("Access-Control-Allow-Origin") == "*");
  auto allow_headers = pre->get_header_value("Access-Control-Allow-Headers");
  for (const char* h : {"Authorization", "Content-Type", "X-Auth-Token", "X-Tn-Token"})
    CHECK_MESSAGE(allow_headers.find(h) != std::string::npos, h);
  CHECK(pre->get_header_value("Access-Control-Allow-Methods").find("GET") != std::string::npos);

  auto get = cli.Get("/health-check/", {{"Origin", "https://mapa.example.org"}});
  CHECK(get->get_header_value("Access-Control-Allow-Origin") == "*");
  auto expose = get->get_header_value("Access-Control-Expose-Headers");
  CHECK(expose.find("ETag") != std::string::npos);
  CHECK(expose.find("X-Request-Id") != std::string::npos);
}

TEST_CASE("a configured CORS origin list allows only those origins") {
  server::AppOptions o;
  o.http.cors_origins = {"https://mapa.prefeitura.sp.gov.br"};
  Stack stack({"alfa"}, o);
  auto cli = stack.client();
  auto ok = cli.Get("/health-check/", {{"Origin", "https://mapa.prefeitura.sp.gov.br"}});
  CHECK(ok->get_header_value("Access-Control-Allow-Origin") == "https://mapa.prefeitura.sp.gov.br");
  auto other = cli.Get("/health-check/", {{"Origin", "https://evil.example"}});
  CHECK(!other->has_header("Access-Control-Allow-Origin"));
}

TEST_CASE("openapi.json lists exactly the routes of the route table, with their permissions") {
  Stack stack({"alfa"});
  auto cli = stack.client();
  auto r = cli.Get("/openapi.json");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  simdjson::dom::parser p;
  auto doc = p.parse(r->body);
  CHECK(std::string_view(doc["openapi"]).substr(0, 2) == "3.");

  // The document's operations: "METHOD path" → x-permissao ("" when absent).
  std::map<std::string, std::string> documented;
  std::size_t operations = 0;
  simdjson::dom::object paths = doc["paths"].get_object().value();
  for (auto [path, item] : paths) {
    simdjson::dom::object operations_of_path = item.get_object().value();
    for (auto [key, op] : operations_of_path) {
      static const std::set<std::string_view> methods = {"get",   "put",  "post",   "delete",
                                                         "patch", "head", "options"};
      if (!methods.count(key)) continue;
      std::string method(key);
      std::transform(method.begin(), method.end(), method.begin(), ::toupper);
      std::string_view permission;
      if (op["x-permissao"].get(permission) != simdjson::SUCCESS) permission = "";
      documented[method + " " + std::string(path)] = std::string(permission);
      ++operations;
    }
  }
  // The route table: the same key, "{rest*}" written "{rest}" as OpenAPI templates it.
  std::map<std::string, std::string> table;
  std::size_t with_permission = 0;
  for (const auto& route : stack.app().server().router().routes()) {
    std::string path = route.pattern;
    for (auto pos = path.find("*}"); pos != std::string::npos; pos = path.find("*}")) path.erase(pos, 1);
    auto [it, added] = table.emplace(route.method + " " + path, route.access.describe());
    CHECK_MESSAGE(added, "two routes document as " << it->first);
    if (!route.access.describe().empty()) ++with_permission;
  }
  CHECK(operations == stack.app().server().router().routes().size());
  for (const auto& [key, permission] : table) {
    INFO(key);
    auto it = documented.find(key);
    CHECK_MESSAGE(it != documented.end(), "route not in /openapi.json");
    if (it != documented.end()) CHECK(it->second == permission);  // "" for a route anyone may call
  }
  for (const auto& [key, permission] : documented)
    CHECK_MESSAGE(table.count(key), "documented, not in the table: " << key);
  CHECK(table.count("GET /openapi.json"));
  MESSAGE(with_permission << " of " << table.size()
                          << " routes require a permission (x-permissao)");
  CHECK(with_permission > 0);  // the permission check above is not vacuous
  CHECK(std::string_view(paths["/geo/{municipio}/usuarios/permissoes/"]["get"]["security"].at(0)["bearer"].type() ==
                                 simdjson::dom::element_type::ARRAY
                             ? "ok"
                             : "no") == "ok");

  auto docs = cli.Get("/docs");
  REQUIRE(docs->status == 200);
  CHECK(docs->get_header_value("Content-Type").find("text/html") == 0);
  CHECK(docs->body.find("/openapi.json") != std::string::npos);
  CHECK(docs->body.find("http://") == std::string::npos);  // no external assets
  CHECK(docs->body.find("https://") == std::string::npos);
}

TEST_CASE("metrics expose request counters and pool gauges") {
  Stack stack({"alfa"});
  auto cli = stack.client();
  cli.Get("/geo/alfa/usuarios/permissoes/", Stack::bearer(stack.user("alfa").token));
  auto m = cli.Get("/metrics");
  REQUIRE(m->status == 200);
  CHECK(m->body.find("cadastre_http_requests_total{method=\"GET\",route=\"/geo/{municipio}/usuarios/permissoes/\",status=\"200\"} 1") !=
        std::string::npos);
  CHECK(m->body.find("cadastre_http_request_duration_seconds_bucket") != std::string::npos);
  CHECK(m->body.find("cadastre_db_pool_in_use{pool=\"alfa\"}") != std::string::npos);
}

TEST_CASE("a body over the payload limit gets 413 in the error shape") {
  server::AppOptions o;
  o.http.payload_max = 1024;
  Stack stack({"alfa"}, o);
  auto cli = stack.client();
  auto r = cli.Post("/health-check/", std::string(4096, 'x'), "application/json");
  REQUIRE(r);
  CHECK(r->status == 413);
  simdjson::dom::parser p;
  CHECK(std::string_view(p.parse(r->body)["codigo"]) == "corpo_muito_grande");
}

TEST_CASE("an exhausted tenant pool answers 503 with Retry-After instead of hanging") {
  server::AppOptions o;
  o.pool.size = 1;
  o.pool.wait = std::chrono::milliseconds(100);
  Stack stack({"alfa"}, o);
  auto cli = stack.client();
  auto tenant = stack.app().identity().tenant("alfa");
  REQUIRE(tenant);
  auto& pool = stack.app().tenants().pool(*tenant);
  {
    auto held = pool.lease();
    auto started = std::chrono::steady_clock::now();
    auto r = cli.Get("/geo/alfa/usuarios/permissoes/", Stack::bearer(stack.user("alfa").token));
    REQUIRE(r);
    CHECK(r->status == 503);
    CHECK(r->get_header_value("Retry-After") == "5");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  }
  CHECK(cli.Get("/geo/alfa/usuarios/permissoes/", Stack::bearer(stack.user("alfa").token))->status == 200);
}
