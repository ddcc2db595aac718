#include "platform/fields/store.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/fields/formly.hpp"
#include "cadastre/formula.hpp"
#include "platform/guard/guard.hpp"
#include "store/prepared.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::fields {
namespace {

using store::Sql;

// How many values a conversion reads at a time (each batch converted while the next is
// read). The last batch is converted after the read ends: 2,500 values keep that tail
// under a millisecond (10,000 made the dry run of 100,000 values 4 ms slower).
constexpr std::size_t kConversionBatch = 2500;

const std::map<std::string, std::string> kColumns = {
    {"id", "k.id"}, {"nome", "k.nome"}, {"chave", "k.chave"}, {"ordem", "k.ordem"}};

// The columns definition_of() reads, in its order.
const std::string kDefinitionColumns =
    "k.id::text, k.formulario_id::text, k.nome, k.chave, k.tipo, k.obrigatorio::text, k.unico::text, "
    "k.minimo::text, k.maximo::text, k.padrao, k.opcoes::text, k.dominio, k.formula, k.avaliacao, k.ajuda, "
    "k.ordem::text, k.ativo::text";

std::vector<std::string> json_strings(const std::optional<std::string>& array) {
  std::vector<std::string> out;
  if (!array) return out;
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(*array).get(items)) return out;
  for (auto item : items) {
    std::string_view v;
    if (!item.get(v)) out.emplace_back(v);
  }
  return out;
}

field_values::Definition definition_of(const store::Row& r) {
  field_values::Definition d;
  d.def.id = std::stoll(*r[0]);
  d.formulario = std::stoll(*r[1]);
  d.def.nome = *r[2];
  d.def.chave = *r[3];
  d.def.tipo = *r[4];
  d.def.obrigatorio = r[5] == "true";
  d.def.unico = r[6] == "true";
  d.def.minimo = r[7];
  d.def.maximo = r[8];
  d.def.padrao = r[9];
  d.def.opcoes = json_strings(r[10]);
  d.def.dominio = r[11];
  d.def.formula = r[12];
  d.avaliacao = r[13];
  d.ajuda = r[14];
  d.ordem = std::stoi(*r[15]);
  d.ativo = r[16] == "true";
  return d;
}

std::optional<std::string> options_json(const std::vector<std::string>& opcoes) {
  if (opcoes.empty()) return std::nullopt;
  JsonWriter w;
  w.begin_array();
  for (const auto& o : opcoes) w.value(o);
  w.end_array();
  return std::move(w).str();
}

// The field `id` as the session sees it (its row locked by the caller's statement before).
field_values::Definition definition_in(soci::session& s, std::int64_t id) {
  Sql q("select " + kDefinitionColumns + " from projeto.campos k where k.id = ");
  q.bind(std::to_string(id), "bigint");
  auto rows = store::fetch(s, q);
  if (rows.empty()) throw Error(errc::not_found, "campo " + std::to_string(id) + " não encontrado", "id");
  return definition_of(rows[0]);
}

const char* flag(bool b) { return b ? "true" : "false"; }

// The field and the project it belongs to, the project's row locked: field writes of one
// project run one at a time, so the checks below (keys, variables) hold when they commit.
struct Place {
  std::int64_t projeto = 0, camada = 0;
};
Place lock_project(soci::session& s, std::string_view from_where, const std::string& what) {
  Sql q("select p.id::text, c.id::text from projeto.formularios f "
        "join projeto.camadas c on c.id = f.camada_id join projeto.projetos p on p.id = c.projeto_id ");
  q << from_where << " for no key update of p";
  auto rows = store::fetch(s, q);
  if (rows.empty()) throw Error(errc::not_found, what + " não encontrado", "id");
  return {std::stoll(*rows[0][0]), std::stoll(*rows[0][1])};
}
Place lock_project_of_form(soci::session& s, std::int64_t formulario) {
  return lock_project(s, "where f.id = " + std::to_string(formulario), "formulário " + std::to_string(formulario));
}
// The same, and the field's own row (its definition does not move under the caller).
Place lock_field(soci::session& s, std::int64_t campo) {
  return lock_project(s, "join projeto.campos k on k.formulario_id = f.id where k.id = " + std::to_string(campo) +
                             " for update of k",
                      "campo " + std::to_string(campo));
}

