#include "server/explorer/store.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "store/audit.hpp"
#include "store/features.hpp"

namespace cadastre::server::explorer {
namespace {

constexpr const char* kReportColumns = "id, nome, titulo, consulta, criado_em, criado_por, atualizado_em";

// Decimal number text as PostgreSQL reads a numeric literal: -12, 3.5, .5, 1e-3.
bool looks_numeric(std::string_view s) {
  std::size_t i = 0, digits = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size() && s.size() <= 100;
}

// Appends each piece of the statement to the preview text and to the bound statement.
class Emitter {
 public:
  void raw(std::string_view text) {
    preview_ += text;
    sql_ << text;
  }
  void value(const std::string& literal, const std::string& bound, std::string_view cast) {
    preview_ += literal;
    sql_.bind(bound, cast);
  }
  Built finish(std::vector<const store::Column*> columns) {
    return Built{std::move(preview_), std::move(sql_), std::move(columns)};
  }

 private:
  std::string preview_;
  store::Sql sql_;
};

std::string column_ref(const store::Column& c) { return "t." + query::quote_identifier(c.name); }

// One comparison value, checked against the column type and written as its literal.
void typed_value(Emitter& out, const store::Column& c, const Scalar& v, const std::string& field) {
  if (c.numeric()) {
    if (v.kind == Scalar::boolean || !looks_numeric(v.text))
      invalid("a coluna '" + c.name + "' espera um número, recebido '" + v.text + "'", field);
    out.value(v.text, v.text, c.type);
  } else if (c.base_type == "bool") {
    if (v.kind == Scalar::number || (v.text != "true" && v.text != "false"))
      invalid("a coluna '" + c.name + "' espera true ou false", field);
    out.value(v.text, v.text, "boolean");
  } else if (v.kind == Scalar::boolean) {
    invalid("a coluna '" + c.name + "' não é booleana", field);
  } else if (c.textual()) {
    out.value(quote_literal(v.text), v.text, c.type);
  } else {
    out.value(quote_literal(v.text) + "::" + c.type, v.text, c.type);
  }
}

const store::Column& filter_column(const store::Layer& layer, const Filter& f, const std::string& where) {
  const store::Column* c = layer.column(f.column);
  if (!c)
    throw Error(errc::unknown_field, "a tabela " + layer.name + " não tem a coluna '" + f.column + "'",
                member_path(where, "coluna"));
  bool spatial = f.op == Operator::bbox || f.op == Operator::is_null || f.op == Operator::is_not_null;
  if (c->geometry && !spatial)
    invalid("a coluna de geometria '" + c->name + "' só aceita bbox, is null e is not null", member_path(where, "operador"));
  if (f.op == Operator::bbox && !c->geometry)
    invalid("bbox só se aplica a colunas de geometria; '" + c->name + "' não é uma", member_path(where, "operador"));
  return *c;
}

void append_filter(Emitter& out, const store::Column& c, const Filter& f, const std::string& where) {
  std::string col = column_ref(c);
  std::string vfield = member_path(where, "valor");
  switch (f.op) {
    case Operator::is_null: out.raw(col + " is null"); break;
    case Operator::is_not_null: out.raw(col + " is not null"); break;
    case Operator::bbox: {
      // The envelope in SIRGAS 2000 (lon/lat), moved to the column's CRS when it differs.
      bool transform = c.srid != 0 && c.srid != 4674;
      out.raw(col + " && " + (transform ? "ST_Transform(" : "") + "ST_MakeEnvelope(");
      for (std::size_t k = 0; k < 4; ++k) {
        out.value(f.values[k].text, f.values[k].text, "float8");
        out.raw(", ");
      }
      out.raw(transform ? "4674), " + std::to_string(c.srid) + ")" : "4674)");
      break;
    }
    case Operator::contains:
    case Operator::icontains: {
      std::string pattern = query::like_pattern(
          f.op == Operator::contains ? query::FilterType::contains : query::FilterType::icontains, f.values[0].text);
      out.raw((c.textual() ? col : col + "::text") + (f.op == Operator::contains ? " like " : " ilike "));
      out.value(quote_literal(pattern), pattern, "");
      out.raw(" escape '\\'");
      break;
    }
    case Operator::in:
      out.raw(col + " in (");
      for (std::size_t k = 0; k < f.values.size(); ++k) {
        if (k) out.raw(", ");
        typed_value(out, c, f.values[k], indexed(vfield, k));
      }
      out.raw(")");
      break;
    default:
      out.raw(col + " " + std::string(operator_name(f.op)) + " ");
      typed_value(out, c, f.values[0], vfield);
  }
}

std::string select_item(const store::Column& c, Output output) {
  std::string q = query::quote_identifier(c.name);
  if (c.geometry)
    return "ST_AsGeoJSON(ST_Transform(t." + q + ", 4326), 7)" + (output == Output::json ? "::json" : "") + " as " + q;
  return output == Output::json ? "t." + q : "t." + q + "::text as " + q;
}

// `before` + the statement of `b` + `after`, with b's values bound again in the same order
// (e.g. to aggregate its rows into one JSON array).
store::Sql wrap(const Built& b, std::string_view before, std::string_view after) {
  store::Sql out{std::string(before)};
  // Placeholders are numbered by position (:p1, :p2...), so binding the same values in the
  // same order keeps every placeholder of b's text pointing at its own value.
  for (const auto& v : b.sql.params()) out.placeholder(v);
  out << b.sql.text() << after;
  return out;
}

// The select list of every column of `layer` (alias t), as build() writes it.
std::string select_list(const store::Layer& layer, Output output) {
  std::string out;
  for (const auto& c : layer.columns) out += (out.empty() ? "" : ", ") + select_item(c, output);
  return out;
}


// One record as the list shows it (geometry as GeoJSON), read after a write.
std::string record_json(soci::session& s, const store::Layer& layer, const std::string& id) {
  store::Sql sql("select to_json(r)::text from (select ");
  sql << select_list(layer, Output::json) << " from " << layer.qualified() << " t where t."
      << query::quote_identifier(layer.primary_key) << " = ";
  sql.bind(id, layer.column(layer.primary_key)->type) << ") r";
  return store::fetch_value(s, sql).value_or("null");
}

store::Value report_json(soci::session& s, std::int64_t id, bool lock) {
  store::Sql sql("select to_json(r)::text from (select ");
  sql << kReportColumns << " from explorer.relatorio where id = ";
  sql.bind(std::to_string(id), "bigint") << (lock ? " for update" : "") << ") r";
  return store::fetch_value(s, sql);
}

[[noreturn]] void report_not_found(std::int64_t id) {
  throw Error(errc::not_found, "relatório " + std::to_string(id) + " não encontrado", "id");
}

// A duplicate name is the one conflict a report write meets.
template <class F>
void writing(store::Pool& db, const std::optional<std::string>& nome, F&& fn) {
  try {
    db.run([&](soci::session& s) { store::in_transaction(s, [&] { fn(s); }); });
  } catch (const Error& e) {
    if (e.code() != errc::conflict) throw;
    throw Error(errc::conflict, "já existe um relatório chamado '" + nome.value_or("") + "'", "nome");
  }
}

constexpr const char* kAuditTable = "explorer.relatorio";

}  // namespace

std::string quote_literal(std::string_view text) {
  bool backslash = text.find('\\') != std::string_view::npos;
  std::string out = backslash ? "E'" : "'";
  for (char ch : text) {
    if (ch == '\'') out += "''";
    else if (ch == '\\') out += "\\\\";
    else out += ch;
  }
  out += '\'';
  return out;
}

Built build(const Query& q, const store::Layer& layer, std::int64_t limit, Output output, std::string_view where) {
  std::vector<const store::Column*> columns;
  if (q.columns.empty()) {
    for (const auto& c : layer.columns) columns.push_back(&c);
  } else {
    for (std::size_t k = 0; k < q.columns.size(); ++k) {
      const store::Column* c = layer.column(q.columns[k]);
      if (!c)
        throw Error(errc::unknown_field, "a tabela " + layer.name + " não tem a coluna '" + q.columns[k] + "'",
                    indexed(member_path(where, "colunas"), k));
      columns.push_back(c);
    }
  }
  Emitter out;
  out.raw("select ");
  for (std::size_t k = 0; k < columns.size(); ++k) out.raw((k ? ", " : "") + select_item(*columns[k], output));
  out.raw(" from " + layer.qualified() + " t");
  for (std::size_t k = 0; k < q.filters.size(); ++k) {
    std::string field = indexed(member_path(where, "filtros"), k);
    const store::Column& c = filter_column(layer, q.filters[k], field);
    out.raw(k ? " and " : " where ");
    append_filter(out, c, q.filters[k], field);
  }
  bool key_ordered = false;
  for (std::size_t k = 0; k < q.order.size(); ++k) {
    const store::Column* c = layer.column(q.order[k].column);
    std::string field = indexed(member_path(where, "ordem"), k) + ".coluna";
    if (!c) throw Error(errc::unknown_field, "a tabela " + layer.name + " não tem a coluna '" + q.order[k].column + "'", field);
    if (c->geometry) invalid("não é possível ordenar por geometria", field);
    out.raw((k ? ", " : " order by ") + column_ref(*c) + (q.order[k].descending ? " desc" : ""));
    key_ordered = key_ordered || c->name == layer.primary_key;
  }
  // The key last keeps the order total, so the same description always gives the same rows.
  if (!key_ordered && !layer.primary_key.empty())
    out.raw((q.order.empty() ? " order by " : ", ") + column_ref(*layer.column(layer.primary_key)));
  out.raw(" limit " + std::to_string(limit));
  return out.finish(std::move(columns));
}

// ---------------------------------------------------------------- runs

void read_only(store::Pool& db, std::chrono::milliseconds timeout, const std::function<void(soci::session&)>& fn) {
  db.run([&](soci::session& s) {
    soci::transaction tx(s);
    s << "set transaction read only";
    s << "set local statement_timeout = " + std::to_string(timeout.count());
    try {
      fn(s);
    } catch (const soci::postgresql_soci_error& e) {
      if (std::string(e.sqlstate()) == "25006")
        throw Error(errc::forbidden, "a consulta tentou gravar dados; o explorador só executa leitura");
      throw;
    }
    tx.rollback();  // nothing to keep
  });
}

std::pair<std::string, std::int64_t> run_preview(store::Pool& db, const Built& b, std::chrono::milliseconds timeout) {
  store::Sql sql = wrap(b, "select coalesce(json_agg(r), '[]')::text, count(*)::text from (", ") r");
  store::Row row;
  read_only(db, timeout, [&](soci::session& s) { row = store::fetch(s, sql).at(0); });
  return {row[0].value_or("[]"), std::stoll(row[1].value_or("0"))};
}

ExportRows run_export(store::Pool& db, const Built& b, const std::string& time_zone, std::chrono::milliseconds timeout) {
  ExportRows out;
  read_only(db, timeout, [&](soci::session& s) {
    out.rows = store::fetch(s, b.sql);
    store::Sql now("select to_char(now() at time zone ");
    now.bind(time_zone) << ", 'DD/MM/YYYY HH24:MI')";
    out.generated = store::fetch_value(s, now).value_or("");
  });
  return out;
}

// ---------------------------------------------------------------- catalog and layer records

std::map<std::string, store::Value> row_estimates(soci::session& s) {
  store::Sql sql(
      "select c.relname::text, case when c.reltuples < 0 or c.relkind in ('v') then null "
      "else c.reltuples::bigint::text end from pg_class c join pg_namespace n on n.oid = c.relnamespace "
      "where n.nspname = 'cadastro' and c.relkind in ('r', 'p', 'v', 'm')");
  std::map<std::string, store::Value> out;
  for (auto& r : store::fetch(s, sql)) out[r[0].value_or("")] = r[1];
  return out;
}

store::PageRows layer_page(soci::session& s, const store::FeatureQuery& q) {
  const store::Layer& layer = *q.layer;
  store::Sql sql("select (select count(*) from ");
  sql << layer.qualified() << " t";
  store::append_where(sql, q);
  sql << ")::text, (select coalesce(json_agg(r), '[]') from (select " << select_list(layer, Output::json) << " from "
      << layer.qualified() << " t";
  store::append_where(sql, q);
  sql << " order by ";
  for (const auto& k : q.sort)
    sql << "t." << query::quote_identifier(k.field) << (k.descending ? " desc" : " asc") << ", ";
  // A unique key last keeps pages stable: no record appears on two pages or none.
  sql << (layer.primary_key.empty() ? "t.ctid" : "t." + query::quote_identifier(layer.primary_key));
  store::append_page(sql, q.paging);
  sql << ") r)::text";
  return store::fetch_page(s, sql);
}

Saved create_record(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                    const store::Principal& user) {
  Saved out;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto written = store::insert_record(s, layer, in, user);
      out.id = written.id;
      // Without a single-column key the record cannot be read back by id: answer the Feature.
      out.json = layer.primary_key.empty() ? written.feature : record_json(s, layer, written.id);
    });
  });
  return out;
}

