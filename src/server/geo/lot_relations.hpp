// How the records of a layer relate to one lot (GET /geo/{m}/filtro_relacionamentos/...).
//
// By key ("chave"), read from the catalog by the naming convention of the cadastre schema:
//   - the layer has a column `lote_id` (edificacao, imobiliario, ...): its records whose
//     lote_id is the lot's id;
//   - the lot has a column `<camada>_id` (quadra_id, face_quadra_id, logradouro_id): the
//     record of that layer the lot points to.
// Spatially ("espacial"), for layers with geometry: the records whose geometry shares
// interior points with the lot's (ST_Intersects and not ST_Touches, so neighbouring lots or
// a street that only runs along the boundary do not count); for the layer lote itself the
// lot is left out.
// Without a forced mode the key is used when there is one, else the geometry.
//
// The conditions are SQL over alias `t` (the layer) and a CTE `lote_ref` holding the lot's
// row, which the caller writes first (see lot_cte); they contain no placeholders.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/catalog.hpp"
#include "store/sql.hpp"

namespace cadastre::server {

enum class RelationMode { key, spatial };

struct LotRelation {
  RelationMode mode = RelationMode::key;
  std::string condition;  ///< SQL condition on `t` referring to `lote_ref`
};

/// "chave" / "espacial" → mode; anything else → 400 naming "modo".
RelationMode parse_relation_mode(std::string_view text);
std::string_view to_string(RelationMode mode) noexcept;

/// The relation of `layer` to lots, in `forced` mode when given; nullopt when there is none
/// (no key and no geometry, or the forced mode is not available for this layer).
std::optional<LotRelation> lot_relation(const store::Layer& lote, const store::Layer& layer,
                                        std::optional<RelationMode> forced);

/// Appends "with lote_ref as (select * from <lote> where <pk> = <id>) " with `id` bound
/// (already checked against the key type).
void append_lot_cte(store::Sql& sql, const store::Layer& lote, const std::string& id);

}  // namespace cadastre::server