std::vector<field_values::Definition> layer_fields(soci::session& s, std::int64_t camada) {
  Sql q("select " + kDefinitionColumns +
        " from projeto.campos k join projeto.formularios f on f.id = k.formulario_id where f.camada_id = ");
  q.bind(std::to_string(camada), "bigint") << " order by k.id";
  std::vector<field_values::Definition> out;
  for (const auto& r : store::fetch(s, q)) out.push_back(definition_of(r));
  return out;
}

const field_values::Definition* by_key(const std::vector<field_values::Definition>& layer,
                                       const std::string& chave, std::int64_t except) {
  for (const auto& f : layer)
    if (f.def.chave == chave && f.def.id != except) return &f;
  return nullptr;
}

// The calculated fields of the layer (other than `except`) whose formula reads `chave`.
std::vector<const field_values::Definition*> readers_of(const std::vector<field_values::Definition>& layer,
                                                        const std::string& chave, std::int64_t except) {
  std::vector<const field_values::Definition*> out;
  for (const auto& f : layer) {
    if (f.def.id == except || f.def.tipo != "calculado" || !f.def.formula) continue;
    auto vars = cadastre::formula::variables(*f.def.formula);
    if (std::find(vars.begin(), vars.end(), chave) != vars.end()) out.push_back(&f);
  }
  return out;
}

void check_in_layer(const field_values::Definition& d, const std::vector<field_values::Definition>& layer) {
  if (const field_values::Definition* other = by_key(layer, d.def.chave, d.def.id))
    throw Error(errc::conflict,
                "chave " + d.def.chave + " já existe na camada (campo " + std::to_string(other->def.id) + ")", "chave");
  if (d.def.tipo != "calculado") return;
  for (const auto& key : cadastre::formula::variables(*d.def.formula)) {
    if (key == d.def.chave) throw Error(errc::invalid_argument, "formula: o campo não lê a si mesmo", "formula");
    const field_values::Definition* f = by_key(layer, key, d.def.id);
    if (!f) throw Error(errc::invalid_argument, "formula: chave desconhecida na camada: " + key, "formula");
    // Only typed numbers: a calculated field never reads another, so no cycle can form.
    if (f->def.tipo != "inteiro" && f->def.tipo != "decimal")
      throw Error(errc::invalid_argument,
                  "formula: " + key + " é do tipo " + f->def.tipo + "; a fórmula lê campos inteiro ou decimal",
                  "formula");
  }
}

void check_variable_free(soci::session& s, std::int64_t projeto, const field_values::Definition& d) {
  if (!d.avaliacao) return;
  Sql q("select k.id::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
        "join projeto.camadas c on c.id = f.camada_id where c.projeto_id = ");
  q.bind(std::to_string(projeto), "bigint") << " and k.avaliacao = ";
  q.bind(*d.avaliacao) << " and k.id <> ";
  q.bind(std::to_string(d.def.id), "bigint") << " limit 1";
  if (auto other = store::fetch_value(s, q))
    throw Error(errc::conflict, "avaliacao: a variável " + *d.avaliacao + " já é do campo " + *other + " do projeto",
                "avaliacao");
}

// 400 unless `name` is a table of the tenant's `dominio` schema.
void require_domain(const service::Caller& s, const std::string& name) {
  if (s.catalog("dominio")->find(name) || s.reload_catalog("dominio")->find(name)) return;
  throw Error(errc::invalid_argument, "dominio: não há a tabela dominio." + name, "dominio");
}

