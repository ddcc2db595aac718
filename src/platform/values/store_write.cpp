#include "platform/values/store_write.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "cadastre/formula.hpp"
#include "cadastre/query.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/values/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::values {
namespace {

using field_values::Typed;

// A field of the layer being written, as the checks need it.
struct Field {
  field_values::FieldDef def;
  std::string column;  ///< field_values::column_of(def.tipo): the family Typed values carry
  std::string type;    ///< the SQL type of its column in the layer's table
  std::int64_t form = 0;
  int posicao = 0;     ///< its position in the layer (the last part of its values' ids)
  bool active = true;  ///< the field and its form
};

// opcoes is a JSON array; its texts are the options (anything else, as its JSON text).
std::vector<std::string> options_of(const std::optional<std::string>& json) {
  std::vector<std::string> out;
  if (!json) return out;
  simdjson::dom::parser parser;
  simdjson::dom::array list;
  if (parser.parse(*json).get(list)) return out;
  for (auto item : list) {
    std::string_view text;
    out.push_back(item.get(text) ? simdjson::minify(item) : std::string(text));
  }
  return out;
}

// Every field of every form of the layer (a layer has tens of fields: one statement),
// share-locked until the write commits: a type conversion (GET /campos/:id/converter, which
// takes the field's row for update) waits for the write, or the write for it, so a value
// is never written into the column of the type the field had before.
std::map<std::int64_t, Field> fields_of_layer(soci::session& s, std::int64_t layer) {
  store::Sql q("select k.id::text, k.chave, k.nome, k.tipo, k.obrigatorio::text, k.unico::text, k.minimo::text, "
               "k.maximo::text, k.padrao, k.opcoes::text, k.dominio, k.formula, (k.ativo and f.ativo)::text, "
               "f.id::text, k.posicao::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
               "where f.camada_id = ");
  q.bind(std::to_string(layer), "bigint") << " for share of k";
  std::map<std::int64_t, Field> out;
  for (const store::Row& r : store::fetch(s, q)) {
    Field f;
    f.def.id = std::stoll(*r[0]);
    f.def.chave = *r[1];
    f.def.nome = *r[2];
    f.def.tipo = *r[3];
    f.def.obrigatorio = r[4] == "true";
    f.def.unico = r[5] == "true";
    f.def.minimo = r[6];
    f.def.maximo = r[7];
    f.def.padrao = r[8];
    f.def.opcoes = options_of(r[9]);
    f.def.dominio = r[10];
    f.def.formula = r[11];
    f.column = std::string(field_values::column_of(f.def.tipo));
    f.active = r[12] == "true";
    f.form = std::stoll(*r[13]);
    f.posicao = std::stoi(*r[14]);
    f.type = common::column_type(f.def.tipo);
    out.emplace(f.def.id, std::move(f));
  }
  return out;
}

// A stored value: its id and its column's text (as PostgreSQL writes the typed value).
struct Stored {
  std::int64_t id = 0;
  std::string text;
};

// The fields' columns of the layer's table (alias `alias`) as text, each after ", ".
std::string stored_columns(const std::map<std::int64_t, Field>& fields, const std::string& alias) {
  std::string columns;
  for (const auto& [id, f] : fields) columns += ", " + alias + "." + common::field_column(id) + "::text";
  return columns;
}

// The stored values of `geometry` in `row` from column `first` on, as stored_columns() read them.
std::map<std::int64_t, Stored> stored_of(const store::Row& row, std::size_t first,
                                         const std::map<std::int64_t, Field>& fields, std::int64_t geometry) {
  std::map<std::int64_t, Stored> out;
  std::size_t i = first;
  for (const auto& [id, f] : fields) {
    const store::Value& v = row[i++];
    if (v) out.emplace(id, Stored{common::value_id(geometry, f.posicao), *v});
  }
  return out;
}

// The geometry's row of the layer's table as its stored values; nullopt when it has no row.
std::optional<std::map<std::int64_t, Stored>> row_of(soci::session& s, std::int64_t layer,
                                                     const std::map<std::int64_t, Field>& fields,
                                                     std::int64_t geometry) {
  store::Sql q("select 1" + stored_columns(fields, "v") + " from " + common::layer_table(layer) + " v where v.id = ");
  q.bind(std::to_string(geometry), "bigint");
  std::vector<store::Row> rows = store::fetch(s, q);
  if (rows.empty()) return std::nullopt;
  return stored_of(rows[0], 1, fields, geometry);
}

// The values geometry `geometry` of layer `layer` holds, by field: one row of the layer's
// table.
std::map<std::int64_t, Stored> values_of(soci::session& s, std::int64_t layer, const std::map<std::int64_t, Field>& fields,
                                         std::int64_t geometry) {
  if (fields.empty()) return {};
  return row_of(s, layer, fields, geometry).value_or(std::map<std::int64_t, Stored>{});
}

// The shortest plain decimal text that reads back as `d` (no exponent: the stored
// numeric's text, and field_values::to_json reads plain decimals).
std::string fixed_number_text(double d) {
  char buf[400];  // a double's longest fixed form: 309 digits and a sign, or 0.000...
  auto end = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed).ptr;
  return std::string(buf, end);
}

