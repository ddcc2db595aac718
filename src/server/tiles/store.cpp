#include "server/tiles/store.hpp"

#include <cstdint>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server {
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
  if (is_any(c.base_type, {"json", "jsonb"})) return col + "::text as " + query::quote_identifier(c.name);
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
    throw Error(errc::not_found, "a camada " + layer.name + " não tem geometria: não há tiles para ela", "layer");
  if (layer.column(layer.geometry_column)->srid == 0)
    throw Error(errc::invalid_argument,
                "a geometria da camada " + layer.name + " não declara SRID: não é possível projetá-la em tiles", "layer");
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
  return "select ST_AsMVT(q, $4::text, 4096, $5::text) from (select " + select + "ST_AsMVTGeom(ST_Transform(t." + geom +
         ", 3857), " + envelope + ", 4096, 64, true) as " + geom + " from " + layer.qualified() + " t where t." + geom +
         " && ST_Transform(" + envelope + ", " + std::to_string(g.srid) + ")) q";
}

std::string generation_sql() {
  return "select coalesce((select geracao from auditoria.geracao_camada where camada = $1), 0)::text";
}

std::string extent_sql(const store::Layer& layer) {
  const store::Column& g = *layer.column(layer.geometry_column);
  // The extent box is transformed as a polygon, so its lon/lat envelope covers the layer
  // whatever the projection of the stored data.
  return "select ST_XMin(e)::text, ST_YMin(e)::text, ST_XMax(e)::text, ST_YMax(e)::text from (select ST_Transform(ST_SetSRID(ST_Extent(t." +
         query::quote_identifier(g.name) + ")::geometry, " + std::to_string(g.srid) + "), 4326) as e from " +
         layer.qualified() + " t) x";
}

std::vector<std::pair<std::string, std::string>> tile_fields(const store::Layer& layer) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& c : layer.columns)
    if (!c.geometry) out.emplace_back(c.name, field_type(c));
  return out;
}

std::string digest(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = hex[h & 0xF];
  return out;
}

}  // namespace cadastre::server