void bind_attributes(Sql& q, const field_values::Definition& d) {
  const field_values::FieldDef& f = d.def;
  q.bind(f.nome) << ", ";
  q.bind(f.chave) << ", ";
  q.bind(f.tipo) << ", " << flag(f.obrigatorio) << ", " << flag(f.unico) << ", ";
  q.bind(f.minimo, "numeric") << ", ";
  q.bind(f.maximo, "numeric") << ", ";
  q.bind(f.padrao) << ", ";
  q.bind(options_json(f.opcoes), "jsonb") << ", ";
  q.bind(f.dominio) << ", ";
  q.bind(f.formula) << ", ";
  q.bind(d.avaliacao) << ", ";
  q.bind(d.ajuda) << ", ";
}

std::int64_t insert(soci::session& s, const field_values::Definition& d, std::optional<int> ordem) {
  Sql q("insert into projeto.campos (formulario_id, nome, chave, tipo, obrigatorio, unico, minimo, maximo, "
        "padrao, opcoes, dominio, formula, avaliacao, ajuda, ordem, ativo) values (");
  std::string form = std::to_string(d.formulario);
  q << form << ", ";
  bind_attributes(q, d);
  // A field without an order goes after the form's last one.
  q << "coalesce(";
  q.bind(ordem ? std::optional<std::string>(std::to_string(*ordem)) : std::nullopt, "integer")
      << ", (select coalesce(max(ordem) + 1, 0) from projeto.campos where formulario_id = " << form << ")), "
      << flag(d.ativo) << ") returning id::text";
  return std::stoll(*store::fetch_value(s, q));
}

// The PostgreSQL array literal of `items` (NULL for nullopt), bound as one text.
std::string array_literal(const std::vector<std::optional<std::string>>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    if (!items[i]) {
      out += "NULL";
      continue;
    }
    out += '"';
    for (char c : *items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

// The statement that reads every value of `field` (of layer `camada`) in the geometries'
// order, and the position its values' ids are computed from. `lock`: the rows stay as read
// until the rewrite commits (a value edited meanwhile would otherwise be overwritten from
// its old text).
struct ValuesRead {
  Sql q;
  int posicao = 0;
};
ValuesRead values_read(soci::session& s, std::int64_t camada, const field_values::Definition& field, bool lock) {
  // A value's id is computed from its geometry and its field's position (layer_table.hpp).
  Sql p("select posicao::text from projeto.campos where id = ");
  p.bind(std::to_string(field.def.id), "bigint");
  const int posicao = std::stoi(store::fetch_value(s, p).value_or("0"));
  const std::string column = "l." + common::field_column(field.def.id);
  return {Sql("select l.id::text, " + column + "::text from " + common::layer_table(camada) + " l where " + column +
              " is not null order by l.id" + (lock ? " for update of l" : "")),
          posicao};
}

// Row `i` of `rows` (id, value; the value never NULL): the geometry, the value's id
// computed from it and `posicao`, and the value's text in place.
struct RowValue {
  std::int64_t geometria = 0, id = 0;
  std::string_view text;
};
RowValue row_value(const store::TextRows& rows, std::size_t i, int posicao) {
  RowValue r;
  const std::string_view id = *rows.at(i, 0);
  std::from_chars(id.data(), id.data() + id.size(), r.geometria);
  r.id = common::value_id(r.geometria, posicao);
  r.text = *rows.at(i, 1);
  return r;
}

// Every value of `field`, by geometry, with its computed id (`lock` as values_read).
std::vector<field_values::StoredValue> values_of(soci::session& s, std::int64_t camada,
                                                 const field_values::Definition& field, bool lock) {
  ValuesRead read = values_read(s, camada, field, lock);
  // Every value of the layer (100,000 at a large one), read in place from libpq's result.
  store::TextRows rows = store::fetch_text(s, read.q);
  std::vector<field_values::StoredValue> out;
  out.reserve(rows.size());
  const std::string column(field_values::column_of(field.def.tipo));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    RowValue r = row_value(rows, i, read.posicao);
    out.push_back({r.id, r.geometria, field_values::Typed{column, std::string(r.text)}});
  }
  return out;
}

// The plan converting `field`'s values to `tipo`, made while they are read: each batch of
// values is converted (on the read's worker thread, store::fetch_text_batches) while
// PostgreSQL reads the next.
field_values::Plan plan_conversion(soci::session& s, std::int64_t camada, const field_values::Definition& field,
                                   const std::string& tipo, bool confirm) {
  field_values::ConversionPlanner planner(field, tipo, confirm);
  if (planner.needs_every_value())  // the list's options come from every value first
    return field_values::plan_conversion(field, values_of(s, camada, field, confirm), tipo, confirm);
  ValuesRead read = values_read(s, camada, field, confirm);
  store::fetch_text_batches(s, read.q, kConversionBatch, [&](const store::TextRows& rows) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      RowValue r = row_value(rows, i, read.posicao);
      planner.add(r.id, r.geometria, r.text);
    }
  });
  return std::move(planner).finish();
}