// The writes of one transaction on one geometry (see write.hpp for the lock order).
class Writer {
 public:
  Writer(soci::session& s, std::int64_t user, std::int64_t geometry, std::int64_t layer)
      : s_(s), user_(user), geometry_(geometry), layer_(layer), fields_(fields_of_layer(s, layer)) {}

  const std::map<std::int64_t, Field>& fields() const { return fields_; }

  /// The next geometry of the same layer and transaction (bulk writes): the fields stay
  /// loaded; lock_geometry() must follow.
  void retarget(std::int64_t geometry) {
    geometry_ = geometry;
    current_.clear();
    has_row_ = false;
  }
  const Field* field(std::int64_t id) const {
    auto it = fields_.find(id);
    return it == fields_.end() ? nullptr : &it->second;
  }
  const Field* field_by_key(const std::string& chave) const {
    for (const auto& [id, f] : fields_)
      if (f.def.chave == chave) return &f;
    return nullptr;
  }

  /// A field the request may write: of a form of the geometry's layer (400 idCampo), active
  /// with its form (409, like the guard's inactive form).
  const Field& writable(std::int64_t id) const {
    const Field* f = field(id);
    if (!f)
      throw Error(errc::invalid_argument,
                  "idCampo: o campo " + std::to_string(id) + " não é de um formulário da camada " + std::to_string(layer_) +
                      " da geometria " + std::to_string(geometry_),
                  "idCampo");
    if (!f->active)
      throw Error(errc::invalid_transition, "o campo '" + f->def.chave + "' (ou o seu formulário) está inativo",
                  f->def.chave);
    return *f;
  }

  /// The type and rules (field_values::check_value), then a domain code against its table.
  field_values::Checked check(const Field& f, std::string_view json) {
    field_values::Checked c = field_values::check_value(f.def, json);
    if (!c.ok()) return c;
    if (!c.value) c.value = Typed{f.column, std::nullopt};
    if (f.def.tipo == "lista_dominio" && c.value->text) c.problem = domain_problem(f, *c.value->text);
    return c;
  }

  /// `unico`: whether another geometry holds the value, asked under the field's advisory
  /// lock (held to the end of the transaction, so a racing writer of the same field waits
  /// and then sees this one's value). Call in ascending field id. Empty: no problem.
  std::string unique_problem(const Field& f, const Typed& t) {
    if (!f.def.unico || !t.text) return "";
    store::Sql lock("select 1 from pg_advisory_xact_lock(");
    lock.bind(std::to_string(f.def.id), "bigint") << ")";
    store::fetch(s_, lock);
    store::Sql q("select 1 from " + common::layer_table(layer_) + " where " + common::field_column(f.def.id) + " = ");
    q.bind(t.text, f.type) << " and id <> ";
    q.bind(std::to_string(geometry_), "bigint") << " limit 1";
    if (!store::fetch_value(s_, q)) return "";
    return "o campo '" + f.def.chave + "' é único e o valor " + field_values::to_json(t) + " já existe em outra geometria";
  }

