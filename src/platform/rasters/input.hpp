// The raster routes' input: the import's query (idProjeto, nomeCamada, codigo), the signed
// upload link's query, the point of /valorPixel and the body of PUT /importacoes-tiff/:id.
// Each refusal is a 400 naming the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::rasters {

/// idProjeto (required, the guard already resolved it), nomeCamada (required), codigo (optional).
struct ImportQuery {
  std::int64_t projeto = 0;
  std::string nome;
  std::optional<std::string> codigo;
};
ImportQuery parse_import_query(const http::Request& req);

/// The multipart part `file` of an upload (400 "file" when absent or empty).
const http::FilePart& file_part(const http::Request& req);

/// The signed link's query: municipio (tenant slug), chave, expira, assinatura; and, for a
/// file sent in parts, parte (1..kMaxParts) and ultima (true on the last part).
struct Signed {
  std::string municipio, chave, assinatura;
  std::int64_t expira = 0;
  std::optional<std::int64_t> parte;
  bool ultima = false;
};
inline constexpr std::int64_t kMaxParts = 10000;
Signed parse_signed(const http::Request& req);

/// x (longitude) and y (latitude), EPSG:4674.
struct Point {
  double x = 0, y = 0;
};
Point parse_point(const http::Request& req);

/// PUT /importacoes-tiff/:id: {"nomeCamada"?, "oculta"?: true} or {"cancelar": true} alone
/// (a cancellation with anything else is a 400 naming "cancelar": its outcome is not known
/// when the request ends, so no later step of the same body could depend on it).
struct JobChange {
  std::optional<std::string> nome;
  bool ocultar = false;
  bool cancelar = false;
};
JobChange parse_job_change(std::string_view body);

using service::path_id;  // the path parameter named: service/ids.hpp

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::rasters