void retype(soci::session& s, const field_values::Definition& d) {
  const field_values::FieldDef& f = d.def;
  Sql q("update projeto.campos set tipo = ");
  q.bind(f.tipo) << ", minimo = ";
  q.bind(f.minimo, "numeric") << ", maximo = ";
  q.bind(f.maximo, "numeric") << ", padrao = ";
  q.bind(f.padrao) << ", opcoes = ";
  q.bind(options_json(f.opcoes), "jsonb") << ", unico = " << flag(f.unico)
                                          << ", dominio = null, formula = null, atualizado_em = now() where id = ";
  q.bind(std::to_string(f.id), "bigint");
  store::execute(s, q);
}

// Rewrites the values of field `campo` (of layer `camada`, retyped to `tipo` just before)
// in its column of the layer's table, one statement, with an audit row each. A change of
// type family left the column empty; the values the plan does not write stay as they were
// otherwise.
void rewrite_values(soci::session& s, std::int64_t camada, std::int64_t campo, const std::string& tipo,
                    const field_values::Plan& plan, std::int64_t user) {
  std::vector<std::optional<std::string>> ids, geometries, values, before, after;
  for (const auto& w : plan.writes) {
    ids.emplace_back(std::to_string(w.valor));
    geometries.emplace_back(std::to_string(w.geometria));
    values.push_back(w.depois.text);
    before.emplace_back(w.antes);
    after.emplace_back(to_json(w.depois));
  }
  const std::string column = common::field_column(campo);
  Sql q("with n as (select * from unnest(");
  q.bind(array_literal(ids), "bigint[]") << ", ";
  q.bind(array_literal(geometries), "bigint[]") << ", ";
  q.bind(array_literal(values), "text[]") << ", ";
  q.bind(array_literal(before), "text[]") << ", ";
  q.bind(array_literal(after), "text[]") << ") as n(id, geometria, valor, antes, depois)), "
      << "u as (update " << common::layer_table(camada) << " l set " << column << " = n.valor::"
      << common::column_type(tipo) << " from n where l.id = n.geometria returning n.id, l.id as geometria, n.antes, "
      << "n.depois) "
      << "insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, antes, depois, usuario_id) "
      << "select id, geometria, " << std::to_string(campo) << ", 'converter', antes::jsonb, depois::jsonb, "
      << std::to_string(user) << " from u";
  store::execute(s, q);
}

