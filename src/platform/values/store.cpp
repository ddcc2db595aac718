// The value reads. Two of them are the benchmark's (bench/platform_layers.sh), each ONE
// statement that can be run by hand (psql, pgbench) with the numbers filled in:
//
// The page of a layer ordered by a field (GET /valores/camada/:id/pg?orderBy=<chave>):
// :c the layer, :k the field whose chave orderBy names, <col> its typed column
// (field_values::column_of: texto, numero, data, booleano, lista) and <type> that column's SQL
// type, <dir> asc|desc, S the page size, O the offset ((pageNumber - 1) * S).
//
//   with ordem as (                      -- values of the field in order: an index-only scan of
//     select v.id, v.<col> as chave      -- (campo_id, <col>, id), so a deep offset skips index entries only
//       from projeto.valores v
//      where v.campo_id = :k and v.<col> is not null
//      order by v.<col> <dir>, v.id <dir> limit S offset O),
//   com as (select w.geometria_id as gid, o.chave as chave_ordem, o.id as desempate, 0 as parte
//             from ordem o join projeto.valores w on w.id = o.id),
//   sem as (                             -- then the geometries without one, by id
//     select g.id, null::<type>, g.id, 1 from projeto.geometrias g
//      where g.camada_id = :c and not exists (select 1 from projeto.valores x
//            where x.geometria_id = g.id and x.campo_id = :k and x.<col> is not null offset 0)
//      order by g.id <dir>
//      limit (case when (select count(*) from com) >= S then 0 else S - (select count(*) from com) end)
//      offset (case when (select count(*) from com) > 0 then 0 else greatest(0, O -
//              (select count(*) from projeto.valores n where n.campo_id = :k and n.<col> is not null)) end))
//   select (select count(*) from projeto.geometrias where camada_id = :c)::text,
//          coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores',
//            (select coalesce(jsonb_object_agg(k.chave, projeto.valor_json(v.texto, v.numero, v.data,
//                     v.booleano, v.lista)), '{}')
//               from projeto.valores v join projeto.campos k on k.id = v.campo_id
//              where v.geometria_id = p.gid))
//            order by p.parte, p.chave_ordem <dir>, p.desempate <dir>), '[]')::text
//     from (select * from com union all select * from sem limit S) p
//
// A page inside the geometries that have a value reads S + O index entries and never the
// rest of the layer (the limit of `sem` is 0, and a Limit of 0 does not run its scan; the
// CASE does not evaluate the count it does not need). `offset 0` keeps the not exists a
// per-row probe of the (geometria_id, campo_id) key: as an anti join PostgreSQL would read
// that whole index. The outer `limit S` only tells the planner the page is S rows (without
// it, it guesses thousands and turns JIT on: 20 ms lost). What remains is the exact count
// of the layer's geometries (about 10 ms on 100,000). orderBy=id pages geometrias by
// (camada_id, id) instead.
//
// The search (GET /valores/search?campoId=:k&termo=...): the GIN index
// projeto.valores_busca_idx on (campo_id, projeto.chave_busca(texto)) answers the where,
// so the expression must be exactly projeto.chave_busca(v.texto):
//
//   with achados as (
//     select v.id, v.geometria_id, v.campo_id, v.texto, v.atualizado_por, v.atualizado_em
//       from projeto.valores v
//      where v.campo_id = :k
//        and projeto.chave_busca(v.texto) like '%' || projeto.chave_busca(:termo) || '%')
//   select (select count(*) from achados)::text,
//          coalesce((select json_agg(json_build_object('id', a.id, ..., 'valor', a.texto, ...)
//                              order by a.texto, a.id)
//                      from (select * from achados order by texto, id limit S offset O) a), '[]')::text
//
// (:termo with LIKE's % _ \ escaped.)
#include "platform/values/store.hpp"

#include <soci/soci.h>

#include <charconv>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "cadastre/query.hpp"
#include "platform/guard/guard.hpp"
#include "platform/values/columns.hpp"