std::string update_record(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                          const store::Principal& user) {
  std::string body;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      store::update_record(s, layer, in, user);
      body = record_json(s, layer, *in.id);
    });
  });
  return body;
}

long long delete_record(store::Pool& db, const store::Layer& layer, const std::string& id,
                        const store::Principal& user) {
  long long removed = 0;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] { removed = store::delete_record(s, layer, id, user); });
  });
  return removed;
}

// ---------------------------------------------------------------- saved reports

store::PageRows list_reports(soci::session& s, const query::Paging& paging) {
  store::Sql sql("select (select count(*) from explorer.relatorio)::text, (select coalesce(json_agg(r order by r.id), "
                 "'[]') from (select ");
  sql << kReportColumns << " from explorer.relatorio order by id";
  store::append_page(sql, paging);
  sql << ") r)::text";
  return store::fetch_page(s, sql);
}

Saved create_report(store::Pool& db, const ReportInput& in, const store::Principal& user) {
  store::Sql sql("insert into explorer.relatorio (nome, titulo, consulta, criado_por) values (");
  sql.bind(in.nome) << ", ";
  sql.bind(in.titulo) << ", ";
  sql.bind(in.consulta, "jsonb") << ", ";
  sql.bind(user.email) << ") returning id::text";
  Saved out;
  writing(db, in.nome, [&](soci::session& s) {
    out.id = store::fetch_value(s, sql).value_or("");
    out.json = report_json(s, std::stoll(out.id), false).value_or("null");
    store::record_audit(s, kAuditTable, out.id, store::Operation::insert, user, std::nullopt, out.json);
  });
  return out;
}

