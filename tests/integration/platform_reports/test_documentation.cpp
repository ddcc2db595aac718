// The custom map, layer report and municipal report routes in /swagger.json: the thirteen
// rows of routes.tsv are twelve paths (the <city_c>/<city_d> rows share
// /reports/{cidade}/previa), each with components that exist.
#include <string>
#include <vector>

#include "integration/platform/openapi_check.hpp"

using namespace cadastre;
using test::PlatformFixture;

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the map and report routes with resolvable schemas") {
  const std::vector<std::pair<std::string, std::string>> with_schemas = {
      {"get", "/mapas-personalizados"},        {"post", "/mapas-personalizados"},
      {"get", "/mapas-personalizados/{id}"},   {"put", "/mapas-personalizados/{id}"},
      {"get", "/relatorios-de-camada"},        {"post", "/relatorios-de-camada"},
      {"get", "/relatorios-de-camada/{id}"},   {"put", "/relatorios-de-camada/{id}"}};
  test::check_documented(*this, with_schemas, true);
  const std::vector<std::pair<std::string, std::string>> files = {
      {"delete", "/mapas-personalizados/{id}"}, {"delete", "/relatorios-de-camada/{id}"},
      {"post", "/reports/{cidade}/avaliacao"},  {"post", "/reports/{cidade}/previa"}};
  auto doc = test::check_documented(*this, files, false);
  CHECK(doc->body.find("application/pdf") != std::string::npos);
}