  /// Locks the geometry's row (writers of one geometry take turns: a batch's required
  /// fields are judged on what is there), then reads its values. Two statements: read in
  /// the locking one, they would be those of its snapshot, taken before a wait for a
  /// concurrent writer of the geometry (who may have written them) ended.
  void lock_geometry() {
    store::Sql q("select 1 from projeto.geometrias where id = ");
    q.bind(std::to_string(geometry_), "bigint") << " and camada_id = ";
    q.bind(std::to_string(layer_), "bigint") << " for no key update";
    if (!store::fetch_value(s_, q)) throw Error(errc::not_found, "geometria " + std::to_string(geometry_) + " não encontrada", "id");
    auto row = row_of(s_, layer_, fields_, geometry_);
    has_row_ = row.has_value();
    current_ = row.value_or(std::map<std::int64_t, Stored>{});
  }

  const Stored* current(std::int64_t campo) const {
    auto it = current_.find(campo);
    return it == current_.end() ? nullptr : &it->second;
  }
  /// The field's stored value, as its type stores it (text nullopt: none or empty).
  Typed stored(const Field& f) const {
    const Stored* v = current(f.def.id);
    return {f.column, v ? std::optional<std::string>(v->text) : std::nullopt};
  }

  /// Creates or replaces the value (its column in the geometry's row of the layer's table)
  /// and audits it as `operacao` (empty: criar or alterar). Returns the value's id.
  std::int64_t put(const Field& f, const Typed& t, std::string_view operacao = {}) {
    const Stored* before = current(f.def.id);
    const std::string column = common::field_column(f.def.id);
    // The geometry's row of the layer's table, updated when lock_geometry() found it (no
    // writer adds or removes it without the geometry's lock, held since), else made.
    std::vector<store::Row> rows;
    if (has_row_) {
      store::Sql u("update " + common::layer_table(layer_) + " set " + column + " = ");
      u.bind(t.text, f.type) << " where id = ";
      u.bind(std::to_string(geometry_), "bigint") << " returning " << column << "::text";
      rows = store::fetch(s_, u);
    }
    if (rows.empty()) {
      store::Sql q("insert into " + common::layer_table(layer_) + " (id, " + column + ") values (");
      q.bind(std::to_string(geometry_), "bigint") << ", ";
      q.bind(t.text, f.type) << ") on conflict (id) do update set " << column << " = excluded." << column
                             << " returning " << column << "::text";
      rows = store::fetch(s_, q);
      has_row_ = true;
    }
    store::Row row = rows.at(0);
    const std::int64_t id = common::value_id(geometry_, f.posicao);
    // As PostgreSQL stored it (a decimal's digits, a date's form): what the audit shows.
    const Typed after{f.column, row[0]};

    store::Sql audit("insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, antes, "
                     "depois, usuario_id) values (");
    audit.bind(std::to_string(id), "bigint") << ", ";
    audit.bind(std::to_string(geometry_), "bigint") << ", ";
    audit.bind(std::to_string(f.def.id), "bigint") << ", ";
    audit.bind(std::string(operacao.empty() ? (before ? "alterar" : "criar") : operacao)) << ", ";
    std::optional<std::string> antes;
    if (before) antes = field_values::to_json(stored(f));
    audit.bind(antes, "jsonb") << ", ";
    audit.bind(field_values::to_json(after), "jsonb") << ", ";
    audit.bind(std::to_string(user_), "bigint") << ")";
    store::execute(s_, audit);

    if (after.text) current_[f.def.id] = Stored{id, *after.text};
    else current_.erase(f.def.id);
    ++writes_;
    return id;
  }

