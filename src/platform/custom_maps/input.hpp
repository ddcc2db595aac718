// Bodies of the custom map routes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"

namespace cadastre::platform::custom_maps {

/// One layer of a saved map.
struct MapLayer {
  std::int64_t camada = 0;
  int ordem = 0;                      ///< drawing order, renumbered 1..n
  bool visivel = true;
  double opacidade = 1.0;             ///< 0..1
  std::optional<std::string> estilo;  ///< a JSON object (MapLibre paint/layout, as the client keeps it)
};

/// POST /mapas-personalizados: {"idProjeto","nome","descricao"?,"camadas":[{"idCamada",
/// "ordem"?,"visivel"?,"opacidade"?,"estilo"?}...],"extensao"?:[minx,miny,maxx,maxy],
/// "idMapaBase"?}. PUT /mapas-personalizados/:id: any of those but idProjeto (absent: kept;
/// extensao and idMapaBase null: cleared).
struct MapFields {
  std::optional<std::int64_t> projeto;
  std::optional<std::string> nome, descricao;
  std::optional<std::vector<MapLayer>> camadas;
  bool set_extensao = false, set_mapa_base = false;
  std::optional<std::array<double, 4>> extensao;
  std::optional<std::int64_t> mapa_base;
};
MapFields parse_map(std::string_view body, bool creating);

/// The layers as stored: [{"idCamada","ordem","visivel","opacidade","estilo"}...].
std::string layers_json(const std::vector<MapLayer>& layers);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::custom_maps
