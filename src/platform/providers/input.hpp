// Bodies and queries of the provider routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "platform/providers/store.hpp"

namespace cadastre::platform::providers {

/// POST /preprovider/register: {"nome", "cnpj", "email", "responsavel", "telefone"?, "mensagem"?}.
/// The CNPJ may be punctuated ("11.222.333/0001-81"); it is kept as its 14 digits and must
/// have valid check digits.
PreRegistration parse_pre(std::string_view body);

/// POST /provider/create: {"idPreProvedor"} approves a pre-registration; otherwise the
/// provider's own data as in parse_pre.
NewProvider parse_new(std::string_view body);

/// POST /provider: {"idProvedor", "escrita"?: false}.
struct Grant {
  std::int64_t provider_id = 0;
  bool escrita = false;
};
Grant parse_grant(std::string_view body);

/// The `cnpj` query field as its 14 digits (punctuation allowed; 400 when malformed), or
/// nullopt when absent.
std::optional<std::string> cnpj_query(const http::Request& req);

/// An id from the path or query field `name` (400 when absent or not a positive integer).
std::int64_t id_field(const http::Request& req, const char* name, bool in_path);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::providers
