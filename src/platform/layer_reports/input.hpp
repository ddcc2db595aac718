// Bodies and queries of the layer report routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "platform/search/input.hpp"

namespace cadastre::platform::layer_reports {

/// POST /relatorios-de-camada: {"idCamada","nome","descricao"?,"campos":[idCampo...] (1 to
/// 50),"filtros"?:{"condicoes":[{"idCampo","operador","valor"?}...],"todas"?},
/// "agrupamento"?: idCampo}. PUT /relatorios-de-camada/:id: any of those but idCamada
/// (agrupamento null: no grouping). The conditions are those of POST
/// /pesquisa-caracteristicas, parsed by search::parse_feature_query.
struct ReportFields {
  std::optional<std::int64_t> camada;
  std::optional<std::string> nome, descricao;
  std::optional<std::vector<std::int64_t>> campos;
  std::optional<search::FeatureQuery> filtros;  ///< condicoes may be empty: no filter
  std::optional<std::string> filtros_json;      ///< as stored: {"condicoes":[...],"todas":...}
  bool set_agrupamento = false;
  std::optional<std::int64_t> agrupamento;
};
ReportFields parse_report(std::string_view body, bool creating);

/// A stored filter (filtros_json) read back for layer `camada`.
search::FeatureQuery parse_filters(std::int64_t camada, std::string_view filtros_json);

enum class Format { json, pdf, xlsx };
/// ?formato=json|pdf|xlsx (default json).
Format parse_format(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::layer_reports
