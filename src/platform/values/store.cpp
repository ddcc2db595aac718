// The value reads, over the layer's table (platform/common/layer_table.hpp). Two of them
// are the benchmark's (bench/storage.sh, bench/platform_layers.sh), each ONE statement
// that can be run by hand (psql, pgbench) with the numbers filled in:
//
// The page of a layer ordered by a field (GET /valores/camada/:id/pg?orderBy=<chave>):
// :c the layer, L its table camadas.l:c, <col> the field's column c_<campo id> and <type>
// its SQL type, <dir> asc|desc, S the page size, O the offset ((pageNumber - 1) * S).
//
//   with ordem as (                      -- geometries with a value, in order: an index-only
//     select l.id as gid, l.<col> as chave   -- scan of (<col>, id), so a deep offset skips
//       from L l where l.<col> is not null   -- index entries only
//      order by l.<col> <dir>, l.id <dir> limit S offset O),
//   com as (select gid, chave as chave_ordem, gid as desempate, 0 as parte from ordem),
//   sem as (                             -- then the geometries without one, by id
//     select g.id, null::<type>, g.id, 1 from projeto.geometrias g
//      where g.camada_id = :c and not exists (select 1 from L x
//            where x.id = g.id and x.<col> is not null offset 0)
//      order by g.id <dir>
//      limit (case when (select count(*) from com) >= S then 0 else S - (select count(*) from com) end)
//      offset (case when (select count(*) from com) > 0 then 0 else greatest(0, O -
//              (select count(*) from L n where n.<col> is not null)) end))
//   select (select total_geometrias from projeto.camadas where id = :c)::text,
//          coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores',
//            coalesce((select jsonb_strip_nulls(jsonb_build_object('<chave>', v.<col>, ...))
//                        from L v where v.id = p.gid), '{}'))
//            order by p.parte, p.chave_ordem <dir>, p.desempate <dir>), '[]')::text
//     from (select * from com union all select * from sem limit S) p
//
// A page inside the geometries that have a value reads S + O index entries and never the
// rest of the layer (the limit of `sem` is 0, and a Limit of 0 does not run its scan; the
// CASE does not evaluate the count it does not need). `offset 0` keeps the not exists a
// per-row probe of the primary key: as an anti join PostgreSQL would read the whole table.
// The outer `limit S` only tells the planner the page is S rows (without it, it guesses
// thousands and turns JIT on: 20 ms lost). The layer's number of geometries is kept on its
// row (tenant migration 0039): a count of its partition took about 10 ms at 100,000, most
// of the page. orderBy=id pages geometrias by (camada_id, id).
//
// The search (GET /valores/search?campoId=:k&termo=...): the trigram index on
// projeto.chave_busca(<col>) of the layer's table answers the where, so the expression must
// be exactly projeto.chave_busca(l.<col>):
//
//   with achados as (
//     select l.id as gid, l.<col> as texto from L l
//      where projeto.chave_busca(l.<col>) like '%' || projeto.chave_busca(:termo) || '%')
//   select (select count(*) from achados)::text,
//          coalesce((select json_agg(json_build_object('id', <value id>, ..., 'valor', a.texto, ...)
//                              order by a.texto, a.gid)
//                      from (select * from achados order by texto, gid limit S offset O) a), '[]')::text
//
// (:termo with LIKE's % _ \ escaped.)
#include "platform/values/store.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <charconv>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "cadastre/query.hpp"
#include "platform/guard/guard.hpp"
#include "platform/common/layer_table.hpp"

