// The caller's permissions as the user routes show them (GET .../usuarios/permissoes/ and
// the 360 viewer's /auth): the rules as stored and the effective read/write permission on
// every layer of the tenant's catalog.
#pragma once

#include "cadastre/json.hpp"
#include "service/scope.hpp"

namespace cadastre::server::users {

/// Writes the members "regras": [{camada, leitura, escrita}] and "camadas": [{camada,
/// leitura, escrita}] (one per catalog layer) into the object open in `w`.
void write_permissions(JsonWriter& w, const service::Scope& s);

}  // namespace cadastre::server::users
