// Request bodies of the field application section (/aplicativo).
//
// POST .../process-logs-v2/: the edits the field app made offline, sent as a log.
// Body: {"dispositivo": "<id of the app installation>", "logs": [entry, ...]} (1 to 1000
// entries), each entry
//   {"id_cliente": "<unique per device, e.g. a UUID>", "timestamp": "<RFC 3339, when the edit
//    was made on the device>", "camada": "lote", "operacao": "inserir"|"atualizar"|"remover",
//    "registro_id": <id; atualizar and remover>, "dados": {columns, geometry as GeoJSON;
//    inserir and atualizar}, "versao_base": "<RFC 3339: the version of the record the app
//    edited, i.e. its atualizado_em or the gerado_em of the data package; atualizar and
//    remover>"}.
// The whole body is validated first (shape, fields, layer names and write permission,
// columns and geometries of `dados`): any problem → 400/403/404 and nothing is applied.
// How the entries apply: store.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/geom.hpp"
#include "cadastre/tiles.hpp"
#include "service/scope.hpp"
#include "store/records.hpp"

namespace cadastre::server::mobile {

/// {"minLongitude", "minLatitude", "maxLongitude", "maxLatitude"} (numbers) → a valid bbox.
geom::BBox parse_bbox_body(const std::string& body);

struct TilesBody {
  std::vector<std::int64_t> lots;  ///< distinct, ascending
  tiles::ZoomRange zooms;
};
/// {"lotes": [ids] (1..1000), "zoom_min": 0..22, "zoom_max": zoom_min..22}.
TilesBody parse_tiles_body(const std::string& body);

enum class LogOp { insert, update, remove };

struct LogEntry {
  std::string id_cliente, timestamp, camada, operacao;
  LogOp op = LogOp::insert;
  const store::Layer* layer = nullptr;
  std::optional<std::string> registro_id, versao_base;
  store::RecordInput dados;
};

struct LogBatch {
  std::string dispositivo;
  std::map<std::string, service::LayerRef, std::less<>> layers;  ///< keeps the entries' layers alive
  std::vector<LogEntry> entries;
};

/// Parses and checks a process-logs-v2 body; each layer needs write permission (s.layer).
LogBatch parse_logs(const service::Scope& s, const std::string& body);

}  // namespace cadastre::server::mobile
