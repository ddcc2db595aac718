// Bodies of the layer-right routes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

}  // namespace cadastre::platform::layer_users
