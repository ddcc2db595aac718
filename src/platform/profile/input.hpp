// The body of PUT /minha-conta.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"
#include "platform/profile/store.hpp"

namespace cadastre::platform::profile {

/// {"nome"?, "telefone"?, "cargo"?, "email"?, "senhaAtual"?, "novaSenha"?}: a new password
/// needs the current one; other members → 400.
struct Update {
  Change fields;
  std::optional<std::string> email;
  std::string senha_atual, nova_senha;
};
Update parse_update(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::profile
