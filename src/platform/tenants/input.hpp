// The body of PUT /tenants/config, checked against the configuration schema.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"

namespace cadastre::platform::tenants {

/// Validates the configuration document (docs/platform.md, "Tenant configuration"):
///   {"mapa"?: {"centro"?: [lon, lat], "zoom"?: 0..22, "mapaBase"?: text},
///    "tema"?: {"corPrimaria"?: "#RRGGBB", "corSecundaria"?: "#RRGGBB", "logo"?: text},
///    "contato"?: {"email"?: e-mail, "telefone"?: text, "site"?: text},
///    "modulos"?: [text, ...] (at most 50),
///    "rastreador"?: {"url"?: http(s) URL, "token"?: text, "timeout_ms"?: 100..60000}}
/// Each member may also be null (it is removed). `integracao_rest` belongs to
/// cadastre-admin. Any other member → 400 campo_desconhecido, a wrong type or range → 400
/// parametro_invalido, each naming the member's path ("mapa.zoom"). Returns the document as sent: the changes, member by member
/// (service/tenant_config.hpp, merged).
std::string parse_config(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::tenants
