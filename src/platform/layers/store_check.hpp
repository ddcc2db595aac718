// GET /camadas/:id/check: the validity report of a layer's geometries, in one pass over
// them: invalid ones with GEOS's reason and where (ST_IsValidDetail), empty ones, those
// with the same vertex twice in a row, a SRID other than the layer column's (4674), and a
// type the layer's `geometria` does not take. Each problem: how many, and the first
// `limit` geometries (by id).
#pragma once

#include <cstdint>
#include <string>

#include "service/caller.hpp"

namespace cadastre::platform::layers {

/// {"idCamada","geometria","total","validas",
///  "invalidas":{"total","exemplos":[{"id","motivo","local":[x,y]}]},
///  "vazias":{"total","exemplos":[{"id"}]}, "verticesRepetidos":{...[{"id","vertices"}]},
///  "sridErrado":{...[{"id","srid"}]}, "tipoErrado":{...[{"id","tipo"}]}}.
std::string check_report(const service::Caller& s, std::int64_t layer_id, int limit);

}  // namespace cadastre::platform::layers
