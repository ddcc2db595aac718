// The search, thematic, geography and analysis routes in /swagger.json: the eighteen rows of
// routes.tsv are sixteen paths (the <city_a>/<city_b> rows share /zonas/{cidade} and
// /observacoes/{cidade}), each with components that exist.
#include <string>
#include <vector>

#include "integration/platform/openapi_check.hpp"
#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the search and geography routes with resolvable schemas") {
  const std::vector<std::pair<std::string, std::string>> routes = {
      {"get", "/consulta-geral"},         {"get", "/consulta-geral/icad"},
      {"get", "/consulta-geral/logradouros"}, {"post", "/mapa-tematico"},
      {"post", "/pesquisa-caracteristicas"}, {"get", "/basemap"},
      {"get", "/referencias-geograficas"}, {"get", "/referencias-geograficas/consulta"},
      {"get", "/municipios/consulta"},    {"get", "/municipios/setores/consulta"},
      {"get", "/cep"},                    {"get", "/analises/intersect"},
      {"get", "/analises/intersect/zonas"}, {"get", "/zonas/{cidade}"},
      {"get", "/observacoes/{cidade}"},   {"get", "/consulta/{cidade}"}};
  test::check_documented(*this, routes, true);
}
