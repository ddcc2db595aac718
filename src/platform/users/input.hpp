// Bodies and queries of the user routes.
#pragma once

#include <optional>
#include <string_view>

#include "http/http.hpp"
#include "platform/users/store.hpp"

namespace cadastre::platform::users {

/// POST /usuarios: {"nome", "email", "telefone"?, "cargo"?, "adm"?, "usuarioPublico"?,
/// "permissoes"?: ["camada:rw", "*:r", ...]} (default "*:r"); PUT /usuarios/:id: any of those.
Fields parse_fields(std::string_view body, bool creating);

/// The `ativo` filter of the lists (absent: all).
std::optional<bool> parse_active_filter(const http::Request& req);

}  // namespace cadastre::platform::users