namespace cadastre::platform::values {
namespace {

using common::LayerField;

// The value shape, from aliases: v (campo_id, valor jsonb), k (the field), au (the
// projeto.valor_atualizacao of the value) and the geometry id expression `gid`; with the
// field's chave, nome and tipo for the lists of a geometry's values.
std::string value_json(const std::string& gid) {
  return "jsonb_build_object('id', " + common::value_id_sql(gid, "k.posicao") + ", 'idGeometria', " + gid +
         ", 'idCampo', k.id, 'valor', v.valor, 'atualizadoPor', au.por, 'atualizadoEm', au.em)";
}
std::string value_with_field_json(const std::string& gid) {
  return value_json(gid) + " || jsonb_build_object('chave', k.chave, 'nome', k.nome, 'tipo', k.tipo)";
}

// Every value of geometry `gid_sql` (an SQL expression of the enclosing query) with its
// field, in form and field order.
// (`gid_sql` is written once, as store::Sql::placeholder asks.)
std::string values_of(const std::string& gid_sql) {
  return "(select coalesce(jsonb_agg(" + value_with_field_json("gg.gid") +
         " order by f.ordem, f.id, k.ordem, k.id), '[]') from (select " + gid_sql +
         " as gid) gg cross join lateral projeto.valores_de(gg.gid) v join projeto.campos k on k.id = v.campo_id "
         "join projeto.formularios f on f.id = k.formulario_id "
         "cross join lateral projeto.valor_atualizacao(gg.gid, k.id) au)";
}

// A coordinate as the shortest text that reads back as the same double.
std::string number_text(double d) {
  char buf[32];
  auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
  return std::string(buf, end);
}

// The field of `fields` (a layer's) with id `campo`; 400 naming `param` otherwise.
const LayerField& field_of_layer(const std::vector<LayerField>& fields, std::int64_t camada, std::int64_t campo,
                                 const char* param) {
  for (const LayerField& f : fields)
    if (f.id == campo) return f;
  throw Error(errc::invalid_argument,
              std::string(param) + ": o campo " + std::to_string(campo) + " não é da camada " + std::to_string(camada),
              param);
}

// Lateral unpivot of layer table row `alias` into (campo_id, posicao, valor) rows, one per
// field of `fields` (only `campo`'s when set) holding a value.
std::string unpivot_sql(const std::vector<LayerField>& fields, std::optional<std::int64_t> campo,
                        const std::string& alias) {
  std::string out = "cross join lateral (values ";
  bool first = true;
  for (const LayerField& f : fields) {
    if (campo && f.id != *campo) continue;
    out += first ? "" : ", ";
    first = false;
    out += "(" + std::to_string(f.id) + "::bigint, " + std::to_string(f.posicao) + ", to_jsonb(" + alias + "." +
           f.column() + "))";
  }
  return out + ") u(campo_id, posicao, valor)";
}

}  // namespace

std::int64_t geometry_of_value(soci::session& s, std::int64_t id) {
  store::Sql q("select geometria_id::text from projeto.valor_chave(");
  q.bind(std::to_string(id), "bigint") << ")";
  store::Value v = store::fetch_value(s, q);
  return v ? std::stoll(*v) : 0;
}

std::string layer_generation(soci::session& s, std::int64_t layer) {
  store::Sql q("select geracao::text from projeto.camadas where id = ");
  q.bind(std::to_string(layer), "bigint");
  return store::fetch_value(s, q).value_or("0");
}

std::string one(soci::session& s, std::int64_t id) {
  // The id as the client sent it (an id issued before the move keeps being its id).
  store::Sql q("select jsonb_build_object('id', i.valor_id, 'idGeometria', c.geometria_id, 'idCampo', c.campo_id, "
               "'valor', coalesce((select v.valor from projeto.valores_de(c.geometria_id) v where v.campo_id = "
               "c.campo_id), 'null'), 'atualizadoPor', a.por, 'atualizadoEm', a.em)::text from (select ");
  q.bind(std::to_string(id), "bigint");
  q << "::bigint as valor_id) i cross join lateral projeto.valor_chave(i.valor_id) c "
       "cross join lateral projeto.valor_atualizacao(c.geometria_id, c.campo_id) a";
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
  return pool.with([&](soci::session& s) {
    // The layer whose table holds the values, and the values' rows (gid, campo_id, posicao,
    // valor) in value id order: by geometry, then the field's position.
    std::optional<std::int64_t> camada, campo;
    std::string where = "true";
    if (filter.record == "camada") {
      camada = filter.id;
    } else if (filter.record == "campo") {
      camada = common::layer_of_field(s, filter.id);
      campo = filter.id;
    } else {
      store::Sql g("select camada_id::text from projeto.geometrias where ");
      common::where_geometry(g, "", filter.id);
      if (auto v = store::fetch_value(s, g)) camada = std::stoll(*v);
      where = "l.id = " + std::to_string(filter.id);
    }
    if (!camada) return store::PageRows{0, "[]"};
    const std::vector<LayerField> fields = common::layer_fields(s, *camada);
    if (fields.empty() || (campo && std::none_of(fields.begin(), fields.end(),
                                                 [&](const LayerField& f) { return f.id == *campo; })))
      return store::PageRows{0, "[]"};
    const std::string dir = page.descending ? " desc" : "";
    store::Sql q("with r as (select l.id as gid, u.campo_id, u.posicao, u.valor from " +
                 common::layer_table(*camada) + " l " + unpivot_sql(fields, campo, "l") + " where " + where +
                 " and u.valor is not null) select (select count(*) from r)::text, coalesce((select jsonb_agg(" +
                 value_json("p.gid") + " order by p.gid" + dir + ", p.posicao" + dir +
                 ") from (select r.gid, r.campo_id, r.posicao, r.valor from r order by r.gid" + dir + ", r.posicao" +
                 dir);
    store::append_page(q, page.paging);
    q << ") p join projeto.campos k on k.id = p.campo_id cross join lateral (select p.valor) v "
         "cross join lateral projeto.valor_atualizacao(p.gid, p.campo_id) au), '[]')::text";
    return store::fetch_page(s, q);
  });
}

std::string of_layer(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> campo) {
  return pool.with([&](soci::session& s) {
    const std::vector<LayerField> fields = common::layer_fields(s, camada);
    if (campo) field_of_layer(fields, camada, *campo, "idCampo");
    if (fields.empty())
      return std::string("{\"valores\":[],\"limite\":") + std::to_string(kLayerCap) + ",\"truncado\":false}";
    // One more than the cap says whether the layer holds more.
    store::Sql q("with l as (select l.id as gid, u.campo_id, u.posicao, u.valor from " + common::layer_table(camada) +
                 " l " + unpivot_sql(fields, campo, "l") + " where u.valor is not null order by l.id, u.campo_id limit " +
                 std::to_string(kLayerCap + 1) + ") " +
                 "select jsonb_build_object('valores', coalesce((select jsonb_agg(" + value_json("p.gid") +
                 " order by p.gid, p.campo_id) from (select * from l order by gid, campo_id limit " +
                 std::to_string(kLayerCap) +
                 ") p join projeto.campos k on k.id = p.campo_id cross join lateral (select p.valor) v "
                 "cross join lateral projeto.valor_atualizacao(p.gid, p.campo_id) au), '[]'), 'limite', " +
                 std::to_string(kLayerCap) + ", 'truncado', (select count(*) from l) > " + std::to_string(kLayerCap) +
                 ")::text");
    return store::fetch_value(s, q).value_or("{}");
  });
}

store::Sql page_statement(std::int64_t camada, const std::vector<LayerField>& fields,
                          std::optional<std::int64_t> campo, const std::optional<OrderField>& order,
                          const Page& page) {
  const std::string dir = page.descending ? " desc" : " asc";
  const std::string size = std::to_string(page.paging.size), offset = std::to_string(page.paging.offset);
  const std::string table = common::layer_table(camada);
  std::vector<LayerField> shown;
  for (const LayerField& f : fields)
    if (!campo || f.id == *campo) shown.push_back(f);
  store::Sql q;
  // Its values are the layer's id (offsets and sizes are written in): one plan serves.
  q.reuse_plan();
  auto layer = [&] { q.bind(std::to_string(camada), "bigint"); };
  auto values = [&] {
    q << "coalesce((select " << common::values_object_sql(shown, "v") << " from " << table
      << " v where v.id = p.gid), '{}')";
  };
  if (!order) {
    q << "with p as (select g.id as gid from projeto.geometrias g where g.camada_id = ";
    layer();
    q << " order by g.id" << dir << " limit " << size << " offset " << offset << ") "
      << "select ";
    common::layer_total(q, camada);
    q << "::text, coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores', ";
    values();
    q << ") order by p.gid" << dir << "), '[]')::text from p";
    return q;
  }
  const std::string col = common::field_column(order->campo);
  const std::string type = order->type;
  q << "with ordem as (select l.id as gid, l." << col << " as chave from " << table << " l where l." << col
    << " is not null order by l." << col << dir << ", l.id" << dir << " limit " << size << " offset " << offset
    << "), com as (select gid, chave as chave_ordem, gid as desempate, 0 as parte from ordem), "
    << "sem as (select g.id as gid, null::" << type << " as chave_ordem, g.id as desempate, 1 as parte "
    << "from projeto.geometrias g where g.camada_id = ";
  layer();
  q << " and not exists (select 1 from " << table << " x where x.id = g.id and x." << col
    << " is not null offset 0) order by g.id" << dir << " limit (case when (select count(*) from com) >= " << size
    << " then 0 else " << size << " - (select count(*) from com) end)"
    << " offset (case when (select count(*) from com) > 0 then 0 else greatest(0, " << offset
    << " - (select count(*) from " << table << " n where n." << col << " is not null)) end)) "
    << "select ";
  common::layer_total(q, camada);
  q << "::text, coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores', ";
  values();
  q << ") order by p.parte, p.chave_ordem" << dir << ", p.desempate" << dir
    << "), '[]')::text from (select * from com union all select * from sem limit " << size << ") p";
  return q;
}

namespace {

// The page's statement from the layer's fields; throws the request's error for a field
// (idCampo, orderBy) the layer does not have.
store::Sql page_plan(std::int64_t camada, const std::vector<LayerField>& fields, std::optional<std::int64_t> campo,
                     const Page& page) {
  if (campo) field_of_layer(fields, camada, *campo, "idCampo");
  std::optional<OrderField> order;
  if (page.order_by != "id") {
    // orderBy is the chave of a field of the layer: its id and column type.
    auto f = std::find_if(fields.begin(), fields.end(), [&](const LayerField& x) { return x.chave == page.order_by; });
    if (f == fields.end())
      throw Error(errc::invalid_argument,
                  "orderBy: a camada " + std::to_string(camada) + " não tem o campo '" + page.order_by +
                      "' (use uma chave ou id)",
                  "orderBy");
    order = OrderField{f->id, common::column_type(f->tipo)};
  }
  return page_statement(camada, fields, campo, order, page);
}

}  // namespace

store::PageRows page_of_layer(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> campo,
                              const Page& page) {
  return pool.with([&](soci::session& s) {
    const store::Sql read_fields = common::layer_fields_statement(camada);
    std::optional<std::vector<LayerField>> fields;
    // With the fields a request last read, the page goes with their read (one round trip),
    // and stands when the read finds them unchanged.
    if (auto seen = common::fields_seen(pool, camada)) {
      std::optional<store::Sql> ahead;
      try {
        ahead = page_plan(camada, *seen, campo, page);
      } catch (const Error&) {  // perhaps a field added since: the fields read below tell
      }
      if (ahead) {
        store::Ahead got = store::fetch_ahead(s, read_fields, *ahead);
        fields = common::layer_fields_of(got.first);
        if (got.second && *fields == *seen) return store::page_rows(*got.second);
      }
    }
    if (!fields) fields = common::layer_fields_of(store::fetch(s, read_fields));
    common::remember_fields(pool, camada, *fields);
    return store::fetch_page(s, page_plan(camada, *fields, campo, page));
  });
}

store::Sql search_statement(std::int64_t camada, const LayerField& field, const std::string& termo, const Page& page) {
  const std::string col = common::field_column(field.id);
  store::Sql q("with achados as (select l.id as gid, l." + col + " as texto from " + common::layer_table(camada) +
               " l where projeto.chave_busca(l." + col + ") like '%' || projeto.chave_busca(");
  q.bind(query::escape_like(termo), "text");
  q << ") || '%') "
       "select (select count(*) from achados)::text, coalesce((select json_agg(json_build_object('id', "
    << common::value_id_sql("p.gid", std::to_string(field.posicao)) << ", 'idGeometria', p.gid, 'idCampo', "
    << std::to_string(field.id)
    << ", 'valor', p.texto, 'atualizadoPor', au.por, 'atualizadoEm', au.em) order by p.texto, p.gid) from "
       "(select * from achados order by texto, gid";
  store::append_page(q, page.paging);
  q << ") p cross join lateral projeto.valor_atualizacao(p.gid, " << std::to_string(field.id) << ") au), '[]')::text";
  return q;
}

SearchField text_field(store::Pool& pool, std::int64_t campo) {
  return pool.with([&](soci::session& s) {
    std::optional<std::int64_t> camada = common::layer_of_field(s, campo);
    if (!camada) throw Error(errc::not_found, "campo " + std::to_string(campo) + " não encontrado", "campoId");
    for (const LayerField& f : common::layer_fields(s, *camada)) {
      if (f.id != campo) continue;
      if (f.family() != "texto")
        throw Error(errc::invalid_argument,
                    "campoId: o campo " + std::to_string(campo) + " é do tipo " + f.tipo +
                        "; a busca é em campos de texto",
                    "campoId");
      return SearchField{*camada, f};
    }
    throw Error(errc::not_found, "campo " + std::to_string(campo) + " não encontrado", "campoId");
  });
}

store::PageRows search(store::Pool& pool, const SearchField& field, const std::string& termo, const Page& page) {
  store::Sql q = search_statement(field.camada, field.field, termo, page);
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}
std::string at_point(const service::Caller& scope, std::int64_t projeto, const Point& at) {
  // The point's x and y are numbers we parsed; bound anyway, as float8.
  return scope.db->with([&](soci::session& s) {
  const std::string layers = common::project_layers(s, projeto);
  store::Sql q("with pt as (select st_setsrid(st_makepoint(");
  q.bind(number_text(at.x), "float8") << ", ";
  q.bind(number_text(at.y), "float8") << "), 4674) as geom), "
                                           "legiveis as (select c.id, c.nome, c.ordem from projeto.camadas c "
                                           "where c.ativo and c.projeto_id = ";
  q.bind(std::to_string(projeto), "bigint");
  q << " and " << guard::layer_role_sql(scope, "c.id") << " is not null), "
    << "achadas as (select g.id, g.camada_id from projeto.geometrias g join legiveis c on c.id = g.camada_id, pt "
       "where g.camada_id = any(";
  q.bind(layers, "bigint[]") << ") and st_intersects(g.geom, pt.geom) order by g.camada_id, g.id limit "
    << std::to_string(kGeometryCap) << ") "
    << "select coalesce(jsonb_agg(jsonb_build_object('idCamada', c.id, 'nome', c.nome, 'geometrias', "
       "(select jsonb_agg(jsonb_build_object('idGeometria', a.id, 'valores', "
    << values_of("a.id")
    << ") order by a.id) from achadas a where a.camada_id = c.id)) order by c.ordem, c.id), '[]')::text "
       "from legiveis c where exists (select 1 from achadas a where a.camada_id = c.id)";
  return store::fetch_value(s, q).value_or("[]");
  });
}

std::string buildings(const service::Caller& scope, std::int64_t lote, bool linked) {
  return scope.db->with([&](soci::session& s) {
  const std::string layers = common::project_layers(s, 0, lote);
  store::Sql q("with lote as (select g.id, g.geom, g.camada_id, c.projeto_id from projeto.geometrias g "
               "join projeto.camadas c on c.id = g.camada_id where ");
  common::where_geometry(q, "g.", lote);
  q << "), legiveis as (select c.id from projeto.camadas c join lote on c.projeto_id = lote.projeto_id where "
    << guard::layer_role_sql(scope, "c.id") << " is not null), "
    << "achadas as (select b.id, b.camada_id, b.vinculo_id from projeto.geometrias b, lote "
       "where b.camada_id = any(";
  q.bind(layers, "bigint[]") << ") and b.camada_id in (select id from legiveis) and ";
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
  return store::fetch_value(s, q).value_or("[]");
  });
}

}  // namespace cadastre::platform::values
