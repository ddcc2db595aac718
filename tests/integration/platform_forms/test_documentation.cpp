// The forms and fields routes in /swagger.json: all twenty documented, with their bodies and
// answers described by components that exist.
#include <string>
#include <vector>

#include "cast.hpp"
#include "integration/platform/openapi_check.hpp"

using namespace cadastre;
using test::PlatformFixture;

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the twenty form and field routes with resolvable schemas") {
  const std::vector<std::pair<std::string, std::string>> routes = {
      {"get", "/formularios"},          {"post", "/formularios"},
      {"get", "/formularios/{id}"},     {"put", "/formularios/{id}"},
      {"delete", "/formularios/{id}"},  {"get", "/formularios/pode-excluir/{id}"},
      {"post", "/formularios/inativar/{id}"}, {"post", "/formularios/ativar/{id}"},
      {"get", "/formularios/v2"},       {"get", "/formularios/v2/{id}"},
      {"get", "/campos"},               {"post", "/campos"},
      {"get", "/campos/{id}"},          {"put", "/campos/{id}"},
      {"get", "/campos/resumo"},        {"get", "/campos/parse-formly/{camada}"},
      {"get", "/campos/{id}/converter"}, {"get", "/campos/avaliacao/{idTenant}/{idProjeto}"},
      {"get", "/campos/v2"},            {"get", "/campos/v2/{id}"}};
  auto doc = test::check_documented(*this, routes, false);
  simdjson::dom::element paths = doc->json()["paths"];
  // The converter documents its dry-run switch.
  CHECK(simdjson::minify(paths["/campos/{id}/converter"]["get"]["parameters"]).find("confirmar") != std::string::npos);
}
