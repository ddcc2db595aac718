// The copy statements, built per call from the target database's own column lists (a
// column another migration adds to a table is copied without touching this file): every
// column is copied as it is, except the ids and links remapped through the map_* CTEs and
// the few columns a copy sets afresh. New ids are drawn with nextval() in materialized
// CTEs, so each old id maps to exactly one new id; the foreign keys between rows inserted
// by sibling CTEs are checked at the end of the statement, when all exist. Three
// statements, because a layer's table (camadas.l<id>) and its columns are made by the
// triggers of the layer's and fields' rows, at the end of the statement inserting them:
// the layers and forms, then the fields, then the geometries with their values; the maps
// of one statement are passed to the next as JSON. Copied geometries and values go into
// bare tables, indexed after them (projeto.camada_anexar, projeto.camada_indices).
#include "platform/projects/store_copy.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <map>
#include <vector>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
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

// "insert into <into> (<columns>) select <alias.column or override> <from> returning 1", the
// columns of projeto.<table>, into that table unless `into` names another (a partition);
// a column overridden with "" is left out (its default applies: a new serial id).
std::string insert(soci::session& s, const std::string& table, const std::string& alias, const Overrides& overrides,
                   const std::string& from, const std::string& into = {}) {
  std::string cols, exprs;
  for (const std::string& c : columns(s, table)) {
    auto o = overrides.find(c);
    if (o != overrides.end() && o->second.empty()) continue;
    cols += (cols.empty() ? "" : ", ") + c;
    exprs += (exprs.empty() ? "" : ", ") + (o != overrides.end() ? o->second : alias + "." + c);
  }
  return "insert into " + (into.empty() ? "projeto." + table : into) + " (" + cols + ") select " + exprs + " " + from +
         " returning 1";
}

// The relation the rows of `table` are read from: the table itself, or the document's array.
std::string relation(const CopySource& src, const std::string& table, const std::string& key) {
  if (!src.document) return "projeto." + table;
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

// {"key": array, ...} of the `keys` of the document's `parts` that it has (numbers keep
// their digits): each statement of a copy is sent the ones it reads.
std::string document_of(const DocumentParts& parts, std::initializer_list<std::string_view> keys) {
  std::size_t size = 2;
  for (std::string_view k : keys)
    if (auto a = parts.find(k); a != parts.end()) size += a->first.size() + a->second.size() + 4;
  std::string out;
  out.reserve(size);
  out += "{";
  for (std::string_view k : keys)
    if (auto a = parts.find(k); a != parts.end()) {
      out += out.size() > 1 ? ",\"" : "\"";
      out += a->first;
      out += "\":";
      out += a->second;
    }
  return out + "}";
}

// A field of a copied layer: its layer's and its own old and new ids, and its type.
struct FieldCopy {
  std::int64_t old_layer = 0, new_layer = 0, old_field = 0, new_field = 0;
  std::string tipo;
};

// How many of the SQL expressions `exprs` are not null (num_nonnulls takes at most 100).
std::string nonnulls(const std::vector<std::string>& exprs) {
  std::string out;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    if (i % 100 == 0) out += i ? ") + num_nonnulls(" : "(num_nonnulls(";
    else out += ", ";
    out += exprs[i];
  }
  return out.empty() ? "0" : out + "))";
}

// The insert of one copied layer's values (`fields`, all of that layer): its old table's
// rows (or the document's, typed as the columns) into the new one's, the geometry ids
// through map_g; returning how many values each row holds.
std::string insert_values(const CopySource& src, const std::vector<FieldCopy>& fields) {
  std::vector<std::string> to;
  std::string from, old_columns;
  for (const FieldCopy& f : fields) {
    to.push_back(common::field_column(f.new_field));
    from += ", l." + common::field_column(f.old_field);
    old_columns += ", " + common::field_column(f.old_field) + " " + common::column_type(f.tipo);
  }
  const std::string old_layer = std::to_string(fields.front().old_layer);
  std::string rows = !src.document
                         ? common::layer_table(fields.front().old_layer) + " l"
                         : "jsonb_to_recordset((select e->'linhas' from doc, jsonb_array_elements(d->'valores') e "
                           "where e->>'camada' = '" + old_layer + "')) as l(id bigint" + old_columns + ")";
  std::string columns;
  for (const std::string& c : to) columns += ", " + c;
  return "insert into " + common::layer_table(fields.front().new_layer) + " (id" + columns + ") select mg.new" + from +
         " from " + rows + " join map_g mg on mg.old = l.id returning " + nonnulls(to) + " as n";
}

}  // namespace

