// The platform's system routes: health probes, version, smoke tests, preflight, the OpenAPI
// document and the interactive docs.
#include <set>

#include "fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;

TEST_CASE_FIXTURE(PlatformFixture, "the health probes see the platform database and every tenant's") {
  CHECK(request("GET", "/health-check", {})->status == 200);
  CHECK(request("GET", "/health-check/liveness", {})->status == 200);
  CHECK(request("GET", "/health-check/readiness", {})->status == 200);
  auto startup = request("GET", "/health-check/startup", {});
  CHECK(startup->status == 200);
  CHECK(startup->text("plataforma") == "ok");
  CHECK(std::string_view(startup->json()["municipios"]["alfa"]) == "ok");
  CHECK(std::string_view(startup->json()["municipios"]["beta"]) == "ok");
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
  CHECK(request("GET", "/docs", {})->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture, "errors come in the shared shape with a request id") {
  auto a = request("GET", "/nao-existe", {});
  CHECK(a->status == 404);
  CHECK(a->text("tipo") == "erro");
  CHECK(a->codigo() == "rota_nao_encontrada");
  CHECK_FALSE(a->header("X-Request-Id").empty());
}
