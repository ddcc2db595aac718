#include "server/layers/input.hpp"

#include <cstdint>

#include "service/geojson.hpp"

namespace cadastre::server::layers {

query::ListQuery parse_search(const http::Request& req) {
  auto params = query_params(req);
  // The path's type/field/value become one filter; paging and bbox still come from the query.
  std::erase_if(params, [](const auto& kv) { return !query::is_reserved(kv.first) || kv.first == "type"; });
  auto q = query::parse_list_query(params);
  q.filters = {{req.param("field"), query::parse_filter_type(req.param("type")), req.param("value")}};
  query::check_identifier(req.param("field"), "field");
  return q;
}

AddressQuery parse_address_query(const http::Request& req) {
  AddressQuery q;
  auto street = req.query_value("logradouro");
  if (!street || street->size() < 2)
    throw Error(errc::missing_field, "informe 'logradouro' (ao menos 2 letras do nome da rua)", "logradouro");
  q.street = *street;
  q.paging = query::normalize_paging(query_params(req));
  if (auto n = req.query_value("numero")) q.number = std::to_string(query::parse_integer(*n, "numero", 0, 1000000));
  q.district = req.query_value("bairro");
  return q;
}

std::string parse_lot_id(const http::Request& req) {
  return std::to_string(query::parse_integer(req.param("id_lote"), "id_lote", 1, INT32_MAX));
}

}  // namespace cadastre::server::layers
