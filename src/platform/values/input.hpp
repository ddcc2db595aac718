// Bodies and queries of the value routes. A value travels as the JSON text of one JSON
// value ("\"abc\"", "12.5", "true", "[\"a\"]", "null"): field_values::check_value judges it
// against its field, so parsing here only finds it and keeps it whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::values {

/// One value of a write: the field and the value's JSON text.
struct Entry {
  std::int64_t campo = 0;
  std::string valor;
};

/// POST /valores: {"idGeometria", "idCampo", "valor"}.
struct NewValue {
  std::int64_t geometria = 0;
  Entry entry;
};
NewValue parse_new_value(std::string_view body);

/// PUT /valores/:id: {"valor"}; the value's JSON text.
std::string parse_change(std::string_view body);

/// POST /v2/valores: {"idGeometria", "valores": [{"idCampo", "valor"}...]} (1 to 500, each
/// field once).
struct Batch {
  std::int64_t geometria = 0;
  std::vector<Entry> valores;
};
Batch parse_batch(std::string_view body);

/// POST /copiar-valores: {"idGeometriaOrigem", "idGeometriaDestino", "idCampos"?: [...]}.
struct CopyOrder {
  std::int64_t origem = 0, destino = 0;
  std::optional<std::vector<std::int64_t>> campos;  ///< fields of the origin; absent: all
};
CopyOrder parse_copy(std::string_view body);

/// GET /valores: exactly one of idGeometria, idCampo, idCamada.
struct ListFilter {
  std::string record;  ///< "geometria", "campo" or "camada" (the guard's record kinds)
  std::int64_t id = 0;
};
ListFilter parse_list_filter(const http::Request& req);

/// A point in lon/lat (SIRGAS 2000) from the query's x and y (both required).
struct Point {
  double x = 0, y = 0;
};
Point parse_point(const http::Request& req);

/// An optional id query parameter (400 naming it when not a positive integer).
std::optional<std::int64_t> optional_id(const http::Request& req, std::string_view name);

/// GET /valores/search: the term, 2 to 200 characters once trimmed.
std::string parse_term(const http::Request& req);

/// GET /valores/edificacao/:id: vinculado (required, true or false).
bool parse_linked(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::values
