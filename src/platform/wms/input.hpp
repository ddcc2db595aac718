// The WMS routes' input: bodies of /fonteswms, of /fonteswms/:id/imagem and of
// /importar/wms, and the url query of /proxy/wms/capabilities. Each refusal is a 400 naming
// the field.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::wms {

/// POST /fonteswms (nome and url required) and PUT /fonteswms/:id (any of them).
struct SourceFields {
  std::optional<std::string> nome, url;
  std::optional<std::optional<std::string>> descricao;  ///< null clears it
  bool recarregar = false;  ///< PUT: read the capabilities again (also done when url changes)
};
SourceFields parse_source(std::string_view body, bool creating);

/// POST /fonteswms/:id/imagem.
struct MapParams {
  std::array<double, 4> bbox{};
  int width = 256, height = 256;
  std::vector<std::string> camadas;
  std::string formato = "image/png";
  std::string crs = "EPSG:4674";
  std::string estilos;
  bool transparente = true;
};
MapParams parse_map(std::string_view body);

/// POST /importar/wms.
struct WmsImport {
  std::int64_t projeto = 0;
  std::string url;                     ///< the capabilities URL
  std::string camada;                  ///< the WMS layer's name
  std::optional<std::string> nome;     ///< the new layer's name (default: the WMS layer's title)
  std::optional<std::string> formato;  ///< default: image/png when offered, else the first format
};
WmsImport parse_import(std::string_view body);

/// The url query parameter (required).
std::string parse_url_query(const http::Request& req);

using service::path_id;  // the path parameter named: service/ids.hpp

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::wms
