// Bodies and queries of the municipal report routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::city_reports {

/// POST /reports/<cidade>/avaliacao: {"idImovel"} or {"inscricao"} (the unit's
/// inscricao_cartografica), "anoReferencia"? (the year building ages are counted to).
struct ValuationOrder {
  std::int64_t imovel = 0;  ///< 0 when given by inscricao
  std::string inscricao;
  std::optional<int> ano;
};
ValuationOrder parse_valuation(std::string_view body);

/// ?idImovel= of the preview sheet (required, a positive id).
std::int64_t parse_property_id(const http::Request& req);

/// The city of the path: a tenant slug (400 naming cidade otherwise).
std::string parse_city(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::city_reports