// Inserts the values of the new fields `ids` of a split (of type `tipo`, columns of layer
// `camada`'s table): one row per geometry with all its parts, one statement, with an audit
// row each.
void insert_values(soci::session& s, std::int64_t camada, const std::vector<std::int64_t>& ids,
                   const std::string& tipo, const field_values::Plan& plan, std::int64_t user) {
  std::vector<std::optional<std::string>> geometries, fields, values, after;
  for (const auto& w : plan.writes) {
    geometries.emplace_back(std::to_string(w.geometria));
    fields.emplace_back(std::to_string(ids.at(w.campo)));
    values.push_back(w.depois.text);
    after.emplace_back(to_json(w.depois));
  }
  // The geometry's part for each new field (its one write, or NULL), as the column's type.
  std::string columns, parts, sets;
  for (std::int64_t id : ids) {
    const std::string column = common::field_column(id);
    columns += ", " + column;
    parts += ", ((array_agg(n.valor) filter (where n.campo = " + std::to_string(id) + "))[1])::" +
             common::column_type(tipo);
    sets += std::string(sets.empty() ? "" : ", ") + column + " = excluded." + column;
  }
  Sql q("with n as (select * from unnest(");
  q.bind(array_literal(geometries), "bigint[]") << ", ";
  q.bind(array_literal(fields), "bigint[]") << ", ";
  q.bind(array_literal(values), "text[]") << ", ";
  q.bind(array_literal(after), "text[]") << ") as n(geometria, campo, valor, depois)), "
      << "i as (insert into " << common::layer_table(camada) << " (id" << columns << ") select n.geometria" << parts
      << " from n group by n.geometria on conflict (id) do update set " << sets << " returning id) "
      << "insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, antes, depois, usuario_id) "
      << "select " << common::value_id_sql("n.geometria", "k.posicao") << ", n.geometria, n.campo, 'converter', null, "
      << "n.depois::jsonb, " << std::to_string(user)
      << " from i join n on n.geometria = i.id join projeto.campos k on k.id = n.campo";
  store::execute(s, q);
}

// SQL: how many values field `campo` of layer `camada` holds (its non-NULL entries: an
// index-only scan of the column's (c_k, id) index).
std::string value_count_sql(std::int64_t campo, std::int64_t camada) {
  return "(select count(*) from " + common::layer_table(camada) + " where " + common::field_column(campo) +
         " is not null)";
}

// SQL: the rows (field id, value count) of `fields` (field id, layer id pairs).
std::string value_counts_sql(const std::vector<std::pair<std::int64_t, std::int64_t>>& fields) {
  if (fields.empty()) return "select 0::bigint, 0::bigint where false";
  std::string out = "values ";
  for (std::size_t i = 0; i < fields.size(); ++i)
    out += (i ? ", (" : "(") + std::to_string(fields[i].first) + "::bigint, " +
           value_count_sql(fields[i].first, fields[i].second) + ")";
  return out;
}

}  // namespace

std::string field_json_sql(const std::string& k) {
  static const std::pair<const char*, const char*> members[] = {
      {"id", "id"},           {"idFormulario", "formulario_id"}, {"nome", "nome"},       {"chave", "chave"},
      {"tipo", "tipo"},       {"obrigatorio", "obrigatorio"},    {"unico", "unico"},     {"minimo", "minimo"},
      {"maximo", "maximo"},   {"padrao", "padrao"},              {"opcoes", "opcoes"},   {"dominio", "dominio"},
      {"formula", "formula"}, {"avaliacao", "avaliacao"},        {"ajuda", "ajuda"},     {"ordem", "ordem"},
      {"ativo", "ativo"}};
  std::string out = "jsonb_build_object(";
  for (const auto& [name, column] : members)
    out += std::string(out.size() > 19 ? ", '" : "'") + name + "', " + k + "." + column;
  return out + ")";
}

std::string list(const service::Caller& s, std::optional<std::int64_t> formulario) {
  Sql q("select coalesce(jsonb_agg(" + field_json_sql("k") +
        " order by c.projeto_id, c.id, f.ordem, f.id, k.ordem, k.id), '[]')::text from projeto.campos k "
        "join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id where " +
        guard::layer_role_sql(s, "c.id") + " is not null");
  if (formulario) q << " and f.id = " << std::to_string(*formulario);
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q).value_or("[]"); });
}

