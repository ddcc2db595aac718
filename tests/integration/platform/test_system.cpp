// The platform's system routes: health probes, version, smoke tests, preflight, the OpenAPI
// document and the interactive docs.
#include <regex>
#include <set>
#include <vector>

#include "fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;

namespace {

// Every "$ref" under `e`, anywhere.
void collect_refs(simdjson::dom::element e, std::vector<std::string>& out) {
  if (e.is_object()) {
    for (auto [k, v] : e.get_object()) {
      if (k == "$ref" && v.is_string()) out.emplace_back(std::string_view(v));
      else collect_refs(v, out);
    }
  } else if (e.is_array()) {
    for (auto v : e.get_array()) collect_refs(v, out);
  }
}

// The structural rules of OpenAPI 3.0 a generator can break: unique operationIds,
// responses with descriptions and a success status, parameters with a valid `in`, path
// parameters required and matching the template, media types in content maps, security
// requirements naming declared schemes, and every $ref resolving.
void check_openapi_structure(simdjson::dom::element doc) {
  std::set<std::string> schemes, schemas, operation_ids;
  for (auto [k, v] : doc["components"]["securitySchemes"].get_object()) schemes.insert(std::string(k));
  for (auto [k, v] : doc["components"]["schemas"].get_object()) schemas.insert(std::string(k));
  for (auto [path, item] : doc["paths"].get_object()) {
    std::string p(path);
    CHECK_MESSAGE(p.front() == '/', p);
    std::set<std::string> templated;
    for (std::size_t i = p.find('{'); i != std::string::npos; i = p.find('{', i + 1))
      templated.insert(p.substr(i + 1, p.find('}', i) - i - 1));
    for (auto [method, op] : item.get_object()) {
      std::string where = std::string(method) + " " + p;
      CHECK_MESSAGE(operation_ids.insert(std::string(std::string_view(op["operationId"]))).second, where);
      std::set<std::string> declared;
      for (auto param : op["parameters"].get_array()) {
        std::string in{std::string_view(param["in"])};
        CHECK_MESSAGE((in == "query" || in == "header" || in == "path" || in == "cookie"), where);
        CHECK_MESSAGE(!std::string_view(param["name"]).empty(), where);
        if (in == "path") {
          CHECK_MESSAGE(bool(param["required"]), where);
          declared.insert(std::string(std::string_view(param["name"])));
        }
      }
      CHECK_MESSAGE(declared == templated, where);
      bool success = false;
      for (auto [status, response] : op["responses"].get_object()) {
        std::string code(status);
        success = success || code[0] == '2' || code == "101";
        CHECK_MESSAGE(response["description"].is_string(), where << " " << code);
        simdjson::dom::object content;
        if (response["content"].get_object().get(content) == simdjson::SUCCESS)
          for (auto [type, media] : content) CHECK_MESSAGE(std::string_view(type).find('/') != std::string_view::npos, where);
      }
      CHECK_MESSAGE(success, where);
      simdjson::dom::object body;
      if (op["requestBody"].get_object().get(body) == simdjson::SUCCESS)
        CHECK_MESSAGE(body["content"].get_object().size() > 0, where);
      for (auto requirement : op["security"].get_array())
        for (auto [name, scopes] : requirement.get_object()) CHECK_MESSAGE(schemes.count(std::string(name)), where);
    }
  }
  std::vector<std::string> refs;
  collect_refs(doc, refs);
  CHECK(!refs.empty());
  for (const auto& r : refs) {
    REQUIRE_MESSAGE(r.rfind("#/components/schemas/", 0) == 0, r);
    CHECK_MESSAGE(schemas.count(r.substr(21)), "unresolved " << r);
  }
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "the health probes see the platform database and every tenant's") {
  CHECK(request("GET", "/health-check", {})->status == 200);
  CHECK(request("GET", "/health-check/liveness", {})->status == 200);
  CHECK(request("GET", "/health-check/readiness", {})->status == 200);
  auto startup = request("GET", "/health-check/startup", {});
  CHECK(startup->status == 200);
  CHECK(startup->text("plataforma") == "ok");
  CHECK(std::string_view(startup->json()["municipios"]["alfa"]) == "ok");
  CHECK(std::string_view(startup->json()["municipios"]["beta"]) == "ok");
  auto metrics = request("GET", "/metrics", {});
  CHECK(metrics->status == 200);
  CHECK(metrics->body.find("cadastre_db_pool_in_use{pool=\"plataforma\"}") != std::string::npos);
  CHECK(metrics->body.find("cadastre_platform_") != std::string::npos);
}

TEST_CASE_FIXTURE(PlatformFixture, "versao reports the version, the build and the platform migration level") {
  auto v = request("GET", "/versao", {});
  CHECK(v->status == 200);
  CHECK(v->text("versao") == "0.1.0");
  CHECK(v->text("build") == "dev");
  CHECK(v->text("migracao") == platform_db("select max(version) from public.cadastre_migrations where set_name = 'platform'"));
  CHECK(v->text("migracao") >= "0003_sessoes_contas");
}

TEST_CASE_FIXTURE(PlatformFixture, "teste answers anyone; teste/geom and teste/tenant need a session") {
  CHECK(request("GET", "/teste", {})->status == 200);
  CHECK(request("GET", "/teste/geom", {})->status == 401);
  CHECK(request("GET", "/teste/tenant", {})->codigo() == "nao_autenticado");
  auto s = user("beta");
  auto geom = get("/teste/geom", s);
  REQUIRE_MESSAGE(geom->status == 200, geom->body);
  CHECK(bool(geom->json()["concordam"]));
  CHECK(double(geom->json()["geos"]["area_m2"]) == doctest::Approx(1.0e4).epsilon(0.01));
  CHECK(double(geom->json()["postgis"]["area_m2"]) == doctest::Approx(double(geom->json()["geos"]["area_m2"])));
  auto tenant = get("/teste/tenant", s);
  CHECK(tenant->text("slug") == "beta");
  CHECK(tenant->text("tnToken") == s.tn);
}

TEST_CASE_FIXTURE(PlatformFixture, "the preflight paths answer CORS before login") {
  for (const char* path : {"/", "/autenticar"}) {
    auto a = request("OPTIONS", path, {{"Origin", "https://mapa.exemplo.gov.br"},
                                       {"Access-Control-Request-Method", "POST"}});
    CHECK_MESSAGE(a->status == 204, path);
    CHECK(a->header("Access-Control-Allow-Origin") == "*");
    CHECK(a->header("Access-Control-Allow-Headers").find("X-Auth-Token") != std::string::npos);
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json is OpenAPI 3 and lists every route of the platform service") {
  auto doc = request("GET", "/swagger.json", {});
  REQUIRE(doc->status == 200);
  CHECK(doc->text("openapi").rfind("3.", 0) == 0);
  std::set<std::string> documented;
  for (auto [path, item] : doc->json()["paths"].get_object())
    for (auto [method, op] : item.get_object()) documented.insert(std::string(method) + " " + std::string(path));
  for (const auto& r : app->server().router().routes()) {
    std::string path = std::regex_replace(r.pattern, std::regex(R"(\*\})"), "}");  // {endpoint*} → {endpoint}
    CHECK_MESSAGE(documented.count(http::lower_ascii(r.method) + " " + path), r.method << " " << r.pattern);
  }
  CHECK(documented.count("post /login"));
  CHECK(documented.count("get /socket"));
  CHECK(documented.count("options /autenticar"));
  check_openapi_structure(doc->json());
  // The login's request and answer are described field by field.
  auto login = doc->json()["paths"]["/login"]["post"];
  CHECK(std::string_view(login["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]) ==
        "#/components/schemas/RespostaLogin");
  CHECK(doc->json()["components"]["schemas"]["RespostaLogin"]["required"].get_array().size() == 7);
  CHECK(request("GET", "/docs", {})->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture, "errors come in the shared shape with a request id") {
  auto a = request("GET", "/nao-existe", {});
  CHECK(a->status == 404);
  CHECK(a->text("tipo") == "erro");
  CHECK(a->codigo() == "rota_nao_encontrada");
  CHECK_FALSE(a->header("X-Request-Id").empty());
}