namespace cadastre::platform::values {
namespace {

// The value shape (alias v); with the field's chave, nome and tipo (alias k) for the lists
// of a geometry's values.
const std::string kValue =
    "jsonb_build_object('id', v.id, 'idGeometria', v.geometria_id, 'idCampo', v.campo_id, "
    "'valor', projeto.valor_json(v.texto, v.numero, v.data, v.booleano, v.lista), "
    "'atualizadoPor', v.atualizado_por, 'atualizadoEm', v.atualizado_em)";
const std::string kValueWithField =
    kValue + " || jsonb_build_object('chave', k.chave, 'nome', k.nome, 'tipo', k.tipo)";

// Every value of geometry `gid_sql` (an SQL expression of the enclosing query) with its
// field, in form and field order.
std::string values_of(const std::string& gid_sql) {
  return "(select coalesce(jsonb_agg(" + kValueWithField +
         " order by f.ordem, f.id, k.ordem, k.id), '[]') from projeto.valores v "
         "join projeto.campos k on k.id = v.campo_id join projeto.formularios f on f.id = k.formulario_id "
         "where v.geometria_id = " +
         gid_sql + ")";
}

// A coordinate as the shortest text that reads back as the same double.
std::string number_text(double d) {
  char buf[32];
  auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
  return std::string(buf, end);
}

// The field of layer `camada` a query parameter names (400 naming it otherwise).
void require_field_of_layer(soci::session& s, std::int64_t camada, std::int64_t campo, const char* param) {
  store::Sql q("select 1 from projeto.campos k join projeto.formularios f on f.id = k.formulario_id where k.id = ");
  q.bind(std::to_string(campo), "bigint") << " and f.camada_id = ";
  q.bind(std::to_string(camada), "bigint");
  if (!store::fetch_value(s, q))
    throw Error(errc::invalid_argument, std::string(param) + ": o campo " + std::to_string(campo) + " não é da camada " +
                                            std::to_string(camada), param);
}

}  // namespace

std::int64_t geometry_of_value(soci::session& s, std::int64_t id) {
  store::Sql q("select geometria_id::text from projeto.valores where id = ");
  q.bind(std::to_string(id), "bigint");
  store::Value v = store::fetch_value(s, q);
  return v ? std::stoll(*v) : 0;
}

std::string layer_generation(soci::session& s, std::int64_t layer) {
  store::Sql q("select geracao::text from projeto.camadas where id = ");
  q.bind(std::to_string(layer), "bigint");
  return store::fetch_value(s, q).value_or("0");
}

std::string one(soci::session& s, std::int64_t id) {
  store::Sql q("select " + kValue + "::text from projeto.valores v where v.id = ");
  q.bind(std::to_string(id), "bigint");
  auto v = store::fetch_value(s, q);
  if (!v) throw Error(errc::not_found, "valor " + std::to_string(id) + " não encontrado", "id");
  return *v;
}

std::string of_geometry(soci::session& s, std::int64_t geometria) {
  store::Sql q;
  std::string g = q.placeholder(std::to_string(geometria), "bigint");
  q << "select " << values_of(g) << "::text";
  return store::fetch_value(s, q).value_or("[]");
}

store::PageRows list(store::Pool& pool, const ListFilter& filter, const Page& page) {
  // The filter, written twice (the count and the page) with its id bound each time.
  auto where = [&](store::Sql& q) {
    if (filter.record == "geometria") q << "v.geometria_id = ";
    else if (filter.record == "campo") q << "v.campo_id = ";
    else
      q << "v.campo_id in (select k.id from projeto.campos k join projeto.formularios f "
           "on f.id = k.formulario_id where f.camada_id = ";
    q.bind(std::to_string(filter.id), "bigint");
    if (filter.record == "camada") q << ")";
  };
  store::Sql q("select (select count(*) from projeto.valores v where ");
  where(q);
  q << ")::text, coalesce(jsonb_agg(r order by r_id" << (page.descending ? " desc" : "") << "), '[]')::text from (select "
    << kValue << " as r, v.id as r_id from projeto.valores v where ";
  where(q);
  q << " order by v.id" << (page.descending ? " desc" : "");
  store::append_page(q, page.paging);
  q << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string of_layer(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> campo) {
  return pool.with([&](soci::session& s) {
    if (campo) require_field_of_layer(s, camada, *campo, "idCampo");
    // One more than the cap says whether the layer holds more.
    store::Sql q("with l as (select " + kValue +
                 " as r, g.id as gid, v.campo_id from projeto.geometrias g join projeto.valores v on v.geometria_id = g.id "
                 "where g.camada_id = ");
    q.bind(std::to_string(camada), "bigint");
    if (campo) q << " and v.campo_id = ", q.bind(std::to_string(*campo), "bigint");
    q << " order by g.id, v.campo_id limit " << std::to_string(kLayerCap + 1) << ") "
      << "select jsonb_build_object('valores', coalesce((select jsonb_agg(r order by gid, campo_id) from "
         "(select * from l order by gid, campo_id limit "
      << std::to_string(kLayerCap) << ") c), '[]'), 'limite', " << std::to_string(kLayerCap)
      << ", 'truncado', (select count(*) from l) > " << std::to_string(kLayerCap) << ")::text";
    return store::fetch_value(s, q).value_or("{}");
  });
}

store::Sql page_statement(std::int64_t camada, std::optional<std::int64_t> campo,
                          const std::optional<OrderField>& order, const Page& page) {
  const std::string dir = page.descending ? " desc" : " asc";
  const std::string size = std::to_string(page.paging.size), offset = std::to_string(page.paging.offset);
  store::Sql q;
  auto layer = [&] { q.bind(std::to_string(camada), "bigint"); };
  auto values = [&] {
    q << "(select coalesce(jsonb_object_agg(k.chave, projeto.valor_json(v.texto, v.numero, v.data, v.booleano, "
         "v.lista)), '{}') from projeto.valores v join projeto.campos k on k.id = v.campo_id "
         "where v.geometria_id = p.gid";
    if (campo) q << " and v.campo_id = ", q.bind(std::to_string(*campo), "bigint");
    q << ")";
  };
  if (!order) {
    q << "with p as (select g.id as gid from projeto.geometrias g where g.camada_id = ";
    layer();
    q << " order by g.id" << dir << " limit " << size << " offset " << offset << ") "
      << "select (select count(*) from projeto.geometrias where camada_id = ";
    layer();
    q << ")::text, coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores', ";
    values();
    q << ") order by p.gid" << dir << "), '[]')::text from p";
    return q;
  }
  const std::string& col = order->column;
  const std::string type = sql_type(col);
  auto key = [&] { q.bind(std::to_string(order->campo), "bigint"); };
  q << "with ordem as (select v.id, v." << col << " as chave from projeto.valores v where v.campo_id = ";
  key();
  q << " and v." << col << " is not null order by v." << col << dir << ", v.id" << dir << " limit " << size
    << " offset " << offset << "), "
    << "com as (select w.geometria_id as gid, o.chave as chave_ordem, o.id as desempate, 0 as parte "
       "from ordem o join projeto.valores w on w.id = o.id), "
    << "sem as (select g.id as gid, null::" << type << " as chave_ordem, g.id as desempate, 1 as parte "
    << "from projeto.geometrias g where g.camada_id = ";
  layer();
  q << " and not exists (select 1 from projeto.valores x where x.geometria_id = g.id and x.campo_id = ";
  key();
  q << " and x." << col << " is not null offset 0) order by g.id" << dir
    << " limit (case when (select count(*) from com) >= " << size << " then 0 else " << size
    << " - (select count(*) from com) end)"
    << " offset (case when (select count(*) from com) > 0 then 0 else greatest(0, " << offset
    << " - (select count(*) from projeto.valores n where n.campo_id = ";
  key();
  q << " and n." << col << " is not null)) end)) "
    << "select (select count(*) from projeto.geometrias where camada_id = ";
  layer();
  q << ")::text, coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores', ";
  values();
  q << ") order by p.parte, p.chave_ordem" << dir << ", p.desempate" << dir
    << "), '[]')::text from (select * from com union all select * from sem limit " << size << ") p";
  return q;
}

store::PageRows page_of_layer(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> campo,
                              const Page& page) {
  return pool.with([&](soci::session& s) {
    if (campo) require_field_of_layer(s, camada, *campo, "idCampo");
    std::optional<OrderField> order;
    if (page.order_by != "id") {
      // orderBy is the chave of a field of the layer: its id and typed column.
      store::Sql find("select k.id::text, k.tipo from projeto.campos k join projeto.formularios f "
                      "on f.id = k.formulario_id where f.camada_id = ");
      find.bind(std::to_string(camada), "bigint") << " and k.chave = ";
      find.bind(page.order_by) << " order by k.id limit 1";
      auto rows = store::fetch(s, find);
      if (rows.empty())
        throw Error(errc::invalid_argument,
                    "orderBy: a camada " + std::to_string(camada) + " não tem o campo '" + page.order_by +
                        "' (use uma chave ou id)",
                    "orderBy");
      order = OrderField{std::stoll(*rows[0][0]), std::string(field_values::column_of(*rows[0][1]))};
    }
    return store::fetch_page(s, page_statement(camada, campo, order, page));
  });
}

store::Sql search_statement(std::int64_t campo, const std::string& termo, const Page& page) {
  store::Sql q("with achados as (select v.id, v.geometria_id, v.campo_id, v.texto, v.atualizado_por, "
               "v.atualizado_em from projeto.valores v where v.campo_id = ");
  q.bind(std::to_string(campo), "bigint");
  q << " and projeto.chave_busca(v.texto) like '%' || projeto.chave_busca(";
  q.bind(query::escape_like(termo), "text");
  q << ") || '%') "
       "select (select count(*) from achados)::text, coalesce((select json_agg(json_build_object('id', a.id, "
       "'idGeometria', a.geometria_id, 'idCampo', a.campo_id, 'valor', a.texto, 'atualizadoPor', a.atualizado_por, "
       "'atualizadoEm', a.atualizado_em) order by a.texto, a.id) from (select * from achados order by texto, id";
  store::append_page(q, page.paging);
  q << ") a), '[]')::text";
  return q;
}

store::PageRows search(store::Pool& pool, std::int64_t campo, const std::string& termo, const Page& page) {
  store::Sql q = search_statement(campo, termo, page);
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

void require_text_field(store::Pool& pool, std::int64_t campo) {
  store::Sql q("select tipo from projeto.campos where id = ");
  q.bind(std::to_string(campo), "bigint");
  auto tipo = pool.with([&](soci::session& s) { return store::fetch_value(s, q); });
  if (!tipo) throw Error(errc::not_found, "campo " + std::to_string(campo) + " não encontrado", "campoId");
  if (field_values::column_of(*tipo) != "texto")
    throw Error(errc::invalid_argument,
                "campoId: o campo " + std::to_string(campo) + " é do tipo " + *tipo + "; a busca é em campos de texto",
                "campoId");
}

std::string at_point(const service::Caller& scope, std::int64_t projeto, const Point& at) {
  // The point's x and y are numbers we parsed; bound anyway, as float8.
  store::Sql q("with pt as (select st_setsrid(st_makepoint(");
  q.bind(number_text(at.x), "float8") << ", ";
  q.bind(number_text(at.y), "float8") << "), 4674) as geom), "
                                           "legiveis as (select c.id, c.nome, c.ordem from projeto.camadas c "
                                           "where c.ativo and c.projeto_id = ";
  q.bind(std::to_string(projeto), "bigint");
  q << " and " << guard::layer_role_sql(scope, "c.id") << " is not null), "
    << "achadas as (select g.id, g.camada_id from projeto.geometrias g join legiveis c on c.id = g.camada_id, pt "
       "where st_intersects(g.geom, pt.geom) order by g.camada_id, g.id limit "
    << std::to_string(kGeometryCap) << ") "
    << "select coalesce(jsonb_agg(jsonb_build_object('idCamada', c.id, 'nome', c.nome, 'geometrias', "
       "(select jsonb_agg(jsonb_build_object('idGeometria', a.id, 'valores', "
    << values_of("a.id")
    << ") order by a.id) from achadas a where a.camada_id = c.id)) order by c.ordem, c.id), '[]')::text "
       "from legiveis c where exists (select 1 from achadas a where a.camada_id = c.id)";
  return scope.db->with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string buildings(const service::Caller& scope, std::int64_t lote, bool linked) {
  store::Sql q("with lote as (select g.id, g.geom, g.camada_id, c.projeto_id from projeto.geometrias g "
               "join projeto.camadas c on c.id = g.camada_id where g.id = ");
  q.bind(std::to_string(lote), "bigint");
  q << "), legiveis as (select c.id from projeto.camadas c join lote on c.projeto_id = lote.projeto_id where "
    << guard::layer_role_sql(scope, "c.id") << " is not null), "
    << "achadas as (select b.id, b.camada_id, b.vinculo_id from projeto.geometrias b, lote "
       "where b.camada_id in (select id from legiveis) and ";
  if (linked) {
    q << "b.vinculo_id = lote.id";
  } else {
    // Within the lot: the building's point on surface (always inside it, unlike a
    // centroid) within the lot's polygon; && first, so the GiST index finds candidates.
    q << "b.camada_id <> lote.camada_id and b.geom && lote.geom "
         "and st_within(st_pointonsurface(b.geom), lote.geom) and b.vinculo_id is distinct from lote.id";
  }
  q << " order by b.id limit " << std::to_string(kGeometryCap) << ") "
    << "select coalesce(jsonb_agg(jsonb_build_object('idGeometria', a.id, 'idCamada', a.camada_id, "
       "'idVinculo', a.vinculo_id, 'valores', "
    << values_of("a.id") << ") order by a.id), '[]')::text from achadas a";
  return scope.db->with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

}  // namespace cadastre::platform::values
