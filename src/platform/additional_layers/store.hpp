// Additional layers: external layers (a WMS service, an XYZ tile template, a vector URL)
// shown with a project (projeto.camadas_adicionais). Lists show only those of projects the
// caller may see.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/additional_layers/input.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::additional_layers {

/// The additional layers of the projects `ids` the caller may see (the others are left
/// out, as if they had none); without ids, of every active project the caller may see.
/// `grouped`: [{"idProjeto","nome","camadas":[...]}] instead of a flat list.
std::string list(const service::Caller& scope, const std::optional<std::vector<std::int64_t>>& ids, bool grouped);

/// Adds one; returns it.
std::string create(const service::Caller& scope, const NewLayer& n);

/// Deletes one (404 when gone).
void remove(const service::Caller& scope, std::int64_t id);

}  // namespace cadastre::platform::additional_layers
