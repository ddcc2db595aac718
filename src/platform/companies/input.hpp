// The body of PUT /empresas/:id.
#pragma once

#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"
#include "platform/companies/store.hpp"

namespace cadastre::platform::companies {

/// {"nome"?, "cnpj"? (14 digits, punctuation allowed), "email"?, "telefone"?, "endereco"?, "site"?}.
Fields parse_fields(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::companies
