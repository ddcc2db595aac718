// The search, thematic, geography and analysis routes in /swagger.json: the eighteen rows of
// routes.tsv are sixteen paths (the <city_a>/<city_b> rows share /zonas/{cidade} and
// /observacoes/{cidade}), each with components that exist.
#include <set>
#include <string>
#include <vector>

#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;

namespace {

void refs_in(simdjson::dom::element e, std::vector<std::string>& out) {
  if (e.is_object()) {
    for (auto [k, v] : e.get_object()) {
      if (std::string_view(k) == "$ref" && v.is_string()) out.emplace_back(std::string_view(v));
      else refs_in(v, out);
    }
  } else if (e.is_array()) {
    for (auto v : e.get_array()) refs_in(v, out);
  }
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the search and geography routes with resolvable schemas") {
  auto doc = request("GET", "/swagger.json", {});
  REQUIRE(doc->status == 200);
  simdjson::dom::element paths = doc->json()["paths"];
  std::set<std::string> schemas;
  for (auto [k, v] : doc->json()["components"]["schemas"].get_object()) schemas.insert(std::string(k));
  const std::vector<std::pair<std::string, std::string>> routes = {
      {"get", "/consulta-geral"},         {"get", "/consulta-geral/icad"},
      {"get", "/consulta-geral/logradouros"}, {"post", "/mapa-tematico"},
      {"post", "/pesquisa-caracteristicas"}, {"get", "/basemap"},
      {"get", "/referencias-geograficas"}, {"get", "/referencias-geograficas/consulta"},
      {"get", "/municipios/consulta"},    {"get", "/municipios/setores/consulta"},
      {"get", "/cep"},                    {"get", "/analises/intersect"},
      {"get", "/analises/intersect/zonas"}, {"get", "/zonas/{cidade}"},
      {"get", "/observacoes/{cidade}"},   {"get", "/consulta/{cidade}"}};
  for (const auto& [method, path] : routes) {
    CAPTURE(path);
    simdjson::dom::element op;
    REQUIRE_MESSAGE(paths[path][method].get(op) == simdjson::SUCCESS, method << " " << path);
    std::vector<std::string> refs;
    refs_in(op, refs);
    CHECK_MESSAGE(!refs.empty(), "no schema: " << method << " " << path);
    for (const auto& r : refs) {
      REQUIRE(r.rfind("#/components/schemas/", 0) == 0);
      std::string name = r.substr(21);
      CHECK_MESSAGE(schemas.count(name), r);
      std::vector<std::string> inner;
      refs_in(doc->json()["components"]["schemas"][name], inner);
      for (const auto& i : inner) CHECK_MESSAGE(schemas.count(i.substr(21)), name << " → " << i);
    }
  }
}
