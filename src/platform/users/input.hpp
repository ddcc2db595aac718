// Bodies and queries of the user routes.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "platform/users/store.hpp"

namespace cadastre::platform::users {

/// POST /usuarios: {"nome", "email", "telefone"?, "cargo"?, "adm"?, "usuarioPublico"?,
/// "permissoes"?: ["camada:rw", "*:r", ...]} (default "*:r"); PUT /usuarios/:id: any of those.
Fields parse_fields(std::string_view body, bool creating);

/// The `ativo` filter of the lists (absent: all).
std::optional<bool> parse_active_filter(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::users
