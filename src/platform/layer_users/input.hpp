// Bodies of the layer-right routes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"

namespace cadastre::platform::layer_users {

struct NewRight {
  std::int64_t camada = 0, usuario = 0;
  std::string direito;
};

/// POST /camadas-usuarios: {"idCamada", "idUsuario", "direito": "leitura"|"edicao"}.
NewRight parse_new(std::string_view body);
/// PUT /camadas-usuarios/:id: {"direito": "leitura"|"edicao"} (the layer and the user of a
/// right never change: delete it and give another).
std::string parse_change(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::layer_users
