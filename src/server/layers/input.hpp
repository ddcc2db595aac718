// Query strings of the layer reads → structs (paging, filters and sort are
// query::parse_list_query's; these are the routes' own).
#pragma once

#include <optional>
#include <string>

#include "cadastre/query.hpp"
#include "http/http.hpp"

namespace cadastre::server::layers {

/// GET .../search/{type}/{field}/{value}/: the path's one filter with the query's paging,
/// sort and bbox (400 for an invalid type or field name).
query::ListQuery parse_search(const http::Request& req);

/// GET /{municipio}/logradouro/buscar_endereco/.
struct AddressQuery {
  std::string street;                   ///< part of the street name (2 letters or more)
  std::optional<std::string> number;    ///< street number, as canonical integer text
  std::optional<std::string> district;  ///< part of the district name
  query::Paging paging;
};
/// 400 missing_field without logradouro (or with less than 2 letters); 400 for a bad numero.
AddressQuery parse_address_query(const http::Request& req);

/// The {id_lote} path segment (positive integer, as text).
std::string parse_lot_id(const http::Request& req);

}  // namespace cadastre::server::layers
