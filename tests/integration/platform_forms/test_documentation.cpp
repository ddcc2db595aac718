// The forms and fields routes in /swagger.json: all twenty documented, with their bodies and
// answers described by components that exist.
#include <set>
#include <string>
#include <vector>

#include "cast.hpp"

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

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the twenty form and field routes with resolvable schemas") {
  auto doc = request("GET", "/swagger.json", {});
  REQUIRE(doc->status == 200);
  simdjson::dom::element paths = doc->json()["paths"];
  std::set<std::string> schemas;
  for (auto [k, v] : doc->json()["components"]["schemas"].get_object()) schemas.insert(std::string(k));
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
  for (const auto& [method, path] : routes) {
    CAPTURE(path);
    simdjson::dom::element op;
    REQUIRE_MESSAGE(paths[path][method].get(op) == simdjson::SUCCESS, method << " " << path);
    std::vector<std::string> refs;
    refs_in(op, refs);
    for (const auto& r : refs) {
      REQUIRE(r.rfind("#/components/schemas/", 0) == 0);
      std::string name = r.substr(21);
      CHECK_MESSAGE(schemas.count(name), r);
      // The component's own references resolve too.
      std::vector<std::string> inner;
      refs_in(doc->json()["components"]["schemas"][name], inner);
      for (const auto& i : inner) CHECK_MESSAGE(schemas.count(i.substr(21)), name << " → " << i);
    }
  }
  // The converter documents its dry-run switch.
  CHECK(simdjson::minify(paths["/campos/{id}/converter"]["get"]["parameters"]).find("confirmar") != std::string::npos);
}