  /// The geometry's calculado fields from its numeric values (a formula may read another
  /// calculado field: passes until nothing changes, at most one per such field). A result
  /// that differs from the stored one is written and audited like any value.
  void recompute() {
    std::vector<const Field*> formulas;
    std::map<std::string, double> vars;
    for (const auto& [id, f] : fields_) {
      if (f.def.tipo == "calculado" && f.active && f.def.formula && !f.def.formula->empty()) formulas.push_back(&f);
      if (f.column != "numero") continue;
      if (auto text = stored(f).text) vars[f.def.chave] = std::stod(*text);
    }
    for (std::size_t pass = 0; pass < formulas.size(); ++pass) {
      bool changed = false;
      for (const Field* f : formulas) {
        std::optional<double> result;
        try {
          result = cadastre::formula::evaluate(*f->def.formula, vars);
        } catch (const Error& e) {  // a division by zero: the data's fault, said with the field
          throw Error(errc::invalid_argument, "campo calculado '" + f->def.chave + "': " + e.what(), f->def.chave);
        }
        std::optional<std::string> before = stored(*f).text;
        bool same = result ? before && std::stod(*before) == *result : !before;
        if (result) vars[f->def.chave] = *result;
        else vars.erase(f->def.chave);
        if (same) continue;
        Typed value{f->column, std::nullopt};
        if (result) value.text = fixed_number_text(*result);
        put(*f, value);
        changed = true;
      }
      if (!changed) break;
    }
  }

  /// The layer's new generation (the tiles' ETag), when anything was written: last, as
  /// the layer's row lock is the one every writer of the layer shares.
  void finish() {
    if (writes_ == 0) return;
    store::Sql q("update projeto.camadas set geracao = geracao + 1 where id = ");
    q.bind(std::to_string(layer_), "bigint");
    store::execute(s_, q);
  }

 private:
  // A lista_dominio code must be a codigo of the domain table dominio.<field.dominio>.
  std::string domain_problem(const Field& f, const std::string& code) {
    const std::string name = f.def.dominio.value_or("");
    if (!query::is_valid_identifier(name)) return "o campo não indica uma tabela de domínio válida";
    const std::string table = query::quote_qualified("dominio", name);
    store::Sql has("select 1 from pg_attribute where attrelid = to_regclass(");
    has.bind(table, "text") << ") and attname = 'codigo' and not attisdropped";
    if (!store::fetch_value(s_, has)) return "a tabela de domínio " + name + " não existe";
    store::Sql q("select 1 from " + table + " where codigo = ");
    q.bind(code, "text") << " limit 1";
    if (store::fetch_value(s_, q)) return "";
    return "'" + code + "' não é um código da tabela de domínio " + name;
  }

  soci::session& s_;
  std::int64_t user_, geometry_, layer_;
  std::map<std::int64_t, Field> fields_;
  std::map<std::int64_t, Stored> current_;
  bool has_row_ = false;  // the geometry has a row in the layer's table (lock_geometry())
  int writes_ = 0;
};

[[noreturn]] void refuse_value(const Field& f, const std::string& problem) {
  throw Error(errc::invalid_argument, "valor do campo '" + f.def.chave + "': " + problem, f.def.chave);
}

}  // namespace

std::string create(store::Pool& pool, std::int64_t user, const service::Grant& geometry, const Entry& entry) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    Writer w(s, user, geometry.id, geometry.layer_id);
    const Field& f = w.writable(entry.campo);
    field_values::Checked c = w.check(f, entry.valor);
    if (!c.ok()) refuse_value(f, c.problem);
    std::string taken = w.unique_problem(f, *c.value);
    if (!taken.empty()) throw Error(errc::conflict, taken, f.def.chave);
    w.lock_geometry();
    if (const Stored* v = w.current(f.def.id))
      throw Error(errc::conflict,
                  "a geometria já tem o valor " + std::to_string(v->id) + " do campo '" + f.def.chave +
                      "': altere-o com PUT /valores/" + std::to_string(v->id),
                  f.def.chave);
    std::int64_t id = w.put(f, *c.value);
    w.recompute();
    w.finish();
    std::string out = one(s, id);
    tx.commit();
    return out;
  });
}

