// Edits over several geometries: union, split/reshape, copies between layers, values from
// an origin layer, the thematic class. Each one transaction (see store.hpp).
#include <soci/soci.h>

#include <algorithm>
#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/geometries/store.hpp"
#include "platform/geometries/store_write.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geometries {
namespace {

// The sum of the parts of a split may differ from the original by this fraction (noise of
// the geodesic areas of the cut polygons; a real loss is far larger).
constexpr double kAreaTolerance = 0.001;

}  // namespace

Written unite(store::Pool& pool, std::int64_t user, const Union& order) {
  std::vector<std::int64_t> ids = order.ids;
  std::sort(ids.begin(), ids.end());
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::vector<steps::Locked> rows;
    for (std::int64_t id : ids) {
      auto row = steps::lock(s, id);
      if (!row) throw Stale(id, 0);
      if (auto v = order.versoes.find(id); v != order.versoes.end() && v->second != row->versao)
        throw Stale(id, row->versao);
      if (!rows.empty() && row->layer != rows.front().layer)
        throw Error(errc::invalid_argument, "as geometrias a unir devem ser da mesma camada", "ids");
      rows.push_back(std::move(*row));
    }
    store::Sql q("select st_union(geom)::text, st_isvalid(st_union(geom))::text from projeto.geometrias where ");
    common::where_geometries(q, "", store::id_array(ids));
    auto u = store::fetch(s, q);
    if (u.at(0)[1] != "true") throw Error(errc::invalid_argument, "a união das geometrias não é válida", "ids");
    Written w;
    for (const steps::Locked& row : rows)
      if (row.id != order.manter) w.touched.push_back(steps::erase(s, user, row));
    auto kept = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.id == order.manter; });
    w.touched.push_back(steps::replace(s, user, *kept, *u[0][0], "unir"));
    w.json = steps::json_of(s, order.manter);
    tx.commit();
    return w;
  });
}

Written split(store::Pool& pool, std::int64_t user, std::int64_t id, const Split& order, bool reshape) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::string line = steps::read_or_throw(s, order.linha);
    steps::Locked row = steps::lock_at(s, id, order.versao);
    store::Sql check("select geometrytype(geom), geometrytype(");
    check.bind(line, "geometry") << "), st_area(geom::geography)::text from projeto.geometrias where ";
    common::where_geometry(check, "", id);
    auto kinds = store::fetch(s, check).at(0);
    if (*kinds[0] != "POLYGON" && *kinds[0] != "MULTIPOLYGON")
      throw Error(errc::invalid_argument, "só polígonos podem ser divididos", "id");
    if (*kinds[1] != "LINESTRING" && *kinds[1] != "MULTILINESTRING")
      throw Error(errc::invalid_argument, "linha deve ser uma LINESTRING", "linha");
    double original = std::stod(*kinds[2]);
    // The parts, largest first (by area on the ellipsoid, m²).
    store::Sql q("select part::text, st_area(part::geography)::text from (select (st_dump(st_split(geom, ");
    q.bind(line, "geometry") << "))).geom as part from projeto.geometrias where ";
    common::where_geometry(q, "", id);
    q << ") p order by st_area(part::geography) desc";
    auto parts = store::fetch(s, q);
    if (parts.size() < 2) throw Error(errc::invalid_argument, "a linha não divide o polígono", "linha");
    double sum = 0;
    for (const auto& p : parts) sum += std::stod(*p[1]);
    if (std::fabs(sum - original) > kAreaTolerance * original)
      throw Error(errc::conflict, "a soma das áreas das partes (" + std::to_string(sum) + " m²) difere da original (" +
                                      std::to_string(original) + " m²)");
    Written w;
    JsonWriter out;
    out.begin_object().key("idOriginal").value(id).key("areaOriginal").value(original);
    if (reshape) {
      // Reshape: the polygon keeps its largest part (its id, values, version + 1); the rest
      // of it, beyond the line, is dropped.
      w.touched.push_back(steps::replace(s, user, row, *parts[0][0], "remodelar"));
      out.key("areaPartes").value(std::stod(*parts[0][1]));
      out.key("partes").begin_array().raw(steps::json_of(s, id)).end_array();
    } else {
      // Split: the largest part keeps the id; each other part is a new geometry of the layer
      // with a copy of the values.
      w.touched.push_back(steps::replace(s, user, row, *parts[0][0], "dividir"));
      std::vector<std::int64_t> made{id};
      for (std::size_t i = 1; i < parts.size(); ++i) {
        steps::ValuesFrom values{.from = id, .form = 0, .copied = 0};
        w.touched.push_back(steps::insert(s, user, row.layer, *parts[i][0], std::nullopt, "dividir", &values));
        made.push_back(w.touched.back().id);
      }
      out.key("areaPartes").value(sum).key("partes").begin_array();
      for (std::int64_t part : made) out.raw(steps::json_of(s, part));
      out.end_array();
    }
    out.end_object();
    w.json = std::move(out).str();
    tx.commit();
    return w;
  });
}

Written copy_into(store::Pool& pool, std::int64_t user, const std::vector<std::int64_t>& ids, std::int64_t layer,
                  std::int64_t form) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    Written w;
    std::int64_t copied = 0;
    JsonWriter out;
    out.begin_object().key("geometrias").begin_array();
    for (std::int64_t id : ids) {
      store::Sql q("select geom::text from projeto.geometrias where ");
      common::where_geometry(q, "", id);
      auto geom = store::fetch_value(s, q);
      if (!geom) throw Error(errc::not_found, "geometria não encontrada: " + std::to_string(id), "ids");
      steps::ValuesFrom values{.from = id, .form = form, .copied = 0};
      w.touched.push_back(steps::insert(s, user, layer, *geom, std::nullopt, "copiar", &values));
      copied += values.copied;
      out.raw(steps::json_of(s, w.touched.back().id));
    }
    out.end_array().key("valoresCopiados").value(copied).end_object();
    w.json = std::move(out).str();
    tx.commit();
    return w;
  });
}

