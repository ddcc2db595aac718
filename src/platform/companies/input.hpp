// The body of PUT /empresas/:id.
#pragma once

#include <string_view>

#include "platform/companies/store.hpp"

namespace cadastre::platform::companies {

/// {"nome"?, "cnpj"? (14 digits, punctuation allowed), "email"?, "telefone"?, "endereco"?, "site"?}.
Fields parse_fields(std::string_view body);

}  // namespace cadastre::platform::companies
