// Reads of geometries: every list is bounded (paged, or kNearCap rows for the searches
// around a point) and built as JSON by PostgreSQL.
#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/geometries/store.hpp"
#include "platform/geometries/store_write.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geometries {
namespace {

constexpr int kNearCap = 1000;

std::string d(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

// "g.camada_id = $ [and g.geom && envelope]"
void where_layer(store::Sql& q, std::int64_t layer, const std::optional<Box>& bbox) {
  q << "g.camada_id = ";
  q.bind(std::to_string(layer), "bigint");
  if (bbox) {
    q << " and g.geom && st_makeenvelope(";
    q.bind(d(bbox->min_x), "float8") << ", ";
    q.bind(d(bbox->min_y), "float8") << ", ";
    q.bind(d(bbox->max_x), "float8") << ", ";
    q.bind(d(bbox->max_y), "float8") << ", 4674)";
  }
}

void point(store::Sql& q, const Around& a) {
  q << "st_setsrid(st_makepoint(";
  q.bind(d(a.x), "float8") << ", ";
  q.bind(d(a.y), "float8") << "), 4674)";
}

std::string rows_json(store::Pool& pool, const store::Sql& inner) {
  return pool.with([&](soci::session& s) { return *store::fetch_value(s, inner); });
}

}  // namespace

store::PageRows list(store::Pool& pool, std::int64_t layer, const std::optional<Box>& bbox, const Page& page) {
  const char* dir = page.descending ? " desc" : "";
  store::Sql q("select ");
  if (bbox) {
    q << "(select count(*) from projeto.geometrias g where ";
    where_layer(q, layer, bbox);
    q << ")";
  } else {
    common::layer_total(q, layer);
  }
  q << "::text, coalesce(jsonb_agg(r order by r_id" << dir << "), '[]')::text from (select "
    << steps::geometry_sql() << " as r, g.id as r_id from projeto.geometrias g where ";
  where_layer(q, layer, bbox);
  q << " order by g.id" << dir;
  store::append_page(q, page.paging);
  q << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string one(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) { return steps::json_of(s, id); });
}

std::string feature_collection(store::Pool& pool, std::int64_t layer, const std::optional<Box>& bbox, const Page& page) {
  const char* dir = page.descending ? " desc" : "";
  return pool.with([&](soci::session& s) {
    // Properties: id and versao, then the values by field chave, from the geometry's row of
    // the layer's table (a chave named id or versao cannot hide them: they are written last).
    const std::vector<common::LayerField> fields = common::layer_fields(s, layer);
    store::Sql q("select jsonb_build_object('type', 'FeatureCollection', 'numberMatched', (select count(*) from "
                 "projeto.geometrias g where ");
    where_layer(q, layer, bbox);
    q << "), 'numberReturned', count(*), 'features', coalesce(jsonb_agg(f order by f_id" << dir
      << "), '[]'))::text from (select jsonb_build_object('type', 'Feature', 'id', g.id, 'geometry', "
         "st_asgeojson(g.geom, 9, 0)::jsonb, 'properties', "
      << common::values_object_sql(fields, "l")
      << " || jsonb_build_object('id', g.id, 'versao', g.versao)) as f, g.id as f_id from projeto.geometrias g "
         "left join "
      << common::layer_table(layer) << " l on l.id = g.id where ";
    where_layer(q, layer, bbox);
    q << " order by g.id" << dir;
    store::append_page(q, page.paging);
    q << ") p";
    return *store::fetch_value(s, q);
  });
}

std::string within_radius(store::Pool& pool, std::int64_t layer, const Around& a) {
  store::Sql q("select coalesce(jsonb_agg(r order by dist, id), '[]')::text from (select " + steps::geometry_sql() +
               " || jsonb_build_object('distancia', round(st_distance(g.geom::geography, ");
  point(q, a);
  q << "::geography)::numeric, 3)) as r, st_distance(g.geom::geography, ";
  point(q, a);
  q << "::geography) as dist, g.id from projeto.geometrias g where g.camada_id = ";
  q.bind(std::to_string(layer), "bigint") << " and st_dwithin(g.geom::geography, ";
  point(q, a);
  q << "::geography, ";
  q.bind(d(a.r), "float8") << ") order by dist, g.id limit " << std::to_string(kNearCap) << ") p";
  return rows_json(pool, q);
}

std::string at_point(store::Pool& pool, std::int64_t layer, const Around& a) {
  store::Sql q("select coalesce(jsonb_agg(r order by id), '[]')::text from (select " + steps::geometry_sql() +
               " as r, g.id from projeto.geometrias g where g.camada_id = ");
  q.bind(std::to_string(layer), "bigint") << " and st_covers(g.geom, ";
  point(q, a);
  q << ") order by g.id limit " << std::to_string(kNearCap) << ") p";
  return rows_json(pool, q);
}

std::string within_square(store::Pool& pool, std::int64_t layer, const Around& a) {
  // The square's edges: the points r metres west, south, east and north on the ellipsoid.
  auto edge = [&](store::Sql& q, const char* coord, const char* azimuth) {
    q << coord << "(st_project(";
    point(q, a);
    q << "::geography, ";
    q.bind(d(a.r), "float8") << ", radians(" << azimuth << "))::geometry)";
  };
  store::Sql q("select coalesce(jsonb_agg(r order by id), '[]')::text from (select " + steps::geometry_sql() +
               " as r, g.id from projeto.geometrias g where g.camada_id = ");
  q.bind(std::to_string(layer), "bigint") << " and st_intersects(g.geom, st_makeenvelope(";
  edge(q, "st_x", "270");
  q << ", ";
  edge(q, "st_y", "180");
  q << ", ";
  edge(q, "st_x", "90");
  q << ", ";
  edge(q, "st_y", "0");
  q << ", 4674)) order by g.id limit " << std::to_string(kNearCap) << ") p";
  return rows_json(pool, q);
}

std::string intersecting(store::Pool& pool, const std::vector<std::int64_t>& ids, const std::string& wkt) {
  return pool.with([&](soci::session& s) {
    std::string geom = steps::read_or_throw(s, Shape{.wkt = wkt, .geojson = {}, .srid = {}});
    std::string list;
    for (std::int64_t id : ids) list += (list.empty() ? "" : ",") + std::to_string(id);
    store::Sql q("select coalesce(jsonb_agg(jsonb_build_object('id', g.id, 'idCamada', g.camada_id, 'intersecta', "
                 "st_intersects(g.geom, w.geom), 'areaIntersecao', case when st_intersects(g.geom, w.geom) then "
                 "round(st_area(st_intersection(g.geom, w.geom)::geography)::numeric, 3) else 0 end) order by g.id), "
                 "'[]')::text from projeto.geometrias g, (select ");
    q.bind(geom, "geometry") << " as geom) w where ";
    common::where_geometries(q, "g.", "{" + list + "}");
    return *store::fetch_value(s, q);
  });
}

std::int64_t generation(store::Pool& pool, std::int64_t layer) {
  store::Sql q("select geracao::text from projeto.camadas where id = ");
  q.bind(std::to_string(layer), "bigint");
  return pool.with([&](soci::session& s) { return std::stoll(store::fetch_value(s, q).value_or("0")); });
}

}  // namespace cadastre::platform::geometries
