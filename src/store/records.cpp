#include "store/records.hpp"

#include <algorithm>

#include <simdjson.h>
#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/geom.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "store/audit.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace cadastre::store {
namespace {

std::string field_name(std::string_view prefix, std::string_view name) {
  return prefix.empty() ? std::string(name) : std::string(prefix) + "." + std::string(name);
}

std::string checked_geometry(const Layer& layer, simdjson::dom::element g, std::string_view prefix) {
  std::string field = field_name(prefix, layer.geometry_column);
  std::string text = simdjson::minify(g);
  geom::Geometry geometry = geom::Geometry::from_geojson(text);
  auto b = geometry.bbox();
  if (b.min_lon < -180 || b.max_lon > 180 || b.min_lat < -90 || b.max_lat > 90)
    throw Error(errc::invalid_geometry, "coordenadas fora de longitude/latitude (use lon/lat em graus)", field);
  auto v = geometry.validity();
  if (!v.valid) throw Error(errc::invalid_geometry, "geometria inválida: " + v.reason, field);
  if (geometry.is_empty()) throw Error(errc::invalid_geometry, "geometria vazia", field);
  return text;
}

// The geometry expression for the column: SIRGAS 2000, promoted to Multi* when the column
// is a multi type and the input a single part.
std::string geometry_sql(Sql& sql, const Layer& layer, const std::string& geojson) {
  const Column& c = *layer.column(layer.geometry_column);
  std::string g = "ST_SetSRID(ST_GeomFromGeoJSON(" + sql.placeholder(geojson) + "), " +
                  std::to_string(c.srid ? c.srid : 4674) + ")";
  if (c.geometry_type.rfind("Multi", 0) == 0) g = "ST_Multi(" + g + ")";
  return g;
}

void touch_updated_at(const Layer& layer, const RecordInput& in, std::string& assignments) {
  if (layer.column("atualizado_em") &&
      std::find(in.columns.begin(), in.columns.end(), "atualizado_em") == in.columns.end())
    assignments += (assignments.empty() ? "" : ", ") + std::string("atualizado_em = now()");
}

// The table as written in auditoria.registro.tabela: schema.name, unquoted.
std::string audit_name(const Layer& layer) { return layer.schema + "." + layer.name; }

}  // namespace

RecordInput parse_record_element(const Layer& layer, const void* element, std::string_view prefix) {
  auto e = *static_cast<const simdjson::dom::element*>(element);
  auto obj = jsonin::as_object(e, prefix.empty() ? "corpo" : prefix);
  // A GeoJSON Feature: columns in "properties", geometry in "geometry", id in "id".
  std::optional<simdjson::dom::element> feature_geometry;
  std::optional<simdjson::dom::element> feature_id;
  std::optional<simdjson::dom::object> columns = obj;
  std::string_view type;
  if (!obj["type"].get(type) && type == "Feature") {
    simdjson::dom::element props, g, id;
    if (!obj["geometry"].get(g) && !g.is_null()) feature_geometry = g;
    if (!obj["id"].get(id) && !id.is_null()) feature_id = id;
    if (obj["properties"].get(props) || props.is_null()) columns.reset();
    else columns = jsonin::as_object(props, field_name(prefix, "properties"));
  }
  RecordInput in;
  std::string props = "{";
  auto add_column = [&](std::string_view key, simdjson::dom::element v) {
    const Column& c = layer.require_column(key, field_name(prefix, key));
    if (c.geometry) {
      in.geometry_geojson = checked_geometry(layer, v, prefix);
      return;
    }
    if (c.primary_key && !v.is_null()) in.id = v.is_string() ? std::string(std::string_view(v)) : simdjson::minify(v);
    if (props.size() > 1) props += ",";
    append_json_string(props, key);
    props += ":" + simdjson::minify(v);
    in.columns.emplace_back(key);
  };
  if (columns) {
    for (auto [key, value] : *columns) {
      if (key == "geometry" && !layer.geometry_column.empty() && !layer.column("geometry")) {
        if (!value.is_null()) in.geometry_geojson = checked_geometry(layer, value, prefix);
        continue;
      }
      add_column(key, value);
    }
  }
  if (feature_geometry) in.geometry_geojson = checked_geometry(layer, *feature_geometry, prefix);
  if (feature_id && !in.id && !layer.primary_key.empty()) add_column(layer.primary_key, *feature_id);
  props += "}";
  in.properties_json = std::move(props);
  return in;
}

RecordInput parse_record(const Layer& layer, std::string_view json, std::string_view prefix) {
  simdjson::dom::parser parser;
  auto e = jsonin::parse(parser, json);
  return parse_record_element(layer, &e, prefix);
}

Written insert_record(soci::session& s, const Layer& layer, const RecordInput& in, const Principal& user) {
  if (layer.is_view) throw Error(errc::invalid_argument, "a camada " + layer.name + " é uma visão e não aceita escrita");
  Sql sql("insert into " + layer.qualified() + " as t (");
  std::string cols, values;
  for (const auto& c : in.columns) {
    cols += (cols.empty() ? "" : ", ") + query::quote_identifier(c);
    values += (values.empty() ? "" : ", ") + std::string("r.") + query::quote_identifier(c);
  }
  if (in.geometry_geojson) {
    cols += (cols.empty() ? "" : ", ") + query::quote_identifier(layer.geometry_column);
    values += (values.empty() ? "" : ", ") + geometry_sql(sql, layer, *in.geometry_geojson);
  }
  if (cols.empty()) throw Error(errc::missing_field, "o corpo não tem nenhum campo da camada " + layer.name);
  std::string record = sql.placeholder(in.properties_json, "jsonb");
  sql << cols << ") select " << values << " from jsonb_populate_record(null::" << layer.qualified() << ", " << record
      << ") r returning ";
  std::string pk = layer.primary_key.empty() ? "null" : "t." + query::quote_identifier(layer.primary_key) + "::text";
  sql << pk << ", " << feature_expression(layer, "t") << "::text, to_jsonb(t)::text";
  auto rows = fetch(s, sql);
  Written w{rows.at(0)[0].value_or(""), rows.at(0)[1].value_or("null")};
  record_audit(s, audit_name(layer), w.id, Operation::insert, user, std::nullopt, rows.at(0)[2]);
  bump_generation(s, layer.name);
  return w;
}