store::PageRows page(const service::Caller& s, std::optional<std::int64_t> formulario,
                     std::optional<std::int64_t> camada, const Page& page) {
  std::string where = guard::layer_role_sql(s, "c.id") + " is not null";
  if (formulario) where += " and f.id = " + std::to_string(*formulario);
  if (camada) where += " and c.id = " + std::to_string(*camada);
  const std::string joins = " join projeto.formularios f on f.id = k.formulario_id "
                            "join projeto.camadas c on c.id = f.camada_id where " + where;
  const std::string order = " order by " + kColumns.at(page.order_by) + (page.descending ? " desc" : " asc") + ", k.id";
  return s.db->with([&](soci::session& db) {
    // The page's fields and their layers first: each count reads its field's layer table.
    Sql ids("select k.id::text, c.id::text from projeto.campos k" + joins + order);
    store::append_page(ids, page.paging);
    std::vector<std::pair<std::int64_t, std::int64_t>> fields;
    for (const auto& r : store::fetch(db, ids)) fields.emplace_back(std::stoll(*r[0]), std::stoll(*r[1]));
    Sql q("with q(id, quantidade) as (" + value_counts_sql(fields) + ") select (select count(*) from projeto.campos k" +
          joins + ")::text, coalesce(json_agg(r), '[]')::text from (select " + field_json_sql("k") +
          " || jsonb_build_object('idCamada', c.id, 'idProjeto', c.projeto_id, 'quantidadeValores', q.quantidade) "
          "as r from q join projeto.campos k on k.id = q.id" + joins + order + ") p");
    return store::fetch_page(db, q);
  });
}

std::string one(store::Pool& pool, std::int64_t id, bool v2) {
  auto json = pool.with([&](soci::session& s) -> store::Value {
    Sql q("select (" + field_json_sql("k"));
    if (v2) {
      // The count reads the field's layer table.
      std::optional<std::int64_t> camada = common::layer_of_field(s, id);
      if (!camada) return std::nullopt;
      q << " || jsonb_build_object('idCamada', f.camada_id, 'idProjeto', c.projeto_id, 'quantidadeValores', "
        << value_count_sql(id, *camada) << ")";
    }
    q << ")::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
         "join projeto.camadas c on c.id = f.camada_id where k.id = ";
    q.bind(std::to_string(id), "bigint");
    return store::fetch_value(s, q);
  });
  if (!json) throw Error(errc::not_found, "campo " + std::to_string(id) + " não encontrado", "id");
  return *json;
}

std::int64_t create(const service::Caller& s, const NewField& n) {
  field_values::Definition d;
  d.formulario = n.formulario;
  d = field_values::apply(d, n.attributes);
  field_values::validate(d);
  if (d.def.dominio) require_domain(s, *d.def.dominio);
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    Place place = lock_project_of_form(db, d.formulario);
    check_in_layer(d, layer_fields(db, place.camada));
    check_variable_free(db, place.projeto, d);
    std::int64_t id = insert(db, d, n.attributes.ordem);
    tx.commit();
    return id;
  });
}

