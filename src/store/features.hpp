// GeoJSON output of layer records, built by PostgreSQL in one statement per request
// (json_build_object/json_agg/ST_AsGeoJSON) and sent on as text, so the server never
// materialises rows. Output is RFC 7946: lon/lat in EPSG:4326 (SIRGAS 2000 and WGS 84
// coincide at the centimetre level; the transform is exact here since PROJ's SIRGAS 2000
// to WGS 84 is a null transformation), 7 decimals (≈ 1 cm).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cadastre/bbox.hpp"
#include "cadastre/query.hpp"
#include "store/catalog.hpp"
#include "store/sql.hpp"

namespace cadastre::store {

/// A list request resolved against a layer: every field name has been checked.
struct FeatureQuery {
  const Layer* layer = nullptr;
  std::vector<query::Filter> filters;
  std::optional<geom::BBox> bbox;
  std::vector<query::Sort> sort;
  query::Paging paging;
  /// Extra condition on `t` written by server code (trusted), with its values bound in
  /// the same Sql passed to the builders; empty for none.
  std::string extra_where;
  /// The relation read instead of the layer's table, aliased t (trusted SQL written by
  /// server code, e.g. a subquery that joins in another table's column); empty: the table.
  /// It comes first in the statement: its values are bound in the Sql before the builders
  /// run (placeholders are numbered in the order of the text).
  std::string from;
};

/// Resolves a list query against `layer`: unknown filter/sort fields → 400 unknown_field.
FeatureQuery resolve(const Layer& layer, const query::ListQuery& q);

/// SQL expression of one record of `layer` (alias `alias`) as a GeoJSON Feature (json).
std::string feature_expression(const Layer& layer, std::string_view alias);

/// Appends to `sql` a statement returning one row: (features json array text, count).
void append_feature_page(Sql& sql, const FeatureQuery& q);
/// Appends a statement returning one row: the number of matching records.
void append_count(Sql& sql, const FeatureQuery& q);
/// Appends " where ..." for the filters, bbox and extra condition of `q` (alias t).
void append_where(Sql& sql, const FeatureQuery& q);

/// One page of features as PostgreSQL built it: the features array (JSON text) and how
/// many it holds.
struct FeaturePage {
  std::string features = "[]";
  long long returned = 0;
};
/// Runs a statement of append_feature_page's shape (one row: features array, count).
FeaturePage fetch_features(soci::session& s, const Sql& sql);
/// One page of `q`'s features (append_feature_page, then fetch_features).
FeaturePage fetch_features(soci::session& s, const FeatureQuery& q);

/// SQL expression (jsonb) of the geometry of `alias`'s `geom` column as GeoJSON in lon/lat.
std::string geometry_json(std::string_view alias);
/// SQL expression (jsonb array): the people linked to the property unit whose id is the
/// SQL expression `unit_id` (e.g. "u.id"), each person's columns with papel and percentual,
/// ordered by person and role.
std::string unit_people(std::string_view unit_id);
/// SQL expression (jsonb array): the buildings of the lot whose id is the SQL expression
/// `lot_id`, each building's columns with its geometry as GeoJSON, ordered by id.
std::string lot_buildings(std::string_view lot_id);

/// The bound value text for a filter (LIKE pattern for contains/icontains).
std::string filter_value(const query::Filter& f);

}  // namespace cadastre::store
