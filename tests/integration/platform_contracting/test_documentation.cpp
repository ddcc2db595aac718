// The contracting and audit routes in /swagger.json, each with components that exist.
#include <string>
#include <vector>

#include "integration/platform/openapi_check.hpp"

using namespace cadastre;
using test::PlatformFixture;

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the contracting and audit routes with resolvable schemas") {
  const std::vector<std::pair<std::string, std::string>> routes = {
      {"get", "/planos"},
      {"post", "/preparar/contratacao/plano"},
      {"post", "/preparar/contratacao/armazenamento"},
      {"post", "/preparar/contratacao/usuario"},
      {"post", "/preparar/contratacao/adicionais"},
      {"post", "/contratar/plano"},
      {"post", "/contratar/armazenamento"},
      {"post", "/contratar/usuario"},
      {"post", "/contratar/adicionais"},
      {"post", "/calculadora/armazenamento/renovacao"},
      {"post", "/calculadora/armazenamento/upgrade"},
      {"post", "/calculadora/armazenamento/adicional"},
      {"get", "/auditoria/geometrias"},
      {"put", "/adm/licencas/{id}"}};
  test::check_documented(*this, routes, true);
}
