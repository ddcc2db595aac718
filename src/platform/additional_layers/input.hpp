// Bodies and queries of /camadasAdicionais.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::additional_layers {

/// POST /camadasAdicionais {"idProjeto", "nome", "tipo": "wms"|"xyz"|"vetor", "url",
/// "camadas"?, "opcoes"?: {...}, "ordem"?}.
///  - url: http or https, no user or password in it, no blanks or control characters, at
///    most 2000 bytes; an xyz template holds {z}, {x} and {y};
///  - camadas: the WMS LAYERS, required for wms (at most 2000 bytes);
///  - opcoes: a JSON object of the client's options (at most 16 kB), stored as given.
struct NewLayer {
  std::int64_t project = 0;
  std::string nome, tipo, url;
  std::optional<std::string> camadas;
  std::string opcoes = "{}";
  int ordem = 0;
};
NewLayer parse_new_layer(std::string_view body);

/// ?id_projetos=1,2,3 (at most 1000 ids); nullopt when absent.
std::optional<std::vector<std::int64_t>> parse_project_ids(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::additional_layers