Written update_record(soci::session& s, const Layer& layer, const RecordInput& in, const Principal& user) {
  if (layer.primary_key.empty()) throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem chave primária");
  if (!in.id) throw Error(errc::missing_field, "o corpo precisa do campo '" + layer.primary_key + "'", layer.primary_key);
  const Column& pk = *layer.column(layer.primary_key);
  std::string key = query::quote_identifier(pk.name);

  Sql before("select to_jsonb(t)::text from " + layer.qualified() + " t where t." + key + " = ");
  before.bind(*in.id, pk.type) << " for update";
  auto old = fetch_value(s, before);
  if (!old) throw Error(errc::not_found, "registro " + *in.id + " não encontrado em " + layer.name);

  Sql sql("update " + layer.qualified() + " t set ");
  std::string assignments;
  for (const auto& c : in.columns) {
    if (c == pk.name) continue;
    std::string q = query::quote_identifier(c);
    assignments += (assignments.empty() ? "" : ", ") + q + " = r." + q;
  }
  if (in.geometry_geojson)
    assignments += (assignments.empty() ? "" : ", ") + query::quote_identifier(layer.geometry_column) + " = " +
                   geometry_sql(sql, layer, *in.geometry_geojson);
  if (assignments.empty()) throw Error(errc::missing_field, "nada a atualizar: informe ao menos um campo além do id");
  touch_updated_at(layer, in, assignments);
  std::string record = sql.placeholder(in.properties_json, "jsonb");
  sql << assignments << " from jsonb_populate_record(null::" << layer.qualified() << ", " << record << ") r where t."
      << key << " = ";
  sql.bind(*in.id, pk.type) << " returning " << feature_expression(layer, "t") << "::text, to_jsonb(t)::text";
  auto rows = fetch(s, sql);
  record_audit(s, audit_name(layer), *in.id, Operation::update, user, old, rows.at(0)[1]);
  bump_generation(s, layer.name);
  return {*in.id, rows.at(0)[0].value_or("null")};
}

namespace {
// Deletes the rows of `table` where `where_before` <id bound as integer> `where_after`,
// auditing each one.
long long delete_audited(soci::session& s, const std::string& table, const std::string& key_expr,
                         const std::string& where_before, const std::string& where_after, const std::string& id,
                         const Principal& user) {
  Sql sql("delete from " + table + " t where " + where_before);
  sql.bind(id, "integer") << where_after << " returning " << key_expr << ", to_jsonb(t)::text";
  auto rows = fetch(s, sql);
  for (const auto& r : rows) record_audit(s, table, r[0].value_or(""), Operation::remove, user, r[1], std::nullopt);
  return static_cast<long long>(rows.size());
}
}  // namespace

long long delete_record(soci::session& s, const Layer& layer, const std::string& id, const Principal& user) {
  if (layer.primary_key.empty()) throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem chave primária");
  const Column& pk = *layer.column(layer.primary_key);
  long long removed = 0;
  // The main relations go first, explicitly, so each removed row has its audit entry
  // (the foreign keys would cascade silently).
  if (layer.schema == "cadastro" && layer.name == "lote") {
    removed += delete_audited(s, "cadastro.imobiliario_pessoa", "t.imobiliario_id::text || '/' || t.pessoa_id::text",
                              "t.imobiliario_id in (select id from cadastro.imobiliario where lote_id = ", ")", id, user);
    removed += delete_audited(s, "cadastro.imobiliario", "t.id::text", "t.lote_id = ", "", id, user);
    removed += delete_audited(s, "cadastro.edificacao", "t.id::text", "t.lote_id = ", "", id, user);
  } else if (layer.schema == "cadastro" && layer.name == "imobiliario") {
    removed += delete_audited(s, "cadastro.imobiliario_pessoa", "t.imobiliario_id::text || '/' || t.pessoa_id::text",
                              "t.imobiliario_id = ", "", id, user);
  }
  Sql sql("delete from " + layer.qualified() + " t where t." + query::quote_identifier(pk.name) + " = ");
  sql.bind(id, pk.type) << " returning to_jsonb(t)::text";
  auto old = fetch_value(s, sql);
  if (!old) throw Error(errc::not_found, "registro " + id + " não encontrado em " + layer.name);
  record_audit(s, audit_name(layer), id, Operation::remove, user, old, std::nullopt);
  bump_generation(s, layer.name);
  return removed + 1;
}

void check_cadastre_reference(soci::session& s, std::string_view member, const std::string& id) {
  if (member != "lote_id" && member != "imobiliario_id") return;
  const bool lot = member == "lote_id";
  Sql sql(lot ? "select 1 from cadastro.lote where id = " : "select 1 from cadastro.imobiliario where id = ");
  sql.bind(id, "integer");
  if (fetch(s, sql).empty())
    throw Error(errc::invalid_argument, (lot ? "lote " : "imóvel ") + id + " não existe no cadastro", std::string(member));
}

}  // namespace cadastre::store
