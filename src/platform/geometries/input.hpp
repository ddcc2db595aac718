// Bodies and queries of the geometry routes. A geometry travels as WKT ("wkt") or GeoJSON
// ("geojson": an object or its text) in SIRGAS 2000 lon/lat (EPSG:4674) unless "srid" names
// another system; the database reads and checks it (projeto.geometria_ler, migration 0020),
// so parsing here only finds the text and bounds its size.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "platform/values/input.hpp"

namespace cadastre::platform::geometries {

/// A geometry as sent: exactly one of wkt and geojson.
struct Shape {
  std::optional<std::string> wkt, geojson;
  std::optional<std::int64_t> srid;
  std::string field() const { return wkt ? "wkt" : "geojson"; }
};

/// POST /geometrias: {"idCamada", "wkt"|"geojson", "srid"?, "vinculoId"?, "valores"?}.
/// "valores" is the list POST /v2/valores takes ([{"idCampo", "valor"}...], 1 to 500, each
/// field once), read by the values area's parser: written with the geometry, all or nothing.
struct NewGeometry {
  std::int64_t camada = 0;
  Shape shape;
  std::optional<std::int64_t> vinculo;
  std::optional<std::vector<values::Entry>> valores;
};
NewGeometry parse_new(std::string_view body);

/// PUT /geometrias/:id: {"wkt"|"geojson", "srid"?, "versao"?}; the version may come in the
/// If-Match header instead (required one way or the other).
struct Change {
  Shape shape;
  std::int64_t versao = 0;
};
Change parse_change(const http::Request& req);

/// The version a DELETE is based on: ?versao= or If-Match (required).
std::int64_t parse_version(const http::Request& req);

/// PUT /geometrias/uniao: {"ids": [2..1000], "manter": one of ids, "versoes"?: {"id": v}}.
struct Union {
  std::vector<std::int64_t> ids;
  std::int64_t manter = 0;
  std::map<std::int64_t, std::int64_t> versoes;
};
Union parse_union(std::string_view body);

/// PUT /geometrias/deletar: {"ids": [1..1000], "versoes"?: {"id": v}}.
Union parse_delete_many(std::string_view body);

/// POST /geometrias/split/:id: {"linha": WKT, "srid"?, "versao"}.
struct Split {
  Shape linha;
  std::int64_t versao = 0;
};
Split parse_split(std::string_view body);

/// A list of ids: "1,2,3" in a query, or a JSON array in a body (1..1000, each once).
std::vector<std::int64_t> parse_id_list(std::string_view text, std::string_view field);

/// x, y (lon/lat, required) and r in metres (default 50, 0 < r <= 5000).
struct Around {
  double x = 0, y = 0, r = 50;
};
Around parse_around(const http::Request& req, bool with_radius);

/// bbox=minLon,minLat,maxLon,maxLat (optional).
struct Box {
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};
std::optional<Box> parse_bbox(const http::Request& req);

/// GET /geometrias/intersect-geom: ids and wkt.
struct Intersect {
  std::vector<std::int64_t> ids;
  std::string wkt;
};
Intersect parse_intersect(const http::Request& req);

/// POST /geometrias/copiar-amostras/:idCamada: {"ids": [...]}.
std::vector<std::int64_t> parse_samples(std::string_view body);

/// POST /geometrias/copiar-valores/:idCamada: {"origem", "campos"?: [chaves]}.
struct CopyValues {
  std::int64_t origem = 0;
  std::optional<std::vector<std::string>> campos;
};
CopyValues parse_copy_values(std::string_view body);

/// PUT /geometrias/:id/indexMapaTematico: {"idCampo"}.
std::int64_t parse_thematic(std::string_view body);

/// POST /geometrias/offline: the items, in order (1..500, idCliente unique in the batch).
struct OfflineItem {
  std::string cliente;   ///< idCliente
  std::string operacao;  ///< criar | alterar | excluir
  std::int64_t camada = 0;  ///< criar
  std::int64_t id = 0, versao_base = 0;  ///< alterar, excluir
  Shape shape;  ///< criar, alterar
  std::optional<std::vector<values::Entry>> valores;  ///< criar: as POST /geometrias
};
std::vector<OfflineItem> parse_offline(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::geometries
