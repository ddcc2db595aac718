// A check the platform suites share: the given routes are in /swagger.json, and every
// schema they reference (and every schema those reference) is a component that exists.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

/// The "$ref" strings anywhere under `e`.
inline void refs_in(simdjson::dom::element e, std::vector<std::string>& out) {
  if (e.is_object()) {
    for (auto [k, v] : e.get_object()) {
      if (std::string_view(k) == "$ref" && v.is_string()) out.emplace_back(std::string_view(v));
      else refs_in(v, out);
    }
  } else if (e.is_array()) {
    for (auto v : e.get_array()) refs_in(v, out);
  }
}

/// Checks each (method, path) of `routes` in the served document; with `need_schema`, each
/// must reference at least one schema. Answers the document for further checks.
inline std::unique_ptr<Answer> check_documented(const PlatformFixture& f,
                                                const std::vector<std::pair<std::string, std::string>>& routes,
                                                bool need_schema) {
  auto doc = f.request("GET", "/swagger.json", {});
  REQUIRE(doc->status == 200);
  simdjson::dom::element paths = doc->json()["paths"];
  simdjson::dom::element components = doc->json()["components"]["schemas"];
  std::set<std::string> schemas;
  for (auto [k, v] : components.get_object()) schemas.insert(std::string(k));
  for (const auto& [method, path] : routes) {
    CAPTURE(path);
    simdjson::dom::element op;
    REQUIRE_MESSAGE(paths[path][method].get(op) == simdjson::SUCCESS, method << " " << path);
    std::vector<std::string> refs;
    refs_in(op, refs);
    if (need_schema) CHECK_MESSAGE(!refs.empty(), "no schema: " << method << " " << path);
    for (const auto& r : refs) {
      REQUIRE(r.rfind("#/components/schemas/", 0) == 0);
      std::string name = r.substr(21);
      CHECK_MESSAGE(schemas.count(name), r);
      // The component's own references resolve too.
      std::vector<std::string> inner;
      refs_in(components[name], inner);
      for (const auto& i : inner) CHECK_MESSAGE(schemas.count(i.substr(21)), name << " → " << i);
    }
  }
  return doc;
}

}  // namespace cadastre::test