void allow_long_statements(soci::session& s) { s << "set local statement_timeout = '300s'"; }

Copied copy_contents(soci::session& s, const CopySource& src, std::int64_t from, std::int64_t to,
                     const CopyOptions& o, std::int64_t user) {
  const std::string FROM = std::to_string(from), TO = std::to_string(to), USER = std::to_string(user);
  const std::string now = "now()";
  auto with_doc = [&](store::Sql& q, std::initializer_list<std::string_view> keys) {
    q << "with ";
    if (!src.document) return;
    q << "doc as materialized (select ", q.bind(document_of(*src.document, keys), "jsonb"), q << " as d), ";
  };
  Copied c;

  // Copied geometries and values go into their new layers' tables bare (the layers'
  // partitions not attached, the fields' columns not indexed), which are indexed after
  // them, once (as an import does: an index built over the rows is several times faster
  // than one kept row by row, the GiST and trigram ones most).
  const bool bare = o.geometries || o.values;
  auto indexes_after = [&](bool on) {
    store::fetch(s, store::Sql(std::string("select set_config('cadastre.indices_depois', '") + (on ? "on" : "off") +
                               "', true)"));
  };
  if (bare) indexes_after(true);

  // 1. Layers and forms, with what hangs on the layers alone. A layer's table is made by
  //    its row's trigger at the end of this statement: its fields are inserted next.
  store::Sql q1;
  with_doc(q1, {"camadas", "formularios", "adicionais", "compartilhamentos", "direitos", "eventos"});
  q1 << "src_c as materialized (select c.* from " << relation(src, "camadas", "camadas") << " c where c.projeto_id = "
     << FROM << " and (" << src.layer_filter << ")), "
     << "map_c as materialized (select id as old, nextval('projeto.camadas_id_seq') as new from src_c), "
     << "ins_c as ("
     << insert(s, "camadas", "c",
               {{"id", "m.new"}, {"projeto_id", TO}, {"geracao", "1"}, {"total_geometrias", "0"}, {"criado_por", USER},
                {"criado_em", now}, {"atualizado_em", now}},
               "from src_c c join map_c m on m.old = c.id")
     << "), src_f as materialized (select f.* from " << relation(src, "formularios", "formularios")
     << " f join map_c m on m.old = f.camada_id), "
     << "map_f as materialized (select id as old, nextval('projeto.formularios_id_seq') as new from src_f), "
     << "ins_f as ("
     << insert(s, "formularios", "f",
               {{"id", "m.new"}, {"camada_id", "mc.new"}, {"criado_em", now}, {"atualizado_em", now}},
               "from src_f f join map_f m on m.old = f.id join map_c mc on mc.old = f.camada_id")
     << "), ins_a as ("
     << insert(s, "camadas_adicionais", "a", {{"id", ""}, {"projeto_id", TO}},
               "from " + relation(src, "camadas_adicionais", "adicionais") + " a where a.projeto_id = " + FROM)
     << ")";
  if (o.shares) {
    q1 << ", ins_pu as ("
       << insert(s, "projeto_usuarios", "u", {{"projeto_id", TO}},
                 "from " + relation(src, "projeto_usuarios", "compartilhamentos") + " u where u.projeto_id = " + FROM)
       << "), ins_cu as ("
       << insert(s, "camada_usuarios", "u", {{"id", ""}, {"camada_id", "m.new"}},
                 "from " + relation(src, "camada_usuarios", "direitos") + " u join map_c m on m.old = u.camada_id")
       << ")";
  }
  if (o.history) {
    q1 << ", ins_e as ("
       << insert(s, "eventos", "e", {{"id", ""}, {"projeto_id", TO}},
                 "from " + relation(src, "eventos", "eventos") + " e where e.projeto_id = " + FROM)
       << ")";
  }
  q1 << " select concat_ws(',', (select count(*) from ins_c), (select count(*) from ins_f)), "
     << "(select coalesce(jsonb_agg(jsonb_build_array(m.old, m.new, mc.old, mc.new)), '[]') from map_f m "
     << "join src_f f on f.id = m.old join map_c mc on mc.old = f.camada_id)::text, "
     << "(select coalesce(jsonb_agg(jsonb_build_array(m.old, m.new, c.arquivo) order by m.old), '[]') "
     << "from map_c m join src_c c on c.id = m.old)::text";
  store::Row r1 = store::fetch(s, q1).at(0);
  const std::string counts = r1[0].value_or("0,0");
  c.layers = std::stoll(counts.substr(0, counts.find(',')));
  c.forms = std::stoll(counts.substr(counts.find(',') + 1));
  c.copies = layer_copies(r1[2].value_or("[]"));

  // 2. Fields (each adds its column to its layer's table, at the end of this statement).
  store::Sql q2;
  with_doc(q2, {"campos"});
  q2 << "map_f as materialized (select (e->>0)::bigint as old, (e->>1)::bigint as new, (e->>2)::bigint as old_c, "
     << "(e->>3)::bigint as new_c from jsonb_array_elements(";
  q2.bind(r1[1].value_or("[]"), "jsonb") << ") e), src_k as materialized (select k.* from "
                                         << relation(src, "campos", "campos")
                                         << " k join map_f m on m.old = k.formulario_id), "
     << "map_k as materialized (select id as old, nextval('projeto.campos_id_seq') as new from src_k), "
     << "ins_k as ("
     << insert(s, "campos", "k",
               {{"id", "m.new"}, {"formulario_id", "mf.new"}, {"criado_em", now}, {"atualizado_em", now}},
               "from src_k k join map_k m on m.old = k.id join map_f mf on mf.old = k.formulario_id")
     << ") select (select count(*) from ins_k)::text, "
     << "(select coalesce(jsonb_object_agg(old::text, new), '{}') from map_k)::text, "
     << "(select coalesce(jsonb_agg(jsonb_build_array(mf.old_c, mf.new_c, m.old, m.new, k.tipo) "
     << "order by mf.old_c, m.old), '[]') from map_k m join src_k k on k.id = m.old "
     << "join map_f mf on mf.old = k.formulario_id)::text";
  store::Row r2 = store::fetch(s, q2).at(0);
  if (bare) indexes_after(false);
  c.fields = std::stoll(r2[0].value_or("0"));
  const std::string field_map = r2[1].value_or("{}");
  remap_style_fields(s, to, field_map);

  // 3. Geometries with their labels, values (a row per geometry in the new layer's table)
  //    and the values' history.
  if (o.geometries || o.values) {
    std::string layer_map = "[", from_layers;
    for (const LayerCopy& l : c.copies) {
      layer_map += (layer_map.size() > 1 ? ",[" : "[") + std::to_string(l.from) + "," + std::to_string(l.to) + "]";
      from_layers += (from_layers.empty() ? "" : ",") + std::to_string(l.from);
    }
    layer_map += "]";
    // Read from the tables, the source layers as constants: planned on their partitions,
    // each layer's geometries read from its own (not held whole in a CTE: geometries are
    // large). A document's are parsed once, into src_g.
    const bool tables = !src.document;
    const std::string only_copied = tables ? " where g.camada_id = any('{" + from_layers + "}'::bigint[])" : "";
    const std::string geometries_of = tables ? "projeto.geometrias" : "src_g";
    store::Sql q3;
    with_doc(q3, {"geometrias", "rotulos", "valores", "auditoria"});
    q3 << "map_c as materialized (select (e->>0)::bigint as old, (e->>1)::bigint as new from jsonb_array_elements(";
    q3.bind(layer_map, "jsonb") << ") e), map_k as materialized (select key::bigint as old, value::bigint as new "
                                   "from jsonb_each_text(";
    q3.bind(field_map, "jsonb") << "))";
    Overrides g{{"id", "m.new"}, {"camada_id", "mc.new"}, {"vinculo_id", "mv.new"}};
    if (!o.keep_users) g.insert({{"criado_por", "null"}, {"atualizado_por", "null"}});
    // New ids layer by layer, so that each layer's are consecutive: one range of
    // projeto.faixas_geometria per layer when the partition is attached.
    if (!tables)
      q3 << ", src_g as materialized (select g.* from " << relation(src, "geometrias", "geometrias")
         << " g join map_c m on m.old = g.camada_id)";
    q3 << ", map_g as materialized (select id as old, nextval('projeto.geometrias_id_seq') as new from "
          "(select g.id, g.camada_id from " << geometries_of << " g join map_c m on m.old = g.camada_id"
       << only_copied << " order by g.camada_id, g.id) o)";
    // Each layer's geometries into its new partition, bare.
    std::string geometries = "0";
    for (std::size_t i = 0; i < c.copies.size(); ++i) {
      const LayerCopy& l = c.copies[i];
      const std::string name = "ins_g" + std::to_string(i);
      g["camada_id"] = std::to_string(l.to);
      q3 << ", " << name << " as ("
         << insert(s, "geometrias", "g", g,
                   "from " + geometries_of + " g join map_g m on m.old = g.id left join map_g mv on "
                   "mv.old = g.vinculo_id where g.camada_id = " + std::to_string(l.from),
                   common::geometry_partition(l.to))
         << ")";
      geometries += " + (select count(*) from " + name + ")";
    }
    // A geometry's own label (migration 0017), with the field its rotation is read from.
    Overrides l{{"geometria_id", "mg.new"}, {"campo_rotacao_id", "mk.new"}};
    if (!o.keep_users) l.insert({"atualizado_por", USER});
    q3 << ", ins_l as ("
       << insert(s, "rotulos_geometria", "l", l,
                 "from " + relation(src, "rotulos_geometria", "rotulos") +
                     " l join map_g mg on mg.old = l.geometria_id left join map_k mk on mk.old = l.campo_rotacao_id")
       << ")";
    std::string values = "0";
    if (o.values) {
      // Per layer, its old table's columns into the new one's: [[old layer, new layer, old
      // field, new field, tipo], ...] by old layer.
      simdjson::dom::parser fields_parser;
      simdjson::dom::array fields = fields_parser.parse(r2[2].value_or("[]")).get_array();
      std::vector<FieldCopy> layer;
      int n = 0;
      auto flush = [&] {
        if (layer.empty()) return;
        const std::string name = "ins_v" + std::to_string(n++);
        q3 << ", " << name << " as (" << insert_values(src, layer) << ")";
        values += " + (select coalesce(sum(n), 0) from " + name + ")";
        layer.clear();
      };
      for (simdjson::dom::element e : fields) {
        simdjson::dom::array a = e.get_array();
        FieldCopy f{int64_t(a.at(0)), int64_t(a.at(1)), int64_t(a.at(2)), int64_t(a.at(3)),
                    std::string(std::string_view(a.at(4)))};
        if (!layer.empty() && layer.back().old_layer != f.old_layer) flush();
        layer.push_back(std::move(f));
      }
      flush();
      if (o.history)
        // Value ids are computed from the geometry and the field's position: the new ones.
        q3 << ", ins_va as ("
           << insert(s, "valores_auditoria", "a",
                     {{"id", ""}, {"valor_id", "projeto.valor_id(mg.new, kn.posicao)"}, {"geometria_id", "mg.new"},
                      {"campo_id", "mk.new"}},
                     "from " + relation(src, "valores_auditoria", "auditoria") +
                         " a join map_g mg on mg.old = a.geometria_id join map_k mk on mk.old = a.campo_id "
                         "join projeto.campos kn on kn.id = mk.new")
           << ")";
    }
    q3 << " select concat_ws(',', " << geometries << ", " << values << ")";
    const std::string made = store::fetch_value(s, q3).value_or("0,0");
    c.geometries = std::stoll(made.substr(0, made.find(',')));
    c.values = std::stoll(made.substr(made.find(',') + 1));
  }
  // 4. The new layers' partitions attached (their key, GiST index, id ranges and count) and
  //    their values' columns indexed.
  if (bare && !c.copies.empty()) {
    std::string layers;
    for (const LayerCopy& l : c.copies) layers += (layers.empty() ? "" : ",") + std::to_string(l.to);
    const std::string each = " from unnest('{" + layers + "}'::bigint[]) x";
    store::fetch(s, store::Sql("select projeto.camada_anexar(x)::text" + each));
    store::fetch(s, store::Sql("select sum(projeto.camada_indices(x))::text" + each));
  }
  return c;
}

