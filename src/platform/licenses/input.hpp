// Bodies of the license routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"
#include "platform/licenses/store.hpp"

namespace cadastre::platform::licenses {

/// POST /licencas: {"idTenant", "plano", "fim", "maxUsuarios", "maxArmazenamentoMb", "status"?,
/// "inicio"?, "observacao"?}. PUT /adm/licencas/:id: any of those but idTenant, and
/// "pagamentoConfirmado": the id of a contract of the license whose payment arrived. Dates are
/// calendar dates YYYY-MM-DD (fim not before inicio); status one of kStoredStatuses; quotas
/// 1 to 2^31-1; observacao up to 4000 bytes; other members → 400.
struct NewLicense {
  std::int64_t tenant_id = 0;
  LicenseFields fields;
};
NewLicense parse_new(std::string_view body);
LicenseFields parse_change(std::string_view body);

/// PUT /licencas/tokens: {"id"} rotates that token; {"nome", "escopo"} issues (or rotates)
/// the token of that name, escopo "integracao" or "avaliacao".
struct TokenRequest {
  std::optional<std::int64_t> id;
  std::string nome, escopo;
};
TokenRequest parse_token_request(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::licenses
