// Queries and bodies of the style routes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "platform/layer_styles/store.hpp"

namespace cadastre::platform::layer_styles {

/// A required integer id of the query (400 naming it when absent or malformed).
std::int64_t query_id(const http::Request& req, const char* name);

/// concat: comma-separated field ids labelled after idCampo (at most 9); empty when absent.
std::vector<std::int64_t> parse_concat(const http::Request& req);
/// separador: what joins the labelled fields (default " ", at most 10 characters).
std::string parse_separator(const http::Request& req);
/// classes: the number of intervals of a numeric field (2 to 20, default 5).
int parse_intervals(const http::Request& req);
/// paleta: the ramp of intervals (default "calor").
std::string parse_ramp(const http::Request& req);

/// POST /camadas/rotulargeometria: {"texto"?: string|null, "posicao"?: [lon, lat]|null,
/// "rotacao"?: degrees|null}; a key present sets that part (null clears it), at least one.
GeometryLabel parse_geometry_label(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::layer_styles