std::string export_project(soci::session& s, std::int64_t id) {
  const std::string P = std::to_string(id);
  // Geometry columns travel as hex EWKB (SRID included), which geometry's input reads back.
  const std::string layers = "select c.* from projeto.camadas c where c.projeto_id = " + P;
  // The layers as a constant, so that the statements are planned on their partitions.
  const std::string geoms = "select g.* from projeto.geometrias g join projeto.camadas c on c.id = g.camada_id "
                            "where c.projeto_id = " + P + " and g.camada_id = any('" +
                            common::project_layers(s, id) + "'::bigint[])";
  // The values: each layer's table, its rows as {"id": geometry, "c_<field>": value, ...}.
  const std::string ids =
      store::fetch_value(s, store::Sql("select string_agg(id::text, ',') from projeto.camadas where projeto_id = " + P))
          .value_or("");
  std::string values;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = std::min(ids.find(',', i), ids.size());
    const std::int64_t layer = std::stoll(ids.substr(i, j - i));
    values += (values.empty() ? "" : " union all ") + std::string("select jsonb_build_object('camada', ") +
              std::to_string(layer) + ", 'linhas', coalesce((select jsonb_agg(to_jsonb(l)) from " +
              common::layer_table(layer) + " l), '[]')) as v";
    i = j + 1;
  }
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
      "'valores', " + (values.empty() ? std::string("'[]'::jsonb") : "(select jsonb_agg(v) from (" + values + ") x)") +
      ", "
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
  // Tens of megabytes for a large layer.
  store::Value doc = store::fetch_value(s, q);
  if (!doc) throw Error(errc::not_found, "projeto não encontrado", "id");
  return std::move(*doc);
}

DocumentParts document_parts(std::string& document) {
  DocumentParts out;
  if (document.empty()) return out;
  document.reserve(document.size() + simdjson::SIMDJSON_PADDING);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc =
      parser.iterate(simdjson::padded_string_view(document.data(), document.size(), document.capacity()));
  for (auto field : doc.get_object()) {
    std::string_view key = field.unescaped_key();
    simdjson::ondemand::value v = field.value();
    switch (v.type()) {
      case simdjson::ondemand::json_type::array: {
        simdjson::ondemand::array a = v.get_array();
        out.emplace(key, std::string_view(a.raw_json()));
        break;
      }
      case simdjson::ondemand::json_type::object: {
        simdjson::ondemand::object o = v.get_object();
        out.emplace(key, std::string_view(o.raw_json()));
        break;
      }
      default:  // export_project() writes arrays and the project's object only
        break;
    }
  }
  return out;
}

std::string document_project(const DocumentParts& parts) {
  auto p = parts.find("projeto");
  return p == parts.end() ? "null" : std::string(p->second);
}

}  // namespace cadastre::platform::projects
