#include "platform/layers/store_check.hpp"

#include <soci/soci.h>

#include <vector>

#include "cadastre/error.hpp"
#include "platform/layers/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::layers {
namespace {

struct Problem {
  std::string name;     // its key in the report
  std::string flag;     // SQL condition over a geometry's row `f`
  std::string example;  // SQL of one offender's JSON
};

}  // namespace

std::string check_report(const service::Caller& s, std::int64_t layer_id, int limit) {
  std::string geometria;
  {
    store::Sql q("select geometria from projeto.camadas where id = ");
    q.bind(std::to_string(layer_id), "bigint");
    geometria = s.db->with([&](soci::session& db) { return store::fetch_value(db, q); }).value_or("");
    if (geometria.empty()) throw Error(errc::not_found, "camada " + std::to_string(layer_id) + " não encontrada", "id");
  }
  const std::string types = geometry_types_sql(geometria);
  // The column's typmod holds the SRID at 4674 for rows written through it; the check stays
  // because the report is what an import or a restored dump is judged by.
  const std::vector<Problem> problems = {
      {"invalidas", "not f.valida",
       "jsonb_build_object('id', f.id, 'motivo', f.motivo, 'local', case when f.local is null then null "
       "else jsonb_build_array(st_x(f.local), st_y(f.local)) end)"},
      {"vazias", "f.vazia", "jsonb_build_object('id', f.id)"},
      {"verticesRepetidos", "f.repetidos", "jsonb_build_object('id', f.id, 'vertices', f.vertices)"},
      {"sridErrado", "f.srid_errado", "jsonb_build_object('id', f.id, 'srid', f.srid)"},
      {"tipoErrado", "f.tipo_errado", "jsonb_build_object('id', f.id, 'tipo', f.tipo)"},
  };
  // Each problem: its count (n_i) and its offenders by id (e_i), cut to the first `limit`
  // with trim_array (a slice's colon would read as a placeholder to SOCI).
  std::string report = "jsonb_build_object('idCamada', " + std::to_string(layer_id) +
                       ", 'geometria', (select geometria from projeto.camadas where id = " + std::to_string(layer_id) +
                       "), 'total', a.total, 'validas', a.validas";
  std::string sums = "count(*) as total, count(*) filter (where f.valida and not f.vazia and not f.repetidos and "
                     "not f.srid_errado and not f.tipo_errado) as validas";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const Problem& p = problems[i];
    std::string n = "n" + std::to_string(i), e = "e" + std::to_string(i);
    report += ", '" + p.name + "', jsonb_build_object('total', a." + n + ", 'exemplos', to_jsonb(trim_array(a." + e +
              ", greatest(a." + n + " - " + std::to_string(limit) + ", 0)::int)))";
    sums += ", count(*) filter (where " + p.flag + ") as " + n + ", coalesce(array_agg(" + p.example +
            " order by f.id) filter (where " + p.flag + "), '{}') as " + e;
  }
  store::Sql q("select " + report + ")::text from (select " + sums +
               " from (select g.id, d.valid as valida, d.reason as motivo, d.location as local, "
               "st_isempty(g.geom) as vazia, st_npoints(g.geom) as vertices, "
               "st_npoints(g.geom) <> st_npoints(st_removerepeatedpoints(g.geom)) as repetidos, "
               "st_srid(g.geom) as srid, st_srid(g.geom) <> 4674 as srid_errado, geometrytype(g.geom) as tipo, " +
               (types.empty() ? std::string("false") : "not (geometrytype(g.geom) = any(" + types + "))") +
               " as tipo_errado from projeto.geometrias g cross join lateral st_isvaliddetail(g.geom) d "
               "where g.camada_id = ");
  q.bind(std::to_string(layer_id), "bigint");
  q << ") f) a";
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q); }).value_or("{}");
}

}  // namespace cadastre::platform::layers
