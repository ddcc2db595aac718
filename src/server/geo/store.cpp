#include "server/geo/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server::geo {
namespace {

using query::quote_identifier;

// ---------------------------------------------------------------- intersect

// Share of feature `p` covered, 0–100, from its intersection `p._intersecao`. A feature of
// zero size (nullif → null) that intersects is wholly covered: least() ignores the null.
std::string coverage(const std::string& g) {
  return "least(100, round((case ST_Dimension(p." + g + ") when 2 then 100 * ST_Area(p._intersecao::geography) / "
         "nullif(ST_Area(p." + g + "::geography), 0) when 1 then 100 * ST_Length(p._intersecao::geography) / "
         "nullif(ST_Length(p." + g + "::geography), 0) else 100 end)::numeric, 2))";
}

void append_order(store::Sql& sql, const store::FeatureQuery& q) {
  sql << " order by ";
  for (const auto& s : q.sort) sql << "t." << quote_identifier(s.field) << (s.descending ? " desc" : " asc") << ", ";
  // A unique key last keeps pages stable.
  if (!q.layer->primary_key.empty()) sql << "t." << quote_identifier(q.layer->primary_key);
  else sql << "t.ctid";
}

// ---------------------------------------------------------------- filtro_relacionamentos

// "(select r.<column> from lote_ref r)": one value of the lot's row.
std::string lot_value(std::string_view column) {
  return "(select r." + quote_identifier(column) + " from lote_ref r)";
}

std::optional<std::string> key_condition(const store::Layer& lote, const store::Layer& layer) {
  if (lote.primary_key.empty()) return std::nullopt;
  if (layer.name != lote.name && layer.column("lote_id"))
    return "t." + quote_identifier("lote_id") + " = " + lot_value(lote.primary_key);
  if (!layer.primary_key.empty() && lote.column(layer.name + "_id"))
    return "t." + quote_identifier(layer.primary_key) + " = " + lot_value(layer.name + "_id");
  return std::nullopt;
}

std::optional<std::string> spatial_condition(const store::Layer& lote, const store::Layer& layer) {
  if (layer.geometry_column.empty() || lote.geometry_column.empty()) return std::nullopt;
  std::string g = "t." + quote_identifier(layer.geometry_column);
  std::string lg = lot_value(lote.geometry_column);
  // && first: the init-plan value makes it an index condition on the layer's GiST index.
  std::string c = g + " && " + lg + " and ST_Intersects(" + g + ", " + lg + ") and not ST_Touches(" + g + ", " + lg + ")";
  if (layer.name == lote.name && !lote.primary_key.empty())
    c += " and t." + quote_identifier(lote.primary_key) + " <> " + lot_value(lote.primary_key);
  return c;
}

// Appends "with lote_ref as (select * from <lote> where <pk> = <id>) " with `id` bound.
void append_lot_cte(store::Sql& sql, const store::Layer& lote, const std::string& id) {
  const store::Column& pk = *lote.column(lote.primary_key);
  sql << "with lote_ref as (select * from " << lote.qualified() << " l where l." << quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type) << ") ";
}

void require_lot(soci::session& s, const store::Layer& lote, const std::string& id) {
  store::Sql sql("select 1 from ");
  sql << lote.qualified() << " where " << quote_identifier(lote.primary_key) << " = ";
  sql.bind(id, lote.column(lote.primary_key)->type);
  if (!store::fetch_value(s, sql)) throw Error(errc::not_found, "lote " + id + " não encontrado", "id_lote");
}

}  // namespace

IntersectResult intersect_layer(soci::session& s, const store::FeatureQuery& in, const std::string& ewkb_hex) {
  const store::Layer& layer = *in.layer;
  if (layer.geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem geometria para interseção", "camada");
  const std::string g = quote_identifier(layer.geometry_column);
  const std::string id = layer.primary_key.empty() ? "null" : "p." + quote_identifier(layer.primary_key);

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
  store::append_page(sql, q.paging);
  sql << ") p";

  auto rows = store::fetch(s, sql);
  IntersectResult out;
  if (!rows.empty()) {
    out.features = rows[0][0].value_or("[]");
    out.returned = std::stoll(rows[0][1].value_or("0"));
    out.total = std::stoll(rows[0][2].value_or("0"));
  }
  return out;
}

std::optional<LotRelation> lot_relation(const store::Layer& lote, const store::Layer& layer,
                                        std::optional<RelationMode> forced) {
  if (!forced || *forced == RelationMode::key) {
    if (auto c = key_condition(lote, layer)) return LotRelation{RelationMode::key, std::move(*c)};
    if (forced) return std::nullopt;
  }
  if (auto c = spatial_condition(lote, layer)) return LotRelation{RelationMode::spatial, std::move(*c)};
  return std::nullopt;
}

std::vector<long long> relation_counts(soci::session& s, const store::Layer& lote, const std::string& id,
                                       const std::vector<Related>& related) {
  require_lot(s, lote, id);
  std::vector<long long> counts(related.size(), 0);
  if (related.empty()) return counts;
  store::Sql sql;
  append_lot_cte(sql, lote, id);
  for (std::size_t i = 0; i < related.size(); ++i) {
    if (i) sql << " union all ";
    sql << "select " << std::to_string(i) << ", (select count(*) from " << related[i].layer->qualified() << " t where "
        << related[i].relation.condition << ")::text";
  }
  for (const auto& row : store::fetch(s, sql))
    counts.at(std::stoul(row[0].value_or("0"))) = std::stoll(row[1].value_or("0"));
  return counts;
}

std::pair<std::string, long long> related_page(soci::session& s, const store::Layer& lote, const std::string& id,
                                               const store::FeatureQuery& q) {
  require_lot(s, lote, id);
  store::Sql sql;
  append_lot_cte(sql, lote, id);
  store::append_feature_page(sql, q);
  auto page = store::fetch_features(s, sql);
  return {std::move(page.features), page.returned};
}

}  // namespace cadastre::server::geo
