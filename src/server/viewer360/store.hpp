// Every statement of /visualizador360: panoramas near a feature or a panorama, units in a
// radius, the references and lookup values of a form, a record's values, its last change
// and the batch writes of attributes.
//
// Panoramas are cadastro.panorama rows. Distances are in metres on the spheroid
// (store/distance.hpp); a feature is located by ST_PointOnSurface of its
// geometry (a point inside polygons, on lines), which is also the target of the azimuth.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/viewer360/input.hpp"
#include "service/batch.hpp"
#include "store/catalog.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::server::viewer360 {

inline constexpr double kHeightTolerance = 1;  // metres either side of height_ref

/// The panorama nearest to record `id` of `feature` (with the azimuth from the panorama to
/// the feature when asked): nullopt when the record does not exist; a null JSON when no
/// panorama is near.
struct Nearest {
  bool feature_found = false;
  std::optional<std::string> json;  ///< {camada, id, ponto, panorama, distancia_m[, azimute]}
};
Nearest nearest_panorama(store::Pool& db, const store::Layer& feature, const std::string& id,
                         const store::Layer& pano, bool azimuth);

/// Rows found around a panorama: whether the panorama exists, how many rows there are and
/// the first `limit` as a JSON array.
struct Around {
  bool found = false;
  std::int64_t total = 0;
  std::string rows = "[]";
};
/// Panoramas within `distance` metres of panorama `id` whose height is within
/// kHeightTolerance of `height`, nearest first.
Around panoramas_in_radius(store::Pool& db, const store::Layer& pano, const std::string& id,
                           double distance, double height, std::int64_t limit);
/// Units whose lot lies within `distance` metres of panorama `id`, as Features, nearest first.
Around units_in_radius(store::Pool& db, const store::Layer& pano, const store::Layer& units,
                       const store::Layer& lots, const std::string& id, double distance,
                       std::int64_t limit);

/// A single-column foreign key target.
struct Reference {
  std::string schema, table, column;
};
/// The references of a table's columns and, for those into `dominio` tables, their lookup
/// values ({codigo, descricao} array JSON), by referencing column.
struct FormReferences {
  std::map<std::string, Reference> references;
  std::map<std::string, std::string> values;
};
/// `dominio` null: no lookup values (the caller may not read the domain tables).
FormReferences form_references(store::Pool& db, const store::Layer& table,
                               const store::Catalog* dominio);

/// Record `id` of `table` as a GeoJSON Feature; nullopt when absent.
std::optional<std::string> record_feature(store::Pool& db, const store::Layer& table,
                                          const std::string& id);
/// The latest audit row of record `id` of table `schema_table`; nullopt when none.
std::optional<std::string> last_change(store::Pool& db, const std::string& schema_table,
                                       const std::string& id);

/// Inserts and updates `rows` of `table`, all or nothing; each row's outcome id is the
/// record's id.
service::BatchOutcome write_attributes(store::Pool& db, const store::Layer& table,
                                       const std::vector<AttributeRow>& rows,
                                       const store::Principal& user);

}  // namespace cadastre::server::viewer360
