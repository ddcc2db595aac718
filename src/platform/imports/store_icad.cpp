// The municipality's cadastre layers copied into a project (POST /importar/icad/*): the
// cadastre lives in the same tenant database (schema cadastro, tenant migration 0001), so
// the copy is SQL from table to table in the job's transaction. See store.hpp.
//
// Rural lots: the cadastre has no zone column; a lot is urban when it fronts a block face
// (face_quadra: the unit land values and the public improvements the IPTU is computed
// from), and rural when it fronts none (face_quadra_id null: outside the urban value map).
// So icad/lotes and icad/lotes-rurais partition cadastro.lote.
#include <soci/soci.h>

#include <map>

#include "platform/common/layer_table.hpp"
#include "platform/imports/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::imports {
namespace {

using store::Sql;

struct Column {
  FieldDef field;
  std::string expr;  ///< SQL over the aliases of `from` (constant text written here)
};

struct Spec {
  CadastreLayer layer;
  std::string geometria, from, where;  ///< `from` names the main table x
  std::vector<Column> columns;
};

const std::string kLotFrom =
    "cadastro.lote x join cadastro.quadra q on q.id = x.quadra_id "
    "left join cadastro.face_quadra f on f.id = x.face_quadra_id "
    "left join cadastro.logradouro g on g.id = x.logradouro_id";

std::vector<Column> lot_columns(bool with_face) {
  std::vector<Column> c = {
      {{"Id no cadastro", "id_cadastro", "inteiro"}, "x.id"},
      {{"Inscrição", "inscricao", "texto"}, "x.inscricao"},
      {{"Quadra", "quadra", "texto"}, "q.codigo"},
      {{"Setor", "setor", "texto"}, "q.setor"},
      {{"Logradouro", "logradouro", "texto"}, "g.nome"},
      {{"Número", "numero", "inteiro"}, "x.numero"},
      {{"Área do terreno (m²)", "area_terreno", "decimal"}, "x.area_terreno"},
      {{"Testada (m)", "testada", "decimal"}, "x.testada"},
      {{"Profundidade (m)", "profundidade", "decimal"}, "x.profundidade"},
      {{"Topografia", "topografia", "texto"}, "x.topografia"},
      {{"Pedologia", "pedologia", "texto"}, "x.pedologia"},
      {{"Situação", "situacao", "texto"}, "x.situacao"}};
  if (with_face) {
    c.push_back({{"Face de quadra", "face_quadra", "texto"}, "f.codigo"});
    c.push_back({{"Valor do m² da face (R$)", "valor_m2_face", "decimal"}, "f.valor_m2"});
  }
  return c;
}

const std::map<std::string, Spec>& specs() {
  static const std::map<std::string, Spec> all = {
      {"lotes", {{"icad_lotes", "Lotes (cadastro)"}, "poligono", kLotFrom, "x.face_quadra_id is not null", lot_columns(true)}},
      {"lotes-rurais",
       {{"icad_lotes_rurais", "Lotes rurais (cadastro)"}, "poligono", kLotFrom, "x.face_quadra_id is null", lot_columns(false)}},
      {"edificacoes",
       {{"icad_edificacoes", "Edificações (cadastro)"},
        "poligono",
        "cadastro.edificacao x join cadastro.lote l on l.id = x.lote_id",
        "true",
        {{{"Id no cadastro", "id_cadastro", "inteiro"}, "x.id"},
         {{"Inscrição do lote", "inscricao_lote", "texto"}, "l.inscricao"},
         {{"Área construída (m²)", "area_construida", "decimal"}, "x.area_construida"},
         {{"Pavimentos", "pavimentos", "inteiro"}, "x.pavimentos"},
         {{"Padrão construtivo", "padrao", "texto"}, "x.padrao"},
         {{"Ano de construção", "ano_construcao", "inteiro"}, "x.ano_construcao"},
         {{"Conservação", "conservacao", "texto"}, "x.conservacao"},
         {{"Uso", "uso", "texto"}, "x.uso"}}}},
      {"logradouros",
       {{"icad_logradouros", "Logradouros (cadastro)"},
        "linha",
        "cadastro.logradouro x",
        "true",
        {{{"Id no cadastro", "id_cadastro", "inteiro"}, "x.id"},
         {{"Código", "codigo", "texto"}, "x.codigo"},
         {{"Tipo", "tipo", "texto"}, "x.tipo"},
         {{"Nome", "nome", "texto"}, "x.nome"},
         {{"CEP", "cep", "texto"}, "x.cep"}}}},
  };
  return all;
}

const Spec& spec_of(const std::string& which) {
  auto it = specs().find(which);
  if (it == specs().end()) throw Error(errc::not_found, "camada do cadastro desconhecida: " + which);
  return it->second;
}

const Spec& spec_by_tipo(const std::string& tipo) {
  for (const auto& [k, v] : specs())
    if (v.layer.tipo == tipo) return v;
  throw Error(errc::internal, "camada do cadastro sem definição");
}

}  // namespace

