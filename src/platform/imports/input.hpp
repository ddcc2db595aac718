// The query parameters and the upload of the import routes, read and checked before any
// file is opened or any row written (docs/platform-imports.md has their meaning).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "http/http.hpp"

namespace cadastre::platform::jobs {
class Parameters;
}

namespace cadastre::platform::imports {

/// The largest upload (the platform's request limit) and the most features one import takes.
inline constexpr std::size_t kMaxUploadBytes = std::size_t{32} << 20;
inline constexpr std::int64_t kMaxFeatures = 500000;

/// What every vector import is asked (query parameters).
struct Params {
  std::string codigo;             ///< the client's idempotency key (required, 1..200 chars)
  std::string nome_camada;        ///< the new layer's name (1..200 chars)
  std::int64_t projeto = 0;       ///< idProjeto
  std::optional<int> srid;        ///< the file's CRS when it carries none
  std::optional<std::string> encoding;  ///< attributes' encoding when no .cpg (CP1252 by default)
  bool xdzs = false;              ///< keep the Z coordinate as the field "cota"
  bool recusar_invalidas = false; ///< invalidas=recusar: invalid geometries refused, not repaired
  /// The job's parametros: these members, then what was learnt from the file when known
  /// ("arquivo", "crs", "encodingOrigem").
  struct Learnt {
    std::string arquivo, crs, encoding_origem;
  };
  std::string json(const std::optional<Learnt>& learnt = std::nullopt) const;
};
/// `with_layer_name`: nomeCamada required (the cadastre imports name their layers).
Params parse_params(const http::Request& req, bool with_layer_name);
/// The parameters a job was submitted with (Params::json), read back by its handler.
Params params_of(const jobs::Parameters& job);

/// The uploaded file: part `file` (required, with a file name), no other part. The content
/// is moved out of the request (the job keeps it).
struct Upload {
  std::string nome;   ///< the client's file name (last path component), for messages only
  std::string bytes;
};
Upload take_upload(http::Request& req);

/// ?targetType= of POST /converter/geojson.
std::string parse_target_type(const http::Request& req);

/// A positive id from a path parameter or a query field (400 naming it otherwise).
std::int64_t parse_id(std::string_view text, std::string_view field);

}  // namespace cadastre::platform::imports
