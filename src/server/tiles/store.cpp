#include "server/tiles/store.hpp"

#include <soci/soci.h>

#include <cstdint>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "store/pool.hpp"
#include "store/prepared.hpp"
#include "store/sql.hpp"

namespace cadastre::server::tiles {
namespace {

bool is_any(std::string_view type, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (type == n) return true;
  return false;
}

// ST_AsMVT encodes bool, integers and floats natively and every other type through its
// text output, except json/jsonb, whose keys it would spread into separate properties.
// numeric becomes float8 so clients get numbers (area_terreno, testada...), json text.
std::string property_expression(const store::Column& c) {
  std::string col = "t." + query::quote_identifier(c.name);
  if (c.base_type == "numeric") return col + "::float8 as " + query::quote_identifier(c.name);
  if (is_any(c.base_type, {"json", "jsonb"}))
    return col + "::text as " + query::quote_identifier(c.name);
  return col;
}

std::string field_type(const store::Column& c) {
  if (c.base_type == "bool") return "Boolean";
  if (is_any(c.base_type, {"int2", "int4", "int8", "float4", "float8", "numeric"})) return "Number";
  return "String";
}

}  // namespace

void require_tileable(const store::Layer& layer) {
  if (layer.geometry_column.empty())
    throw Error(errc::not_found,
                "a camada " + layer.name + " não tem geometria: não há tiles para ela", "layer");
  if (layer.column(layer.geometry_column)->srid == 0)
    throw Error(errc::invalid_argument,
                "a geometria da camada " + layer.name +
                    " não declara SRID: não é possível projetá-la em tiles",
                "layer");
}

std::string tile_sql(const store::Layer& layer) {
  const store::Column& g = *layer.column(layer.geometry_column);
  const std::string geom = query::quote_identifier(g.name);
  const std::string envelope = "ST_TileEnvelope($1::integer, $2::integer, $3::integer)";
  std::string select;
  for (const auto& c : layer.columns)
    if (!c.geometry) select += property_expression(c) + ", ";
  // The && filter compares the stored geometry with the tile envelope in the layer's own
  // SRID, so the GiST index on the column is used; only the matching rows are projected.
  return "select ST_AsMVT(q, $4::text, 4096, $5::text) from (select " + select +
         "ST_AsMVTGeom(ST_Transform(t." + geom + ", 3857), " + envelope + ", 4096, 64, true) as " +
         geom + " from " + layer.qualified() + " t where t." + geom + " && ST_Transform(" +
         envelope + ", " + std::to_string(g.srid) + ")) q";
}

std::string generation_sql() {
  return "select coalesce((select geracao from auditoria.geracao_camada where camada = $1), "
         "0)::text";
}

std::string extent_sql(const store::Layer& layer) {
  const store::Column& g = *layer.column(layer.geometry_column);
  // The extent box is transformed as a polygon, so its lon/lat envelope covers the layer
  // whatever the projection of the stored data.
  return "select ST_XMin(e)::text, ST_YMin(e)::text, ST_XMax(e)::text, ST_YMax(e)::text from "
         "(select ST_Transform(ST_SetSRID(ST_Extent(t." +
         query::quote_identifier(g.name) + ")::geometry, " + std::to_string(g.srid) +
         "), 4326) as e from " + layer.qualified() + " t) x";
}

std::vector<std::pair<std::string, std::string>> tile_fields(const store::Layer& layer) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& c : layer.columns)
    if (!c.geometry) out.emplace_back(c.name, field_type(c));
  return out;
}

// ---------------------------------------------------------------- reads of the routes

TileAnswer render_tile(store::Pool& db, const store::Layer& layer, const cadastre::tiles::Tile& t,
                       const std::function<bool(const std::string&)>& fresh) {
  const std::string sql = tile_sql(layer);
  return db.with([&](soci::session& s) {
    TileAnswer o;
    // The layer generation (bumped by every write) and the statement digest (a new
    // column changes the tiles) make the ETag.
    auto generation = store::run_prepared_binary(s, generation_sql(), {layer.name});
    o.etag =
        "\"" + generation.at(0).at(0).value_or("0") + "-" + store::digest(sql).substr(0, 8) + "\"";
    if (fresh(o.etag)) {
      o.not_modified = true;
      return o;
    }
    auto rows =
        store::run_prepared_binary(s, sql,
                                   {std::to_string(t.z), std::to_string(t.x), std::to_string(t.y),
                                    layer.name, layer.geometry_column});
    if (!rows.empty() && rows[0][0]) o.mvt = std::move(*rows[0][0]);
    return o;
  });
}

std::optional<std::array<double, 4>> extent(store::Pool& db, const store::Layer& layer) {
  auto rows =
      db.with([&](soci::session& s) { return store::fetch(s, store::Sql(extent_sql(layer))); });
  const auto& e = rows.empty() ? store::Row{} : rows[0];
  if (e.size() != 4 || !e[0] || !e[1] || !e[2] || !e[3]) return std::nullopt;
  return std::array<double, 4>{std::stod(*e[0]), std::stod(*e[1]), std::stod(*e[2]),
                               std::stod(*e[3])};
}

}  // namespace cadastre::server::tiles