std::string update_report(store::Pool& db, std::int64_t id, const ReportInput& in, const store::Principal& user) {
  store::Sql sql("update explorer.relatorio set atualizado_em = now()");
  if (in.nome) {
    sql << ", nome = ";
    sql.bind(in.nome);
  }
  if (in.has_titulo) {
    sql << ", titulo = ";
    sql.bind(in.titulo);
  }
  if (in.consulta) {
    sql << ", consulta = ";
    sql.bind(in.consulta, "jsonb");
  }
  sql << " where id = ";
  sql.bind(std::to_string(id), "bigint");
  std::string body;
  writing(db, in.nome, [&](soci::session& s) {
    auto before = report_json(s, id, true);
    if (!before) report_not_found(id);
    store::execute(s, sql);
    body = report_json(s, id, false).value_or("null");
    store::record_audit(s, kAuditTable, std::to_string(id), store::Operation::update, user, before, body);
  });
  return body;
}

std::string delete_report(store::Pool& db, std::int64_t id, const store::Principal& user) {
  store::Sql sql("delete from explorer.relatorio where id = ");
  sql.bind(std::to_string(id), "bigint");
  std::string before;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto row = report_json(s, id, true);
      if (!row) report_not_found(id);
      before = *row;
      store::execute(s, sql);
      store::record_audit(s, kAuditTable, std::to_string(id), store::Operation::remove, user, before, std::nullopt);
    });
  });
  return before;
}

StoredReport read_report(soci::session& s, std::int64_t id) {
  store::Sql read("select nome, coalesce(titulo, nome), consulta::text from explorer.relatorio where id = ");
  read.bind(std::to_string(id), "bigint");
  auto found = store::fetch(s, read);
  if (found.empty()) report_not_found(id);
  return {found[0][0].value_or(""), found[0][1].value_or(""), found[0][2].value_or("{}")};
}

}  // namespace cadastre::server::explorer
