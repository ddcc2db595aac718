#include "server/dbrest/input.hpp"

#include <unordered_set>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::dbrest {
namespace {

std::int64_t geometry_id(jsonin::element e, std::size_t index) {
  const std::string field = "geometrias[" + std::to_string(index) + "]";
  std::int64_t id = 0;
  if (e.get(id) != simdjson::SUCCESS || id < 1)
    throw Error(errc::invalid_argument, "'" + field + "' deve ser um id inteiro positivo de geometria", "geometrias");
  return id;
}

}  // namespace

GeometryQuery parse_geometry_query(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "geometrias" && key != "camada")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "' (use 'geometrias' e 'camada')",
                  std::string(key));
  }
  auto list = jsonin::find(o, "geometrias");
  if (!list) throw Error(errc::missing_field, "campo obrigatório ausente: 'geometrias' (lista de ids)", "geometrias");
  GeometryQuery out;
  std::unordered_set<std::int64_t> seen;
  std::size_t index = 0;
  for (auto e : jsonin::as_array(*list, "geometrias")) {
    std::int64_t id = geometry_id(e, index++);
    if (seen.insert(id).second) out.ids.push_back(id);
  }
  if (index == 0 || index > kMaxGeometryIds)
    throw Error(errc::invalid_argument, "'geometrias' deve ter de 1 a " + std::to_string(kMaxGeometryIds) + " ids",
                "geometrias");
  out.camada = jsonin::opt_string(o, "camada");
  return out;
}

}  // namespace cadastre::server::dbrest