void update(const service::Caller& s, std::int64_t id, const field_values::Changes& c) {
  // A domain named by the change is checked before the transaction (the catalog has its
  // own connection); one already stored was checked when it was set.
  if (c.dominio && *c.dominio) require_domain(s, **c.dominio);
  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    Place place = lock_field(db, id);
    field_values::Definition before = definition_in(db, id);
    if (c.tipo && *c.tipo != before.def.tipo)
      throw Error(errc::invalid_argument,
                  "tipo: o tipo muda pelo conversor (GET /campos/" + std::to_string(id) + "/converter?tipo=" +
                      *c.tipo + "), que converte os valores gravados",
                  "tipo");
    field_values::Definition d = field_values::apply(before, c);
    field_values::validate(d);
    std::vector<field_values::Definition> layer = layer_fields(db, place.camada);
    check_in_layer(d, layer);
    if (d.def.chave != before.def.chave)
      if (auto readers = readers_of(layer, before.def.chave, id); !readers.empty())
        throw Error(errc::conflict,
                    "chave: o campo calculado " + readers.front()->def.chave + " lê " + before.def.chave +
                        " na fórmula; mude a fórmula antes",
                    "chave");
    check_variable_free(db, place.projeto, d);
    Sql u("update projeto.campos set (nome, chave, tipo, obrigatorio, unico, minimo, maximo, padrao, opcoes, "
          "dominio, formula, avaliacao, ajuda, ordem, ativo, atualizado_em) = (");
    bind_attributes(u, d);
    u << std::to_string(d.ordem) << ", " << flag(d.ativo) << ", now()) where id = ";
    u.bind(std::to_string(id), "bigint");
    store::execute(db, u);
    tx.commit();
  });
}

std::string summary(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> formulario) {
  return pool.with([&](soci::session& s) {
    std::vector<common::LayerField> fields = common::layer_fields(s, camada);
    if (formulario)
      fields.erase(std::remove_if(fields.begin(), fields.end(),
                                  [&](const common::LayerField& f) { return f.form != *formulario; }),
                   fields.end());
    const std::string layer = std::to_string(camada);
    Sql q("select jsonb_build_object('idCamada', " + layer + ", 'geometrias', ");
    common::layer_total(q, camada);
    q << ", 'campos', ";
    if (fields.empty()) {
      q << "'[]'::jsonb)::text";
      return *store::fetch_value(s, q);
    }
    // One pass over the layer's table aggregates every column (a.s<i>: a field's counts and
    // ranges); then one object per field, in form and field order. A value is a non-NULL
    // entry, so quantidade and preenchidos count the same.
    std::string aggregates;
    q << "(select jsonb_agg(r.campo order by r.i) from (values ";
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const common::LayerField& f = fields[i];
      const std::string n = std::to_string(i), column = "l." + f.column();
      const bool number = f.family() == "numero", ranged = number || f.family() == "data";
      aggregates += std::string(i ? ", " : "") + "jsonb_build_object('quantidade', count(" + column +
                    "), 'preenchidos', count(" + column + "), 'distintos', count(distinct " + column +
                    "), 'minimo', " + (ranged ? "to_jsonb(min(" + column + "))" : "null") + ", 'maximo', " +
                    (ranged ? "to_jsonb(max(" + column + "))" : "null") + ", 'media', " +
                    (number ? "to_jsonb(round(avg(" + column + "), 6))" : "null") + ") as s" + n;
      q << (i ? ", (" : "(") << n << ", jsonb_build_object('idCampo', " << std::to_string(f.id) << ", 'idFormulario', "
        << std::to_string(f.form) << ", 'chave', ";
      q.bind(f.chave, "text") << ", 'nome', ";
      q.bind(f.nome, "text") << ", 'tipo', ";
      q.bind(f.tipo, "text") << ") || a.s" << n << ")";
    }
    q << ") r(i, campo)))::text from (select " << aggregates << " from " << common::layer_table(camada) << " l) a";
    return *store::fetch_value(s, q);
  });
}

