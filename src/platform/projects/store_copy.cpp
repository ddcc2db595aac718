// The copy statement, built per call from the target database's own column lists (a column
// another migration adds to a table is copied without touching this file): every column
// is copied as it is, except the ids and links remapped through the map_* CTEs and the few
// columns a copy sets afresh. New ids are drawn with nextval() in materialized CTEs, so
// each old id maps to exactly one new id within the statement; the foreign keys between
// rows inserted by sibling CTEs are checked at the end of the statement, when all exist.
#include "platform/projects/store_copy.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <map>
#include <vector>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::projects {
namespace {

using Overrides = std::map<std::string, std::string>;

std::vector<std::string> columns(soci::session& s, const std::string& table) {
  store::Sql q("select string_agg(column_name::text, ',' order by ordinal_position) from information_schema.columns "
               "where table_schema = 'projeto' and is_generated = 'NEVER' and table_name = ");
  q.bind(table);
  std::string all = store::fetch_value(s, q).value_or("");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = std::min(all.find(',', i), all.size());
    out.push_back(all.substr(i, j - i));
    i = j + 1;
  }
  if (out.empty()) throw std::logic_error("tabela desconhecida: projeto." + table);
  return out;
}

// "insert into projeto.<table> (<columns>) select <alias.column or override> <from> returning 1";
// a column overridden with "" is left out (its default applies: a new serial id).
std::string insert(soci::session& s, const std::string& table, const std::string& alias, const Overrides& overrides,
                   const std::string& from) {
  std::string cols, exprs;
  for (const std::string& c : columns(s, table)) {
    auto o = overrides.find(c);
    if (o != overrides.end() && o->second.empty()) continue;
    cols += (cols.empty() ? "" : ", ") + c;
    exprs += (exprs.empty() ? "" : ", ") + (o != overrides.end() ? o->second : alias + "." + c);
  }
  return "insert into projeto." + table + " (" + cols + ") select " + exprs + " " + from + " returning 1";
}

// The relation the rows of `table` are read from: the table itself, or the document's array.
std::string relation(const CopySource& src, const std::string& table, const std::string& key) {
  if (src.document.empty()) return "projeto." + table;
  return "jsonb_populate_recordset(null::projeto." + table + ", (select d->'" + key + "' from doc))";
}

// The copied layers' labelling and categorisation name fields by id (layer_styles:
// rotulo.campos[].id, rotulo.rotacao.id, categorias.idCampo): point them at the copies.
// `field_map` is {"<old id>": new id}; an id it lacks (a field left behind) stays as it was.
void remap_style_fields(soci::session& s, std::int64_t project, const std::string& field_map) {
  const std::string swap = "case when m.d ? (e->>'id') then jsonb_set(e, '{id}', m.d->(e->>'id')) else e end";
  store::Sql q(
      "update projeto.camadas c set "
      "rotulo = c.rotulo || case when jsonb_typeof(c.rotulo->'campos') = 'array' then jsonb_build_object('campos', "
      "coalesce((select jsonb_agg(" + swap + " order by i) from jsonb_array_elements(c.rotulo->'campos') "
      "with ordinality x(e, i)), '[]')) else '{}' end || case when jsonb_typeof(c.rotulo->'rotacao') = 'object' "
      "then jsonb_build_object('rotacao', (select " + swap + " from (select c.rotulo->'rotacao' as e) y)) else '{}' end, "
      "categorias = case when m.d ? (c.categorias->>'idCampo') then jsonb_set(c.categorias, '{idCampo}', "
      "m.d->(c.categorias->>'idCampo')) else c.categorias end from (select ");
  q.bind(field_map, "jsonb") << " as d) m where c.projeto_id = " << std::to_string(project)
                             << " and (c.rotulo is not null or c.categorias is not null)";
  store::execute(s, q);
}

