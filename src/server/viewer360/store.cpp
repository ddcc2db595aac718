#include "server/viewer360/store.hpp"

#include <soci/soci.h>

#include <array>
#include <charconv>

#include "cadastre/query.hpp"
#include "store/distance.hpp"
#include "store/features.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace cadastre::server::viewer360 {
namespace {

std::string number_text(double v) {
  char buf[40];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::string geom_of(const store::Layer& layer, std::string_view alias) {
  return std::string(alias) + "." + query::quote_identifier(layer.geometry_column);
}

// A panorama row (`row`: an alias or a composite expression) as JSON: its columns, the
// geometry as GeoJSON lon/lat.
std::string panorama_json(const store::Layer& pano, std::string_view row) {
  const std::string r(row);
  return "(to_jsonb(" + r + ") - '" + pano.geometry_column +
         "' || jsonb_build_object('geometry', " + "ST_AsGeoJSON(ST_Transform(" + geom_of(pano, r) +
         ", 4326), 7)::jsonb))";
}

// Starts `sql` with the CTE c of the path's panorama: its key (pid), geometry (g), the
// distance (d) and any further `values` (name, text, cast). Placeholders are positional,
// so each value is bound once, in text order, and the rest of the query reads them from c.
void panorama_cte(store::Sql& sql, const store::Layer& pano, const std::string& id, double distance,
                  const std::vector<std::array<std::string, 3>>& values = {}) {
  const store::Column& pk = *pano.column(pano.primary_key);
  sql << "with c as materialized (select p." << query::quote_identifier(pk.name) << " as pid, "
      << geom_of(pano, "p") << " as g, ";
  sql.bind(number_text(distance), "float8") << " as d";
  for (const auto& [name, text, cast] : values) {
    sql << ", ";
    sql.bind(text, cast) << " as " << name;
  }
  sql << " from " << pano.qualified() << " p where p." << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type) << ")";
}

Around around(store::Pool& db, const store::Sql& sql) {
  auto row = db.with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  Around out;
  out.found = row[0].value_or("0") != "0";
  out.total = std::stoll(row[1].value_or("0"));
  out.rows = row[2].value_or("[]");
  return out;
}

// Single-column foreign keys of the table, by referencing column.
std::map<std::string, Reference> references(soci::session& s, const store::Layer& layer) {
  store::Sql sql(
      "select a.attname::text, rn.nspname::text, rc.relname::text, ra.attname::text from "
      "pg_constraint k "
      "join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1] "
      "join pg_class rc on rc.oid = k.confrelid join pg_namespace rn on rn.oid = rc.relnamespace "
      "join pg_attribute ra on ra.attrelid = k.confrelid and ra.attnum = k.confkey[1] "
      "where k.contype = 'f' and cardinality(k.conkey) = 1 and k.conrelid = to_regclass(");
  sql.bind(layer.qualified()) << ")";
  std::map<std::string, Reference> out;
  for (const auto& r : store::fetch(s, sql))
    out[r[0].value_or("")] = {r[1].value_or(""), r[2].value_or(""), r[3].value_or("")};
  return out;
}

// Lookup values ({codigo, descricao} ordered by code) of the referenced domain tables, by
// referencing column, in one statement. Only tables of the dominio catalog with a
// descricao column are read; names reach SQL quoted, after that check.
std::map<std::string, std::string> lookups(soci::session& s, const store::Catalog& dominio,
                                           const std::map<std::string, Reference>& refs) {
  store::Sql sql;
  for (const auto& [column, ref] : refs) {
    const store::Layer* d = ref.schema == "dominio" ? dominio.find(ref.table) : nullptr;
    if (!d || !d->column("descricao") || !d->column(ref.column)) continue;
    const std::string code = "d." + query::quote_identifier(ref.column);
    if (!sql.text().empty()) sql << " union all ";
    sql << "select ";
    sql.bind(column) << "::text, (select coalesce(json_agg(json_build_object('codigo', " << code
                     << ", 'descricao', d.descricao) order by " << code << "), '[]') from "
                     << d->qualified() << " d)::text";
  }
  std::map<std::string, std::string> out;
  if (sql.text().empty()) return out;
  for (const auto& r : store::fetch(s, sql)) out[r[0].value_or("")] = r[1].value_or("[]");
  return out;
}

}  // namespace

Nearest nearest_panorama(store::Pool& db, const store::Layer& feature, const std::string& id,
                         const store::Layer& pano, bool azimuth) {
  const store::Column& pk = *feature.column(feature.primary_key);
  const int srid = pano.column(pano.geometry_column)->srid;
  store::Sql sql("with f as materialized (select ST_PointOnSurface(ST_Transform(");
  sql << geom_of(feature, "r") << ", " << std::to_string(srid > 0 ? srid : 4674) << ")) as p from "
      << feature.qualified() << " r where r." << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type)
      << ") select (select count(*) from f)::text, (select json_build_object('camada', ";
  sql.bind(feature.name) << "::text, 'id', ";
  sql.bind(id) << "::text, 'ponto', ST_AsGeoJSON(ST_Transform((select p from f), 4326), 7)::json, "
                  "'panorama', "
               << panorama_json(pano, "n")
               << " - 'distancia_m' - 'ordem', 'distancia_m', n.distancia_m";
  if (azimuth) {
    // Clockwise from north, from the panorama to the feature; null when they coincide.
    sql << ", 'azimute', round(degrees(ST_Azimuth(" << geom_of(pano, "n")
        << "::geography, (select p from f)::geography))::numeric, 2)";
  }
  sql << ")::text from " << store::nearest_rows(pano, "(select p from f)", 1) << " n)";
  auto row = db.with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  return {row[0].value_or("0") != "0", row[1]};
}

