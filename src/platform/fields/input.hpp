// Bodies and queries of the field routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "cadastre/field_definitions.hpp"

namespace cadastre::platform::fields {

struct NewField {
  std::int64_t formulario = 0;
  field_values::Changes attributes;
};

/// POST /campos: {"idFormulario", "nome", "chave", "tipo", "obrigatorio"?, "unico"?,
/// "minimo"?, "maximo"?, "padrao"?, "opcoes"?, "dominio"?, "formula"?, "avaliacao"?,
/// "ajuda"?, "ordem"?, "ativo"?}.
NewField parse_new(std::string_view body);
/// PUT /campos/:id: any of those but idFormulario (null clears an optional attribute).
field_values::Changes parse_change(std::string_view body);

/// What GET /campos/:id/converter asks.
struct Conversion {
  std::string tipo;
  std::optional<std::string> split;  ///< the separator, when splitting
  bool confirmar = false;
};
Conversion parse_conversion(const http::Request& req);

/// An optional id in the query (400 naming it when it is not a positive integer).
std::optional<std::int64_t> query_id(const http::Request& req, std::string_view name);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::fields
