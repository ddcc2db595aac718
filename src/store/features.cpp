#include "store/features.hpp"

#include <cstdlib>

#include "cadastre/error.hpp"
#include "store/prepared.hpp"

namespace cadastre::store {
namespace {
std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

std::string source(const FeatureQuery& q) { return q.from.empty() ? q.layer->qualified() : q.from; }
}  // namespace

FeatureQuery resolve(const Layer& layer, const query::ListQuery& q) {
  FeatureQuery out;
  out.layer = &layer;
  for (const auto& f : q.filters) {
    const Column& c = layer.require_column(f.field, f.field);
    if (c.geometry) throw Error(errc::invalid_argument, "não é possível filtrar por geometria com '" + f.field + "'", f.field);
    if (f.type == query::FilterType::exact && c.numeric()) {
      // A clear 400 naming the field, instead of PostgreSQL's cast error.
      char* end = nullptr;
      std::strtod(f.value.c_str(), &end);
      if (f.value.empty() || end != f.value.c_str() + f.value.size())
        throw Error(errc::invalid_argument, "o campo '" + f.field + "' espera um número, recebido '" + f.value + "'", f.field);
    }
    out.filters.push_back(f);
  }
  for (const auto& s : q.sort) {
    const Column& c = layer.require_column(s.field, "sort");
    if (c.geometry) throw Error(errc::invalid_argument, "não é possível ordenar por geometria", "sort");
    out.sort.push_back(s);
  }
  if (q.bbox) {
    if (layer.geometry_column.empty())
      throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem geometria para filtrar por bbox", "minLongitude");
    out.bbox = q.bbox;
  }
  out.paging = q.paging;
  return out;
}

std::string feature_expression(const Layer& layer, std::string_view alias) {
  std::string a(alias);
  std::string id = layer.primary_key.empty() ? "null" : a + "." + query::quote_identifier(layer.primary_key);
  std::string geometry = "null";
  std::string properties = "to_jsonb(" + a + ")";
  if (!layer.geometry_column.empty()) {
    std::string g = a + "." + query::quote_identifier(layer.geometry_column);
    geometry = "ST_AsGeoJSON(ST_Transform(" + g + ", 4326), 7)::json";
    properties += " - " + std::string("'") + layer.geometry_column + "'";  // identifier rules: no quotes inside
  }
  return "json_build_object('type', 'Feature', 'id', " + id + ", 'geometry', " + geometry + ", 'properties', " +
         properties + ")";
}

std::string filter_value(const query::Filter& f) {
  return f.type == query::FilterType::exact ? f.value : query::like_pattern(f.type, f.value);
}

void append_where(Sql& sql, const FeatureQuery& q) {
  const Layer& layer = *q.layer;
  bool first = true;
  auto next = [&] {
    sql << (first ? " where " : " and ");
    first = false;
  };
  for (const auto& f : q.filters) {
    const Column& c = *layer.column(f.field);
    std::string col = "t." + query::quote_identifier(c.name);
    next();
    if (f.type == query::FilterType::exact) {
      sql << col << " = ";
      sql.bind(f.value, c.type);
    } else {
      sql << (c.textual() ? col : col + "::text") << " " << query::sql_operator(f.type) << " ";
      sql.bind(filter_value(f));
      sql << " escape '\\'";
    }
  }
  if (q.bbox) {
    next();
    const auto& b = *q.bbox;
    sql << "ST_Intersects(t." << query::quote_identifier(layer.geometry_column) << ", ST_MakeEnvelope(";
    sql.bind(number_text(b.min_lon), "float8") << ", ";
    sql.bind(number_text(b.min_lat), "float8") << ", ";
    sql.bind(number_text(b.max_lon), "float8") << ", ";
    sql.bind(number_text(b.max_lat), "float8") << ", 4674))";
  }
  if (!q.extra_where.empty()) {
    next();
    sql << "(" << q.extra_where << ")";
  }
}

void append_feature_page(Sql& sql, const FeatureQuery& q) {
  const Layer& layer = *q.layer;
  sql << "select coalesce(json_agg(" << feature_expression(layer, "t") << "), '[]')::text, count(*)::text from (select * from "
      << source(q) << " t";
  append_where(sql, q);
  sql << " order by ";
  for (const auto& s : q.sort) sql << "t." << query::quote_identifier(s.field) << (s.descending ? " desc" : " asc") << ", ";
  // A unique key last keeps pages stable: no record appears on two pages or none.
  if (!layer.primary_key.empty()) sql << "t." << query::quote_identifier(layer.primary_key);
  else sql << "t.ctid";
  // Bound, so that every page of one shape of query is one prepared statement.
  sql << " limit ";
  sql.bind(std::to_string(q.paging.size), "bigint") << " offset ";
  sql.bind(std::to_string(q.paging.offset), "bigint") << ") t";
}

void append_count(Sql& sql, const FeatureQuery& q) {
  sql << "select count(*)::text from " << source(q) << " t";
  append_where(sql, q);
}

namespace {

// A page's row: the features' JSON array and how many they are.
FeaturePage page_of(const std::vector<Row>& rows) {
  FeaturePage p;
  if (!rows.empty()) {
    p.features = rows[0][0].value_or("[]");
    p.returned = std::stoll(rows[0][1].value_or("0"));
  }
  return p;
}

}  // namespace

FeaturePage fetch_features(soci::session& s, const Sql& sql) { return page_of(fetch(s, sql)); }

FeaturePage fetch_features(soci::session& s, const FeatureQuery& q) {
  Sql sql;
  append_feature_page(sql, q);
  // The list routes' page (a map client's bbox page: hot), prepared per connection.
  return page_of(fetch(s, sql.reuse_plan()));
}

std::string geometry_json(std::string_view alias) {
  return "ST_AsGeoJSON(ST_Transform(" + std::string(alias) + ".geom, 4326), 7)::jsonb";
}

std::string unit_people(std::string_view unit_id) {
  return "(select coalesce(jsonb_agg(to_jsonb(p) || jsonb_build_object('papel', ip.papel, 'percentual', "
         "ip.percentual) order by p.id, ip.papel), '[]'::jsonb) from cadastro.imobiliario_pessoa ip join "
         "cadastro.pessoa p on p.id = ip.pessoa_id where ip.imobiliario_id = " +
         std::string(unit_id) + ")";
}

std::string lot_buildings(std::string_view lot_id) {
  return "(select coalesce(jsonb_agg((to_jsonb(e) - 'geom') || jsonb_build_object('geometry', " + geometry_json("e") +
         ") order by e.id), '[]'::jsonb) from cadastro.edificacao e where e.lote_id = " + std::string(lot_id) + ")";
}

}  // namespace cadastre::store
