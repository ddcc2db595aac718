#include "store/distance.hpp"

#include <string>

#include "cadastre/query.hpp"

namespace cadastre::store {
namespace {

// An upper bound, in degrees, of `metres` around `reference`: a metre is at most
// 1 / (110 000 · cos φ) degrees at latitude φ (a degree of latitude is ≥ 110 574 m and
// one of longitude ≥ 111 319 · cos φ m), φ taken at the reference's farthest latitude
// plus the distance itself.
std::string degrees_bound(const std::string& reference, const std::string& metres) {
  return "(" + metres + " / (110000 * cos(radians(least(89, greatest(abs(ST_YMin(" + reference +
         ")), abs(ST_YMax(" + reference + "))) + " + metres + " / 110000.0 + 0.01)))) + 1e-9)";
}

}  // namespace

std::string metres_between(const std::string& a, const std::string& b) {
  return "ST_Distance((" + a + ")::geography, (" + b + ")::geography)";
}

std::string within_metres(const std::string& column, const std::string& reference,
                          const std::string& metres) {
  // The planar test uses the GiST index; the geography test decides.
  return "(ST_DWithin(" + column + ", " + reference + ", " + degrees_bound(reference, metres) +
         ") and ST_DWithin((" + column + ")::geography, (" + reference + ")::geography, " + metres +
         "))";
}

std::string nearest_rows(const Layer& layer, const std::string& reference, std::int64_t limit,
                         const std::string& exclude) {
  const std::string geom = "t." + query::quote_identifier(layer.geometry_column);
  const std::string ref = "(select g from ref)";
  const std::string n = std::to_string(limit);
  const std::string and_exclude = exclude.empty() ? "" : " and (" + exclude + ")";
  const std::string key =
      layer.primary_key.empty() ? "" : ", t." + query::quote_identifier(layer.primary_key);
  // 1. The `limit` nearest in degrees (KNN on the index); the farthest of them, in metres,
  //    bounds the metric answer: at least `limit` records lie that close. A centimetre is
  //    added because ST_DWithin and ST_Distance on geography may differ in the last digits,
  //    which would drop a record lying exactly at the bound.
  // 2. Every record within that many metres (index-bounded), ordered on the spheroid.
  return "(with ref as materialized (select " + reference +
         " as g), reach as (select max(d) + 0.01 as metros from (select " +
         metres_between(geom, ref) + " as d from " + layer.qualified() + " t where true" +
         and_exclude + " order by " + geom + " <-> " + ref + " limit " + n +
         ") cand) select t.*, round(d.m::numeric, 2) as distancia_m, row_number() over (order by "
         "d.m" +
         key + ") as ordem from " + layer.qualified() + " t cross join lateral (select " +
         metres_between(geom, ref) + " as m) d where " +
         within_metres(geom, ref, "(select metros from reach)") + and_exclude + " order by d.m" +
         key + " limit " + n + ")";
}

}  // namespace cadastre::store
