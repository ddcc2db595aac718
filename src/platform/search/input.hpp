// Queries and bodies of the search and thematic routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::search {

/// The search term of `q` (or of `name`): trimmed, 2 to 200 characters (400 naming it).
std::string parse_term(const http::Request& req, std::string_view name = "q");
/// A comma-separated list of positive ids in query parameter `name` (empty when absent;
/// at most 200; 400 naming it for anything else).
std::vector<std::int64_t> parse_id_list(const http::Request& req, std::string_view name);

/// POST /mapa-tematico: {"idCamada","idCampo","metodo","classes","paleta"?}.
struct ThematicOrder {
  std::int64_t camada = 0, campo = 0;
  std::string metodo, paleta = "viridis";
  std::size_t classes = 5;
};
ThematicOrder parse_thematic(std::string_view body);

/// One condition of POST /pesquisa-caracteristicas; `valores` holds the value as text (two
/// for "entre", none for "vazio"), `kinds` the JSON kind of each ("number", "string", "boolean").
struct Condition {
  std::int64_t campo = 0;
  std::string operador;
  std::vector<std::string> valores, kinds;
};
/// {"idCamada","condicoes":[{"idCampo","operador","valor"}...] (1 to 20),"todas"?: true}.
struct FeatureQuery {
  std::int64_t camada = 0;
  std::vector<Condition> condicoes;
  bool todas = true;
};
FeatureQuery parse_feature_query(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::search