const CadastreLayer& cadastre_layer(const std::string& which) { return spec_of(which).layer; }

std::int64_t cadastre_bytes(soci::session& s, const CadastreLayer& which) {
  const Spec& spec = spec_by_tipo(which.tipo);
  // Per row as stored_bytes(): 200 + twice the geometry's bytes, and 300 + 3.5 × each value's.
  std::string row = "200 + 2 * coalesce(st_memsize(x.geom), 0)";
  for (const auto& c : spec.columns)
    row += " + case when (" + c.expr + ") is null then 0 else 300 + 3.5 * octet_length((" + c.expr + ")::text) end";
  std::int64_t bytes = 0;
  s << "select coalesce(sum(" + row + "), 0)::bigint from " + spec.from + " where " + spec.where, soci::into(bytes);
  return bytes;
}

jobs::Layer load_cadastre(soci::session& s, const LoadInfo& info, const CadastreLayer& which, jobs::Context& ctx) {
  const Spec* spec = &spec_by_tipo(which.tipo);
  std::vector<FieldDef> fields;
  for (const auto& c : spec->columns) fields.push_back(c.field);
  Created created = create_layer(s, info, spec->layer.nome, spec->geometria, fields);
  const std::string user = std::to_string(info.user), camada = std::to_string(created.camada);

  // The new geometries' ids, taken from their sequence, mapped to the cadastre's rows.
  store::execute(s, Sql("create temp table importacao_cadastro (gid bigint primary key, oid integer not null) "
                        "on commit drop"));
  std::int64_t n = store::execute(s, Sql("insert into importacao_cadastro select nextval('projeto.geometrias_id_seq'), "
                                         "x.id from " + spec->from + " where " + spec->where + " order by x.id"));
  ctx.counts().lidas = n;
  if (n == 0) throw Error(errc::not_found, "o cadastro do município não tem " + spec->layer.nome, "tipo");
  ctx.progress(0, n);
  Sql g("insert into " + common::geometry_partition(created.camada) +
        " (id, camada_id, geom, criado_por, atualizado_por) select m.gid, ");
  g.bind(camada, "bigint"), g << ", x.geom, ", g.bind(user, "bigint"), g << ", ", g.bind(user, "bigint");
  g << " from importacao_cadastro m join " << spec->from << " on x.id = m.oid";
  store::execute(s, g);
  // The values: one row per geometry in the layer's table, a column per field.
  std::string columns, exprs;
  for (std::size_t i = 0; i < spec->columns.size(); ++i) {
    const auto& c = spec->columns[i];
    columns += ", " + common::field_column(created.campos[i]);
    exprs += std::string(i ? ", " : "") + "(" + c.expr + ")::" + common::column_type(c.field.tipo);
  }
  store::execute(s, Sql("insert into " + common::layer_table(created.camada) + " (id" + columns + ") select m.gid, " +
                        exprs + " from importacao_cadastro m join " + spec->from +
                        " on x.id = m.oid where num_nonnulls(" + exprs + ") > 0"));
  ctx.progress(n, n);
  attach_layer(s, created.camada);
  bump_generation(s, created.camada);
  ctx.counts().importadas = n;
  return {created.camada, spec->layer.nome, spec->geometria, n};
}

void import_cadastre(store::Pool& db, const LoadInfo& info, const CadastreLayer& which, jobs::Context& ctx,
                     const std::function<void(std::int64_t)>& require_storage) {
  db.run([&](soci::session& s) {
    soci::transaction tx(s);
    require_storage(cadastre_bytes(s, which));
    begin_load(s);
    jobs::Layer layer = load_cadastre(s, info, which, ctx);
    finish_load(s, info, which.tipo, {layer}, ctx);
    tx.commit();
  });
}

}  // namespace cadastre::platform::imports
