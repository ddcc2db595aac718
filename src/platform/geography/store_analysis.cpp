// Overlay analyses of a project's geometry. Areas are geodesic (st_area on geography, the
// SIRGAS 2000 ellipsoid), so they are m² wherever the municipality lies, without choosing
// a UTM zone; shares are intersection area / the geometry's area (and / the feature's).
// A point or line has no area: its shares are null.
#include <soci/soci.h>

#include <functional>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/geography/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geography {
namespace {

constexpr int kMaxFeatures = 1000;

// The overlay of geometry `a` (bound id) with the rows of `source` (a from clause whose
// alias o has id and geom; its own where after `where`), as JSON items built by `item`.
std::string overlay(store::Pool& pool, std::int64_t geometria, const std::string& item, const std::string& source,
                    const std::function<void(store::Sql&)>& where) {
  store::Sql q;
  // SOCI numbers every occurrence of a placeholder: each use binds the id again.
  auto g = [&] { return q.placeholder(std::to_string(geometria), "bigint"); };
  q << "with a as (select st_makevalid(geom) as geom, st_area(geom::geography) as area from projeto.geometrias "
       "where ";
  common::where_geometry(q, "", geometria);
  q << "), x as (select o.*, st_area(st_intersection(a.geom, st_makevalid(o.geom))::geography) as inter, "
    << "st_area(o.geom::geography) as propria from a, " << source << " where st_intersects(a.geom, o.geom) and ";
  where(q);
  q << " order by inter desc, o.id limit " << std::to_string(kMaxFeatures) << ") "
    << "select jsonb_build_object('idGeometria', " << g() << ", 'areaM2', round(a.area::numeric, 2), "
    << "'itens', coalesce((select jsonb_agg(" << item << " || jsonb_build_object('areaIntersecaoM2', "
    << "round(x.inter::numeric, 2), 'proporcao', round((x.inter / nullif(a.area, 0))::numeric, 6), "
    << "'proporcaoDaFeicao', round((x.inter / nullif(x.propria, 0))::numeric, 6)) order by x.inter desc, x.id) "
    << "from x), '[]'))::text from a";
  auto out = pool.with([&](soci::session& s) { return store::fetch_value(s, q); });
  if (!out) throw Error(errc::not_found, "geometria " + std::to_string(geometria) + " não encontrada", "idGeom");
  return *out;
}

}  // namespace

std::string intersect(store::Pool& pool, std::int64_t geometria, std::int64_t camada) {
  return overlay(pool, geometria, "jsonb_build_object('idGeometria', x.id)", "projeto.geometrias o",
                 [&](store::Sql& q) {
                   q << "o.camada_id = ";
                   q.bind(std::to_string(camada), "bigint");
                   q << " and o.id <> ";
                   q.bind(std::to_string(geometria), "bigint");
                 });
}

std::string intersect_zones(store::Pool& pool, std::int64_t geometria) {
  return overlay(pool, geometria, "jsonb_build_object('id', x.id, 'codigo', x.codigo, 'nome', x.nome)",
                 "geografia.zonas o", [](store::Sql& q) { q << "true"; });
}

}  // namespace cadastre::platform::geography
