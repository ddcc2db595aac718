// Bodies and queries of the layer routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "platform/layers/raster.hpp"

namespace cadastre::platform::layers {

/// A layer's editable fields (POST /camadas, PUT /camadas/:id). Absent: unchanged.
struct LayerFields {
  std::optional<std::int64_t> projeto;           ///< POST only
  std::optional<std::string> nome, geometria;
  std::optional<std::optional<std::string>> descricao;    ///< null clears
  std::optional<bool> privada;
  std::optional<std::optional<std::int64_t>> modulo;       ///< null clears
  std::optional<std::string> propriedades, estilo;  ///< JSON objects, as text
  std::optional<std::int64_t> ordem;
  bool clear_rotulo = false, clear_categorias = false;     ///< PUT: "rotulo": null, "categorias": null
};

/// POST /camadas: {"idProjeto", "nome", "descricao"?, "tipo"?: "vetor", "geometria"?,
/// "privada"?, "moduloId"?, "propriedades"?: {...}, "estilo"?: {...}, "ordem"?}. Layers of
/// the other kinds (tiff, dxf, wms) come from the imports, never from this body.
LayerFields parse_new_layer(std::string_view body);
/// PUT /camadas/:id: the same fields but idProjeto and tipo (which never change), and
/// "rotulo": null / "categorias": null to remove the labels / the classes (the style
/// routes set them). "ativo" is refused: /camadas/ativar and /inativar move the state.
LayerFields parse_layer_change(std::string_view body);
/// PUT /camadas/privada/:id: {"privada": true|false}.
bool parse_private(std::string_view body);

/// The list filters of GET /camadas, /camadas/all, /camadas/prop-valor, /camadas/previa.
struct ListFilter {
  std::optional<std::int64_t> projeto, modulo;
  std::vector<std::int64_t> ids;  ///< id_camadas; empty: any
  std::optional<std::string> prop;  ///< a key propriedades must have
  std::optional<std::string> valor;  ///< with prop: propriedades->>prop = valor
  bool inactive = false;  ///< ativo=false: the inactive layers instead of the active ones
  std::optional<std::string> nome;   ///< previa: part of the name
};

/// Reads idProjeto, moduloId, id_camadas (comma-separated ids, at most 1000), prop (a key:
/// letters, digits, _), valor, ativo and nome, whichever the route declares.
ListFilter parse_filter(const http::Request& req);

/// GET /estilizarRaster/:id: bbox=minx,miny,maxx,maxy (lon/lat), width, height (1..4096),
/// ramp, classes (2..32), opacity (0..1), banda, min, max.
raster::Style parse_raster_style(const http::Request& req);

/// Largest side of a styled raster window.
inline constexpr int kMaxRasterSide = 4096;

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::layers