std::string formly(const service::Caller& s, std::int64_t camada) {
  Sql q("select " + kDefinitionColumns +
        " from projeto.campos k join projeto.formularios f on f.id = k.formulario_id where f.camada_id = ");
  q.bind(std::to_string(camada), "bigint") << " and f.ativo and k.ativo order by f.ordem, f.id, k.ordem, k.id";
  std::vector<field_values::Definition> fields;
  for (const auto& r : s.db->with([&](soci::session& db) { return store::fetch(db, q); }))
    fields.push_back(definition_of(r));
  DomainOptions domains;
  auto catalog = s.catalog("dominio");
  for (const auto& f : fields) {
    if (!f.def.dominio || domains.count(*f.def.dominio)) continue;
    auto& items = domains[*f.def.dominio];
    const store::Layer* t = catalog->find(*f.def.dominio);
    if (!t) continue;  // dropped since the field was made: a select without options
    std::string code = t->column("codigo") ? "codigo" : t->primary_key;
    if (code.empty()) continue;
    std::string label = t->column("descricao") ? "descricao" : code;
    Sql d("select " + query::quote_identifier(code) + "::text, " + query::quote_identifier(label) + "::text from " +
          t->qualified() + " order by 2, 1 limit 1000");
    for (const auto& r : s.db->with([&](soci::session& db) { return store::fetch(db, d); }))
      if (r[0]) items.emplace_back(*r[0], r[1].value_or(*r[0]));
  }
  return formly_json(fields, domains);
}

std::string valuation(const service::Caller& s, std::int64_t projeto) {
  Sql q("select coalesce(jsonb_agg(jsonb_build_object('variavel', k.avaliacao, 'idCampo', k.id, 'chave', k.chave, "
        "'nome', k.nome, 'tipo', k.tipo, 'idFormulario', f.id, 'idCamada', c.id, 'camada', c.nome) "
        "order by k.avaliacao, k.id), '[]')::text from projeto.campos k "
        "join projeto.formularios f on f.id = k.formulario_id join projeto.camadas c on c.id = f.camada_id "
        "where k.avaliacao is not null and c.projeto_id = ");
  q.bind(std::to_string(projeto), "bigint") << " and " << guard::layer_role_sql(s, "c.id") << " is not null";
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q).value_or("[]"); });
}

Converted convert_values(const service::Caller& s, std::int64_t id, const Conversion& c) {
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    // The field's row too: its type and its values do not move under the plan.
    Place place = lock_field(db, id);
    field_values::Definition field = definition_in(db, id);
    std::vector<field_values::Definition> layer = layer_fields(db, place.camada);
    Converted out;
    if (c.split) {
      out.plan = field_values::plan_split(field, values_of(db, place.camada, field, c.confirmar), c.tipo, *c.split);
      for (const auto& d : out.plan.campos)
        if (const field_values::Definition* other = by_key(layer, d.def.chave, 0))
          throw Error(errc::conflict,
                      "chave " + d.def.chave + " já existe na camada (campo " + std::to_string(other->def.id) + ")",
                      "split");
    } else {
      out.plan = plan_conversion(db, place.camada, field, c.tipo, c.confirmar);
      if (c.tipo != "inteiro" && c.tipo != "decimal")
        if (auto readers = readers_of(layer, field.def.chave, id); !readers.empty())
          throw Error(errc::conflict,
                      "tipo: o campo calculado " + readers.front()->def.chave + " lê " + field.def.chave +
                          " na fórmula, que pede um número",
                      "tipo");
    }
    if (!c.confirmar || out.plan.failed > 0) return out;  // the transaction rolls back: nothing changed
    if (c.split) {
      if (out.plan.campos.empty())
        throw Error(errc::conflict, "split: o campo não tem valores para dividir", "split");
      for (const auto& d : out.plan.campos) out.fields.push_back(insert(db, d, field.ordem));
      if (!out.plan.writes.empty()) insert_values(db, place.camada, out.fields, c.tipo, out.plan, s.user.user_id);
    } else {
      // The values were read (and locked) before: a change of type family empties the column.
      retype(db, out.plan.campos.front());
      if (!out.plan.writes.empty()) rewrite_values(db, place.camada, id, c.tipo, out.plan, s.user.user_id);
      out.fields.push_back(id);
    }
    Sql bump("update projeto.camadas set geracao = geracao + 1, atualizado_em = now() where id = ");
    bump.bind(std::to_string(place.camada), "bigint");
    store::execute(db, bump);
    tx.commit();
    out.applied = true;
    return out;
  });
}

}  // namespace cadastre::platform::fields
