// The body of PUT /tenants/config, checked against the configuration schema.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::platform::tenants {

/// Validates the configuration document (docs/platform.md, "Tenant configuration"):
///   {"mapa"?: {"centro"?: [lon, lat], "zoom"?: 0..22, "mapaBase"?: text},
///    "tema"?: {"corPrimaria"?: "#RRGGBB", "corSecundaria"?: "#RRGGBB", "logo"?: text},
///    "contato"?: {"email"?: e-mail, "telefone"?: text, "site"?: text},
///    "modulos"?: [text, ...] (at most 50)}
/// Any other member, type or range → 400 naming the member's path ("mapa.zoom"). Returns
/// the document as sent (it replaces the whole configuration).
std::string parse_config(std::string_view body);

}  // namespace cadastre::platform::tenants