// [[old id, new id, arquivo|null], ...] as the copy statement lists its layers.
std::vector<LayerCopy> layer_copies(const std::string& json) {
  simdjson::dom::parser parser;
  std::vector<LayerCopy> out;
  for (simdjson::dom::element e : parser.parse(json).get_array()) {
    simdjson::dom::array a = e.get_array();
    LayerCopy l{int64_t(a.at(0)), int64_t(a.at(1)), std::nullopt};
    if (!a.at(2).is_null()) l.arquivo = std::string(std::string_view(a.at(2)));
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace

void allow_long_statements(soci::session& s) { s << "set local statement_timeout = '300s'"; }

Copied copy_contents(soci::session& s, const CopySource& src, std::int64_t from, std::int64_t to,
                     const CopyOptions& o, std::int64_t user) {
  const std::string FROM = std::to_string(from), TO = std::to_string(to), USER = std::to_string(user);
  const std::string now = "now()";
  store::Sql q("with ");
  if (!src.document.empty()) q << "doc as materialized (select ", q.bind(src.document, "jsonb"), q << " as d), ";

  // Layers, forms, fields: the structure, always.
  q << "src_c as materialized (select c.* from " << relation(src, "camadas", "camadas") << " c where c.projeto_id = "
    << FROM << " and (" << src.layer_filter << ")), "
    << "map_c as materialized (select id as old, nextval('projeto.camadas_id_seq') as new from src_c), "
    << "ins_c as ("
    << insert(s, "camadas", "c",
              {{"id", "m.new"}, {"projeto_id", TO}, {"geracao", "1"}, {"criado_por", USER}, {"criado_em", now},
               {"atualizado_em", now}},
              "from src_c c join map_c m on m.old = c.id")
    << "), src_f as materialized (select f.* from " << relation(src, "formularios", "formularios")
    << " f join map_c m on m.old = f.camada_id), "
    << "map_f as materialized (select id as old, nextval('projeto.formularios_id_seq') as new from src_f), "
    << "ins_f as ("
    << insert(s, "formularios", "f",
              {{"id", "m.new"}, {"camada_id", "mc.new"}, {"criado_em", now}, {"atualizado_em", now}},
              "from src_f f join map_f m on m.old = f.id join map_c mc on mc.old = f.camada_id")
    << "), src_k as materialized (select k.* from " << relation(src, "campos", "campos")
    << " k join map_f m on m.old = k.formulario_id), "
    << "map_k as materialized (select id as old, nextval('projeto.campos_id_seq') as new from src_k), "
    << "ins_k as ("
    << insert(s, "campos", "k",
              {{"id", "m.new"}, {"formulario_id", "mf.new"}, {"criado_em", now}, {"atualizado_em", now}},
              "from src_k k join map_k m on m.old = k.id join map_f mf on mf.old = k.formulario_id")
    << "), ins_a as ("
    << insert(s, "camadas_adicionais", "a", {{"id", ""}, {"projeto_id", TO}},
              "from " + relation(src, "camadas_adicionais", "adicionais") + " a where a.projeto_id = " + FROM)
    << ")";

  bool geometries = o.geometries || o.values;
  if (geometries) {
    Overrides g{{"id", "m.new"}, {"camada_id", "mc.new"}, {"vinculo_id", "mv.new"}};
    if (!o.keep_users) g.insert({{"criado_por", "null"}, {"atualizado_por", "null"}});
    q << ", src_g as materialized (select g.* from " << relation(src, "geometrias", "geometrias")
      << " g join map_c m on m.old = g.camada_id), "
      << "map_g as materialized (select id as old, nextval('projeto.geometrias_id_seq') as new from src_g), "
      << "ins_g as ("
      << insert(s, "geometrias", "g", g,
                "from src_g g join map_g m on m.old = g.id join map_c mc on mc.old = g.camada_id "
                "left join map_g mv on mv.old = g.vinculo_id")
      << ")";
  }
  if (geometries) {
    // A geometry's own label (migration 0017), with the field its rotation is read from.
    Overrides l{{"geometria_id", "mg.new"}, {"campo_rotacao_id", "mk.new"}};
    if (!o.keep_users) l.insert({"atualizado_por", USER});
    q << ", ins_l as ("
      << insert(s, "rotulos_geometria", "l", l,
                "from " + relation(src, "rotulos_geometria", "rotulos") +
                    " l join map_g mg on mg.old = l.geometria_id left join map_k mk on mk.old = l.campo_rotacao_id")
      << ")";
  }
  if (o.values) {
    Overrides v{{"id", "m.new"}, {"geometria_id", "mg.new"}, {"campo_id", "mk.new"}};
    if (!o.keep_users) v.insert({"atualizado_por", "null"});
    q << ", src_v as materialized (select v.* from " << relation(src, "valores", "valores")
      << " v join map_g mg on mg.old = v.geometria_id join map_k mk on mk.old = v.campo_id), "
      << "map_v as materialized (select id as old, nextval('projeto.valores_id_seq') as new from src_v), "
      << "ins_v as ("
      << insert(s, "valores", "v", v,
                "from src_v v join map_v m on m.old = v.id join map_g mg on mg.old = v.geometria_id "
                "join map_k mk on mk.old = v.campo_id")
      << ")";
  }
  if (o.shares) {
    q << ", ins_pu as ("
      << insert(s, "projeto_usuarios", "u", {{"projeto_id", TO}},
                "from " + relation(src, "projeto_usuarios", "compartilhamentos") + " u where u.projeto_id = " + FROM)
      << "), ins_cu as ("
      << insert(s, "camada_usuarios", "u", {{"id", ""}, {"camada_id", "m.new"}},
                "from " + relation(src, "camada_usuarios", "direitos") + " u join map_c m on m.old = u.camada_id")
      << ")";
  }
  if (o.history) {
    if (o.values)
      q << ", ins_va as ("
        << insert(s, "valores_auditoria", "a",
                  {{"id", ""}, {"valor_id", "mv.new"}, {"geometria_id", "mg.new"}, {"campo_id", "mk.new"}},
                  "from " + relation(src, "valores_auditoria", "auditoria") +
                      " a join map_g mg on mg.old = a.geometria_id join map_k mk on mk.old = a.campo_id "
                      "left join map_v mv on mv.old = a.valor_id")
        << ")";
    q << ", ins_e as ("
      << insert(s, "eventos", "e", {{"id", ""}, {"projeto_id", TO}},
                "from " + relation(src, "eventos", "eventos") + " e where e.projeto_id = " + FROM)
      << ")";
  }
  q << " select concat_ws(',', (select count(*) from ins_c), (select count(*) from ins_f), (select count(*) from ins_k), "
    << (geometries ? "(select count(*) from ins_g)" : "0") << ", " << (o.values ? "(select count(*) from ins_v)" : "0")
    << "), (select coalesce(jsonb_object_agg(old::text, new), '{}') from map_k)::text, "
    << "(select coalesce(jsonb_agg(jsonb_build_array(m.old, m.new, c.arquivo) order by m.old), '[]') "
    << "from map_c m join src_c c on c.id = m.old)::text";
  std::vector<store::Row> rows = store::fetch(s, q);
  remap_style_fields(s, to, rows.at(0)[1].value_or("{}"));
  std::string counts = rows.at(0)[0].value_or("0,0,0,0,0");
  Copied c;
  c.copies = layer_copies(rows.at(0)[2].value_or("[]"));
  std::int64_t* slots[] = {&c.layers, &c.forms, &c.fields, &c.geometries, &c.values};
  std::size_t at = 0;
  for (auto* slot : slots) {
    std::size_t next = std::min(counts.find(',', at), counts.size());
    *slot = std::stoll(counts.substr(at, next - at));
    at = next + 1;
  }
  return c;
}

std::string export_project(soci::session& s, std::int64_t id) {
  const std::string P = std::to_string(id);
  // Geometry columns travel as hex EWKB (SRID included), which geometry's input reads back.
  const std::string layers = "select c.* from projeto.camadas c where c.projeto_id = " + P;
  const std::string geoms = "select g.* from projeto.geometrias g join projeto.camadas c on c.id = g.camada_id "
                            "where c.projeto_id = " + P;
  store::Sql q(
      "select jsonb_build_object("
      "'projeto', (select to_jsonb(p) from projeto.projetos p where p.id = " + P + "), "
      "'camadas', coalesce((select jsonb_agg(to_jsonb(c) - 'extensao' || jsonb_build_object('extensao', "
      "encode(st_asewkb(c.extensao), 'hex'))) from (" + layers + ") c), '[]'), "
      "'formularios', coalesce((select jsonb_agg(to_jsonb(f)) from projeto.formularios f join (" + layers +
      ") c on c.id = f.camada_id), '[]'), "
      "'campos', coalesce((select jsonb_agg(to_jsonb(k)) from projeto.campos k join projeto.formularios f on "
      "f.id = k.formulario_id join (" + layers + ") c on c.id = f.camada_id), '[]'), "
      "'adicionais', coalesce((select jsonb_agg(to_jsonb(a)) from projeto.camadas_adicionais a where a.projeto_id = " + P +
      "), '[]'), "
      "'geometrias', coalesce((select jsonb_agg(to_jsonb(g) - 'geom' || jsonb_build_object('geom', "
      "encode(st_asewkb(g.geom), 'hex'))) from (" + geoms + ") g), '[]'), "
      "'valores', coalesce((select jsonb_agg(to_jsonb(v)) from projeto.valores v join (" + geoms +
      ") g on g.id = v.geometria_id), '[]'), "
      "'rotulos', coalesce((select jsonb_agg(to_jsonb(l) - 'posicao' || jsonb_build_object('posicao', "
      "encode(st_asewkb(l.posicao), 'hex'))) from projeto.rotulos_geometria l join (" + geoms +
      ") g on g.id = l.geometria_id), '[]'), "
      "'compartilhamentos', coalesce((select jsonb_agg(to_jsonb(u)) from projeto.projeto_usuarios u "
      "where u.projeto_id = " + P + "), '[]'), "
      "'direitos', coalesce((select jsonb_agg(to_jsonb(u)) from projeto.camada_usuarios u join (" + layers +
      ") c on c.id = u.camada_id), '[]'), "
      "'auditoria', coalesce((select jsonb_agg(to_jsonb(a)) from projeto.valores_auditoria a join (" + geoms +
      ") g on g.id = a.geometria_id), '[]'), "
      "'eventos', coalesce((select jsonb_agg(to_jsonb(e)) from projeto.eventos e where e.projeto_id = " + P +
      "), '[]'))::text");
  auto doc = store::fetch_value(s, q);
  if (!doc) throw Error(errc::not_found, "projeto não encontrado", "id");
  return *doc;
}

}  // namespace cadastre::platform::projects