std::string change(store::Pool& pool, std::int64_t user, const service::Grant& value, const std::string& valor) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    store::Sql q("select geometria_id::text, campo_id::text from projeto.valor_chave(");
    q.bind(std::to_string(value.id), "bigint") << ")";
    auto rows = store::fetch(s, q);
    if (rows.empty()) throw Error(errc::not_found, "valor " + std::to_string(value.id) + " não encontrado", "id");
    Writer w(s, user, std::stoll(*rows[0][0]), value.layer_id);
    const Field& f = w.writable(std::stoll(*rows[0][1]));
    field_values::Checked c = w.check(f, valor);
    if (!c.ok()) refuse_value(f, c.problem);
    std::string taken = w.unique_problem(f, *c.value);
    if (!taken.empty()) throw Error(errc::conflict, taken, f.def.chave);
    w.lock_geometry();
    w.put(f, *c.value);
    w.recompute();
    w.finish();
    std::string out = one(s, value.id);
    tx.commit();
    return out;
  });
}

BatchResult write_batch(store::Pool& pool, std::int64_t user, const service::Grant& geometry,
                        const std::vector<Entry>& entries) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    BatchResult out = write_batch_in(s, user, geometry.id, geometry.layer_id, entries);
    if (out.problems.empty()) tx.commit();  // else nothing was written: the transaction rolls back
    return out;
  });
}

BatchResult write_batch_in(soci::session& s, std::int64_t user, std::int64_t geometry, std::int64_t layer,
                           const std::vector<Entry>& entries) {
  Writer w(s, user, geometry, layer);
  BatchResult out;
  std::vector<std::pair<const Field*, Typed>> accepted;
  std::set<std::int64_t> forms, sent;
  for (const Entry& e : entries) {
    const Field* f = w.field(e.campo);
    if (!f) {
      out.problems.push_back({e.campo, "", "não é campo de um formulário da camada da geometria"});
      continue;
    }
    w.writable(e.campo);  // 409 for an inactive field
    forms.insert(f->form);
    sent.insert(f->def.id);
    field_values::Checked c = w.check(*f, e.valor);
    if (c.ok()) accepted.emplace_back(f, *c.value);
    else out.problems.push_back({f->def.id, f->def.chave, c.problem});
  }
  std::sort(accepted.begin(), accepted.end(),
            [](const auto& a, const auto& b) { return a.first->def.id < b.first->def.id; });
  for (const auto& [f, t] : accepted) {
    std::string taken = w.unique_problem(*f, t);
    if (!taken.empty()) out.problems.push_back({f->def.id, f->def.chave, taken});
  }
  w.lock_geometry();
  // Each form the batch touches must end up with its required fields filled: those the
  // batch sends were checked above; the others must already hold a value.
  for (const auto& [id, f] : w.fields()) {
    if (!forms.count(f.form) || sent.count(id) || !f.active || !f.def.obrigatorio || f.def.tipo == "calculado")
      continue;
    if (!w.stored(f).text) out.problems.push_back({id, f.def.chave, "obrigatório: preencha este campo"});
  }
  if (!out.problems.empty()) return out;  // nothing written
  for (const auto& [f, t] : accepted) w.put(*f, t);
  out.written = static_cast<std::int64_t>(accepted.size());
  w.recompute();
  w.finish();
  out.values = of_geometry(s, geometry);
  return out;
}

