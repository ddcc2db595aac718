// Bodies and queries of the form routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::forms {

/// The editable attributes of a form; absent members keep their value.
struct Fields {
  std::optional<std::string> nome;
  std::optional<std::optional<std::string>> descricao;  ///< null clears it
  std::optional<int> ordem;
};

struct NewForm {
  std::int64_t camada = 0;
  Fields fields;
};

/// POST /formularios: {"idCamada", "nome", "descricao"?, "ordem"?}.
NewForm parse_new(std::string_view body);
/// PUT /formularios/:id: any of {"nome", "descricao", "ordem"}.
Fields parse_change(std::string_view body);

/// An optional id in the query (400 naming it when it is not a positive integer).
std::optional<std::int64_t> query_id(const http::Request& req, std::string_view name);
/// The optional `ativo` filter (true/false).
std::optional<bool> query_active(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::forms