Written copy_values(store::Pool& pool, std::int64_t user, std::int64_t layer, const CopyValues& order) {
  // The values area writes them, under each destination field's rules (store_write.hpp).
  values::LocationCopy copied = values::copy_by_location(pool, user, order.origem, layer, order.campos);
  Written w;
  if (!copied.written.empty()) {
    pool.run([&](soci::session& s) {
      store::Sql boxes("select id::text, versao::text, st_xmin(geom)::text, st_ymin(geom)::text, st_xmax(geom)::text, "
                       "st_ymax(geom)::text from projeto.geometrias where camada_id = ");
      boxes.bind(std::to_string(layer), "bigint") << " and id = any(";
      boxes.bind(store::id_array(copied.written), "bigint[]") << ") order by id";
      for (const auto& b : store::fetch(s, boxes))
        w.touched.push_back({.layer = layer, .id = std::stoll(*b[0]), .versao = std::stoll(*b[1]),
                             .operacao = "valores",
                             .boxes = {{std::stod(*b[2]), std::stod(*b[3]), std::stod(*b[4]), std::stod(*b[5])}}});
    });
  }
  JsonWriter out;
  out.begin_object().key("idCamada").value(layer).key("origem").value(order.origem);
  out.key("geometrias").value(copied.geometrias).key("comOrigem").value(copied.com_origem);
  out.key("valores").value(copied.valores).end_object();
  w.json = std::move(out).str();
  return w;
}

Written thematic(store::Pool& pool, std::int64_t user, std::int64_t id, std::int64_t campo) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    auto row = steps::lock(s, id);
    if (!row) throw Error(errc::not_found, "geometria não encontrada", "id");
    store::Sql cat("select categorias::text, categorias ->> 'idCampo' from projeto.camadas where id = ");
    cat.bind(std::to_string(row->layer), "bigint");
    auto c = store::fetch(s, cat).at(0);
    if (!c[0]) throw Error(errc::invalid_transition, "a camada não tem categorização (POST /camadas/categorizar)");
    if (c[1] != std::to_string(campo))
      throw Error(errc::invalid_argument, "idCampo: a categorização da camada é do campo " + c[1].value_or("?"), "idCampo");
    // The class: "valores" by equal value, "intervalos" by minimo <= v < maximo (the last
    // class includes its maximo); -1 for outros, null for no value (semValor).
    store::Sql q("with c as (select categorias as cat from projeto.camadas where id = ");
    q.bind(std::to_string(row->layer), "bigint");
    q << "), v as (select valor as val from projeto.valores_de(";
    q.bind(std::to_string(id), "bigint") << ") where campo_id = ";
    q.bind(std::to_string(campo), "bigint");
    q << ") select (case when v.val is null or v.val = 'null'::jsonb then null "
         "when c.cat ->> 'tipo' = 'valores' then coalesce((select (e.i - 1)::int from jsonb_array_elements(c.cat -> "
         "'classes') with ordinality e(k, i) where e.k -> 'valor' = v.val or e.k ->> 'valor' = v.val::text limit 1), -1) "
         "when jsonb_typeof(v.val) <> 'number' then -1 "
         "else coalesce((select (e.i - 1)::int from jsonb_array_elements(c.cat -> 'classes') with ordinality e(k, i) "
         "where v.val::numeric >= (e.k ->> 'minimo')::numeric and (v.val::numeric < (e.k ->> 'maximo')::numeric or "
         "(e.i = jsonb_array_length(c.cat -> 'classes') and v.val::numeric <= (e.k ->> 'maximo')::numeric)) "
         "limit 1), -1) end)::text from c left join v on true";
    auto index = store::fetch(s, q).at(0)[0];
    store::Sql w("update projeto.geometrias set campo_tematico_id = ");
    w.bind(std::to_string(campo), "bigint") << ", indice_tematico = ";
    w.bind(index, "integer") << " where ";
    common::where_geometry(w, "", id);
    store::execute(s, w);
    store::Sql audit("select projeto.geometria_registrar(");
    audit.bind(std::to_string(id), "bigint") << ", ";
    audit.bind(std::to_string(row->layer), "bigint") << ", 'tematico', ";
    audit.bind(row->estado, "jsonb") << ", ";
    audit.bind(std::to_string(user), "bigint") << ")::text";
    store::fetch(s, audit);
    store::Sql answer("select jsonb_build_object('idGeometria', g.id, 'idCampo', g.campo_tematico_id, 'indice', "
                      "g.indice_tematico, 'classe', case when g.indice_tematico is null then c.categorias -> 'semValor' "
                      "when g.indice_tematico < 0 then c.categorias -> 'outros' else c.categorias -> 'classes' -> "
                      "g.indice_tematico end)::text from projeto.geometrias g join projeto.camadas c on c.id = "
                      "g.camada_id where ");
    common::where_geometry(answer, "g.", id);
    Written out{*store::fetch_value(s, answer),
                {{.layer = row->layer, .id = id, .versao = row->versao, .operacao = "tematico", .boxes = {row->box}}}};
    tx.commit();
    return out;
  });
}

}  // namespace cadastre::platform::geometries