std::int64_t write_numbers(store::Pool& pool, std::int64_t user, std::int64_t layer, std::int64_t campo,
                           const std::vector<std::pair<std::int64_t, double>>& values) {
  if (values.empty()) return 0;
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    // Every geometry of this layer (one statement), before any write.
    std::string ids = "{";
    for (std::size_t i = 0; i < values.size(); ++i) ids += (i ? "," : "") + std::to_string(values[i].first);
    ids += "}";
    store::Sql others("select g::text from unnest(");
    others.bind(ids, "bigint[]") << ") g where not exists (select 1 from projeto.geometrias x where x.id = g and "
                                    "x.camada_id = ";
    others.bind(std::to_string(layer), "bigint") << ") limit 1";
    if (auto stray = store::fetch_value(s, others))
      throw Error(errc::not_found, "geometria " + *stray + " não encontrada na camada " + std::to_string(layer), "idGeometria");
    Writer w(s, user, values.front().first, layer);
    const Field& f = w.writable(campo);
    for (const auto& [geometry, number] : values) {
      w.retarget(geometry);
      field_values::Checked c = w.check(f, fixed_number_text(number));
      if (!c.ok())
        throw Error(errc::invalid_argument,
                    "valor do campo '" + f.def.chave + "' na geometria " + std::to_string(geometry) + ": " + c.problem,
                    f.def.chave);
      std::string taken = w.unique_problem(f, *c.value);
      if (!taken.empty()) throw Error(errc::conflict, taken, f.def.chave);
      w.lock_geometry();
      w.put(f, *c.value);
      w.recompute();
    }
    w.finish();
    tx.commit();
    return static_cast<std::int64_t>(values.size());
  });
}

CopyResult copy(store::Pool& pool, std::int64_t user, const service::Grant& from, const service::Grant& to,
                const std::optional<std::vector<std::int64_t>>& campos) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    Writer w(s, user, to.id, to.layer_id);
    std::map<std::int64_t, Field> origin = fields_of_layer(s, from.layer_id);
    std::map<std::int64_t, Stored> values = values_of(s, from.layer_id, origin, from.id);
    std::vector<std::int64_t> asked;
    if (campos) {
      for (std::int64_t id : *campos)
        if (!origin.count(id))
          throw Error(errc::invalid_argument,
                      "idCampos: o campo " + std::to_string(id) + " não é da camada da geometria de origem", "idCampos");
      asked = *campos;
    } else {
      for (const auto& [id, v] : values) asked.push_back(id);
    }
    CopyResult out;
    std::vector<std::pair<const Field*, Typed>> pending;
    for (std::int64_t id : asked) {
      auto of = origin.find(id);
      if (of == origin.end()) continue;  // a value of a field of another layer: not this layer's data
      const Field& src = of->second;
      auto v = values.find(id);
      std::optional<std::string> text = v == values.end() ? std::nullopt : std::optional<std::string>(v->second.text);
      auto skip = [&](const std::string& why) { out.skipped.push_back({id, src.def.chave, why}); };
      if (src.def.tipo == "calculado") {
        skip("campo calculado: recalculado no destino");
        continue;
      }
      if (!text) {
        if (campos) skip("sem valor na origem");
        continue;
      }
      const Field* dst = from.layer_id == to.layer_id ? w.field(id) : w.field_by_key(src.def.chave);
      if (!dst) {
        if (campos)
          throw Error(errc::invalid_argument,
                      "idCampos: a camada de destino não tem campo de chave '" + src.def.chave + "'", "idCampos");
        skip("a camada de destino não tem campo com esta chave");
        continue;
      }
      if (!dst->active || dst->def.tipo == "calculado") {
        skip(dst->active ? "o campo de destino é calculado" : "o campo de destino está inativo");
        continue;
      }
      field_values::Checked c = w.check(*dst, field_values::to_json(Typed{src.column, text}));
      if (!c.ok()) refuse_value(*dst, c.problem);
      pending.emplace_back(dst, *c.value);
    }
    std::sort(pending.begin(), pending.end(),
              [](const auto& a, const auto& b) { return a.first->def.id < b.first->def.id; });
    for (const auto& [f, t] : pending) {
      std::string taken = w.unique_problem(*f, t);
      if (!taken.empty()) throw Error(errc::conflict, taken, f->def.chave);
    }
    w.lock_geometry();
    for (const auto& [f, t] : pending) w.put(*f, t, "copiar");
    out.copied = static_cast<std::int64_t>(pending.size());
    w.recompute();
    w.finish();
    out.values = of_geometry(s, to.id);
    tx.commit();
    return out;
  });
}