Around panoramas_in_radius(store::Pool& db, const store::Layer& pano, const std::string& id,
                           double distance, double height, std::int64_t limit) {
  const std::string key = query::quote_identifier(pano.primary_key);
  store::Sql sql;
  panorama_cte(sql, pano, id, distance, {{"h", number_text(height), "numeric"}});
  sql << ", hits as (select t as p, t." << key << " as pid, "
      << store::metres_between(geom_of(pano, "t"), "(select g from c)") << " as m from "
      << pano.qualified() << " t where "
      << store::within_metres(geom_of(pano, "t"), "(select g from c)", "(select d from c)")
      << " and t." << key << " <> (select pid from c) and abs(t.altura - (select h from c)) <= "
      << number_text(kHeightTolerance)
      << ") select (select count(*) from c)::text, (select count(*) from hits)::text, "
      << "(select coalesce(json_agg(" << panorama_json(pano, "(h.p)")
      << " || jsonb_build_object('distancia_m', round(h.m::numeric, 2)) order by h.m, h.pid), "
         "'[]') from (select * "
      << "from hits order by m, pid limit " << std::to_string(limit) << ") h)::text";
  return around(db, sql);
}

Around units_in_radius(store::Pool& db, const store::Layer& pano, const store::Layer& units,
                       const store::Layer& lots, const std::string& id, double distance,
                       std::int64_t limit) {
  // A unit has no geometry of its own: it is where its lot is.
  store::Sql sql;
  panorama_cte(sql, pano, id, distance);
  sql << ", hits as (select u, " << geom_of(lots, "l") << " as lg, u.id as uid, "
      << store::metres_between(geom_of(lots, "l"), "(select g from c)") << " as m from "
      << units.qualified() << " u join " << lots.qualified() << " l on l.id = u.lote_id where "
      << store::within_metres(geom_of(lots, "l"), "(select g from c)", "(select d from c)")
      << ") select (select count(*) from c)::text, (select count(*) from hits)::text, "
      << "(select coalesce(json_agg(json_build_object('type', 'Feature', 'id', h.uid, 'geometry', "
      << "ST_AsGeoJSON(ST_Transform(ST_PointOnSurface(h.lg), 4326), 7)::json, 'properties', "
         "to_jsonb(h.u) || "
      << "jsonb_build_object('distancia_m', round(h.m::numeric, 2))) order by h.m, h.uid), '[]') "
         "from "
      << "(select * from hits order by m, uid limit " << std::to_string(limit) << ") h)::text";
  return around(db, sql);
}

FormReferences form_references(store::Pool& db, const store::Layer& table,
                               const store::Catalog* dominio) {
  FormReferences out;
  db.run([&](soci::session& s) {
    out.references = references(s, table);
    if (dominio) out.values = lookups(s, *dominio, out.references);
  });
  return out;
}

std::optional<std::string> record_feature(store::Pool& db, const store::Layer& table,
                                          const std::string& id) {
  const store::Column& pk = *table.column(table.primary_key);
  store::Sql sql("select ");
  sql << store::feature_expression(table, "t") << "::text from " << table.qualified()
      << " t where t." << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type);
  return db.with([&](soci::session& s) { return store::fetch_value(s, sql); });
}

std::optional<std::string> last_change(store::Pool& db, const std::string& schema_table,
                                       const std::string& id) {
  // The audit trail names tables schema.table, as records.cpp and the domain routes write them.
  store::Sql sql(
      "select json_build_object('schema_table', a.tabela, 'registro_id', a.registro_id, "
      "'operacao', case a.operacao "
      "when 'I' then 'insercao' when 'U' then 'alteracao' else 'exclusao' end, 'usuario_id', "
      "a.usuario_id, "
      "'usuario_email', a.usuario_email, 'em', a.em)::text from auditoria.registro a where "
      "a.tabela = ");
  sql.bind(schema_table) << " and a.registro_id = ";
  sql.bind(id) << " order by a.em desc, a.id desc limit 1";
  return db.with([&](soci::session& s) { return store::fetch_value(s, sql); });
}

service::BatchOutcome write_attributes(store::Pool& db, const store::Layer& table,
                                       const std::vector<AttributeRow>& rows,
                                       const store::Principal& user) {
  return service::run_batch(db, rows.size(), [&](soci::session& s, std::size_t k) {
    const AttributeRow& row = rows[k];
    return (row.update ? store::update_record(s, table, row.input, user)
                       : store::insert_record(s, table, row.input, user))
        .id;
  });
}

}  // namespace cadastre::server::viewer360
