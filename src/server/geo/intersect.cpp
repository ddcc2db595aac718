#include "server/geo/intersect.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server {
namespace {

// Share of feature `p` covered, 0–100, from its intersection `p._intersecao`. A feature of
// zero size (nullif → null) that intersects is wholly covered: least() ignores the null.
std::string coverage(const std::string& g) {
  return "least(100, round((case ST_Dimension(p." + g + ") when 2 then 100 * ST_Area(p._intersecao::geography) / "
         "nullif(ST_Area(p." + g + "::geography), 0) when 1 then 100 * ST_Length(p._intersecao::geography) / "
         "nullif(ST_Length(p." + g + "::geography), 0) else 100 end)::numeric, 2))";
}

void append_order(store::Sql& sql, const store::FeatureQuery& q) {
  sql << " order by ";
  for (const auto& s : q.sort) sql << "t." << query::quote_identifier(s.field) << (s.descending ? " desc" : " asc") << ", ";
  // A unique key last keeps pages stable.
  if (!q.layer->primary_key.empty()) sql << "t." << query::quote_identifier(q.layer->primary_key);
  else sql << "t.ctid";
}

}  // namespace

IntersectResult intersect_layer(soci::session& s, const store::FeatureQuery& in, const std::string& ewkb_hex) {
  const store::Layer& layer = *in.layer;
  if (layer.geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem geometria para interseção", "camada");
  const std::string g = query::quote_identifier(layer.geometry_column);
  const std::string id = layer.primary_key.empty() ? "null" : "p." + query::quote_identifier(layer.primary_key);

  store::FeatureQuery q = in;
  q.bbox.reset();
  // `consulta` is materialised once; `(select g from consulta)` is an init-plan parameter,
  // so `t.geom && $param` is an index condition on the layer's GiST index.
  q.extra_where = "t." + g + " && (select g from consulta) and ST_Intersects(t." + g + ", (select g from consulta))";

  // Placeholders are numbered in text order, so the statement is written left to right.
  store::Sql sql("with consulta as (select ");
  sql.bind(ewkb_hex, "geometry") << " as g) select coalesce(json_agg(json_build_object('type', 'Feature', 'id', " << id
                                 << ", 'geometry', ST_AsGeoJSON(ST_Transform(p." << g
                                 << ", 4326), 7)::json, 'properties', (to_jsonb(p) - ";
  sql.bind(layer.geometry_column, "text")
      << " - '_intersecao') || jsonb_build_object('area_intersecao_m2', round(ST_Area(p._intersecao::geography)::numeric, 2), "
         "'percentual_coberto', "
      << coverage(g) << "))), '[]')::text, count(*)::text, (select count(*) from " << layer.qualified() << " t";
  store::append_where(sql, q);
  // The intersection sits in the select list of the ordered, limited query: PostgreSQL
  // evaluates such costly expressions after the sort and limit, for the page rows only.
  sql << ")::text from (select t.*, ST_Intersection(t." << g << ", (select g from consulta)) as _intersecao from "
      << layer.qualified() << " t";
  store::append_where(sql, q);
  append_order(sql, q);
  sql << " limit " << std::to_string(q.paging.size) << " offset " << std::to_string(q.paging.offset) << ") p";

  auto rows = store::fetch(s, sql);
  IntersectResult out;
  if (!rows.empty()) {
    out.features = rows[0][0].value_or("[]");
    out.returned = std::stoll(rows[0][1].value_or("0"));
    out.total = std::stoll(rows[0][2].value_or("0"));
  }
  return out;
}

}  // namespace cadastre::server