LocationCopy copy_by_location(store::Pool& pool, std::int64_t user, std::int64_t origin, std::int64_t layer,
                              const std::optional<std::vector<std::string>>& keys) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    const std::string L = std::to_string(layer);
    store::Sql count("select ");
    common::layer_total(count, layer);
    count << "::text";
    const std::int64_t n = std::stoll(store::fetch_value(s, count).value_or("0"));
    if (n > kMaxLocationCopy)
      throw Error(errc::unprocessable,
                  "a camada tem " + std::to_string(n) + " geometrias; a cópia de valores por localização alcança até " +
                      std::to_string(kMaxLocationCopy) + " de uma vez",
                  "idCamada");
    // The lock order of every writer (store_write.hpp): the unique fields' advisory locks,
    // ascending, then the geometries' rows (ascending id), the layer's row last (finish()).
    store::Sql unique("select count(*)::text from (select pg_advisory_xact_lock(k.id) from projeto.campos k join "
                      "projeto.formularios f on f.id = k.formulario_id where f.camada_id = ");
    unique.bind(L, "bigint") << " and k.unico order by k.id) u";  // volatile: evaluated after the sort
    store::fetch(s, unique);
    store::Sql pairs("select g.id::text, (select o.id from projeto.geometrias o where o.camada_id = ");
    pairs.bind(std::to_string(origin), "bigint")
        << " and st_covers(o.geom, st_pointonsurface(g.geom)) order by o.id limit 1)::text "
           "from projeto.geometrias g where g.camada_id = ";
    pairs.bind(L, "bigint") << " order by g.id for update of g";
    const std::vector<store::Row> found = store::fetch(s, pairs);
    LocationCopy out;
    out.geometrias = static_cast<std::int64_t>(found.size());
    if (found.empty()) return out;
    const std::map<std::int64_t, Field> from = fields_of_layer(s, origin);
    Writer w(s, user, std::stoll(*found.front()[0]), layer);
    for (const store::Row& pair : found) {
      if (!pair[1]) continue;
      ++out.com_origem;
      const std::int64_t geometry = std::stoll(*pair[0]);
      const std::string where = " (geometria " + *pair[0] + ")";
      w.retarget(geometry);
      std::vector<std::pair<const Field*, Typed>> pending;
      for (const auto& [id, stored] : values_of(s, origin, from, std::stoll(*pair[1]))) {
        auto src = from.find(id);
        if (src == from.end() || src->second.def.tipo == "calculado") continue;
        const Field& f = src->second;
        if (keys && std::find(keys->begin(), keys->end(), f.def.chave) == keys->end()) continue;
        std::optional<std::string> text = stored.text;
        const Field* dst = w.field_by_key(f.def.chave);
        if (!dst || dst->def.tipo != f.def.tipo || !dst->active) continue;
        field_values::Checked c = w.check(*dst, field_values::to_json(Typed{f.column, text}));
        if (!c.ok()) refuse_value(*dst, c.problem + where);
        pending.emplace_back(dst, *c.value);
      }
      if (pending.empty()) continue;
      std::sort(pending.begin(), pending.end(),
                [](const auto& a, const auto& b) { return a.first->def.id < b.first->def.id; });
      for (const auto& [f, v] : pending) {
        std::string taken = w.unique_problem(*f, v);
        if (!taken.empty()) throw Error(errc::conflict, taken + where, f->def.chave);
      }
      w.lock_geometry();
      for (const auto& [f, v] : pending) w.put(*f, v, "copiar");
      w.recompute();
      out.valores += static_cast<std::int64_t>(pending.size());
      out.written.push_back(geometry);
    }
    w.finish();
    tx.commit();
    return out;
  });
}

}  // namespace cadastre::platform::values
