#include "server/domains/store.hpp"

#include <soci/soci.h>

#include <charconv>
#include <functional>
#include <variant>

#include "cadastre/query.hpp"
#include "store/audit.hpp"

namespace cadastre::server::domains {
namespace {

// The value of an extra member as bound text (nullopt for JSON null).
store::Value scalar_text(const domain::Scalar& v) {
  return std::visit(
      [](const auto& x) -> store::Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return std::nullopt;
        else if constexpr (std::is_same_v<T, bool>)
          return std::string(x ? "true" : "false");
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return std::to_string(x);
        else if constexpr (std::is_same_v<T, double>) {
          char buf[40];  // shortest text that reads back as x: 0.9 stays "0.9" in a numeric column
          auto end = std::to_chars(buf, buf + sizeof buf, x).ptr;
          return std::string(buf, end);
        } else
          return x;
      },
      v);
}

// The catalog column of an extra member: unknown or unusable columns are a 400.
const store::Column& extra_column(const DomainTable& t, const std::string& name) {
  query::check_identifier(name, name);
  const store::Column* c = t.layer->column(name);
  if (!c)
    throw Error(errc::unknown_field,
                "a tabela " + t.audit_name + " não tem a coluna '" + name + "'", name);
  if (c->geometry)
    throw Error(errc::invalid_argument, "a coluna '" + name + "' não pode ser alterada por aqui",
                name);
  return *c;
}

/// The row before and after a write, as JSON text (nullopt for none).
using BeforeAfter = std::pair<store::Value, store::Value>;

// Runs `write` and records its audit row in the same transaction; returns the JSON of the
// row after the write (before it, for a delete).
std::string audited(store::Pool& db, const DomainTable& t, const std::string& id,
                    store::Operation op, const store::Principal& user,
                    const std::function<BeforeAfter(soci::session&)>& write) {
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto [before, after] = write(s);
      store::record_audit(s, t.audit_name, id, op, user, before, after);
      store::bump_generation(s, t.audit_name);
      answer = op == store::Operation::remove ? before.value_or("null") : after.value_or("null");
    });
  });
  return answer;
}

}  // namespace

DomainTable domain_table(const service::Caller& s, const std::string& campo) {
  domain::check_table_name(campo);
  DomainTable t;
  t.catalog = s.catalog("dominio");
  if (!t.catalog->find(campo)) t.catalog = s.reload_catalog("dominio");  // a new table?
  t.layer = t.catalog->find(campo);
  // Only tables shaped as domain tables are served: key id, with codigo and descricao.
  if (!t.layer || t.layer->is_view || t.layer->primary_key != "id" || !t.layer->column("codigo") ||
      !t.layer->column("descricao")) {
    throw Error(errc::layer_not_found, "tabela de domínio não encontrada: " + campo, "campo");
  }
  t.audit_name = "dominio." + campo;
  return t;
}

store::PageRows list(store::Pool& db, const DomainTable& t, const store::FeatureQuery& q) {
  store::Sql sql("select (select count(*) from ");
  sql << t.layer->qualified() << " t";
  store::append_where(sql, q);
  sql << ")::text, (select coalesce(json_agg(to_jsonb(t)), '[]') from (select * from "
      << t.layer->qualified() << " t";
  store::append_where(sql, q);
  sql << " order by ";
  for (const auto& s : q.sort)
    sql << "t." << query::quote_identifier(s.field) << (s.descending ? " desc" : " asc") << ", ";
  sql << "t.codigo, t.id";
  store::append_page(sql, q.paging);
  sql << ") t)::text";
  return db.with([&](soci::session& s) { return store::fetch_page(s, sql); });
}

std::string create(store::Pool& db, const DomainTable& t, const domain::Record& rec,
                   const store::Principal& user) {
  std::vector<const store::Column*> extra;
  for (const auto& member : rec.extra) extra.push_back(&extra_column(t, member.first));
  store::Sql sql("insert into ");
  sql << t.layer->qualified() << " as t (id, codigo, descricao";
  for (const store::Column* c : extra) sql << ", " << query::quote_identifier(c->name);
  sql << ") values (";
  sql.bind(rec.id) << ", ";
  sql.bind(rec.codigo) << ", ";
  sql.bind(rec.descricao);
  for (std::size_t i = 0; i < extra.size(); ++i) {
    sql << ", ";
    sql.bind(scalar_text(rec.extra[i].second), extra[i]->type);
  }
  sql << ") returning to_jsonb(t)::text";
  try {
    return audited(db, t, rec.id, store::Operation::insert, user, [&](soci::session& s) {
      return BeforeAfter{std::nullopt, store::fetch_value(s, sql)};
    });
  } catch (const Error& e) {
    if (e.code() != errc::conflict) throw;
    throw Error(errc::conflict, "o código '" + rec.id + "' já existe em " + t.audit_name, "id");
  }
}

std::string update(store::Pool& db, const DomainTable& t, const domain::Record& rec,
                   const store::Principal& user) {
  store::Sql read("select to_jsonb(t)::text from ");
  read << t.layer->qualified() << " t where t.id = ";
  read.bind(rec.id) << " for update";
  store::Sql sql("update ");
  sql << t.layer->qualified() << " as t set descricao = ";
  sql.bind(rec.descricao);
  for (const auto& [name, value] : rec.extra) {
    const store::Column& c = extra_column(t, name);
    sql << ", " << query::quote_identifier(c.name) << " = ";
    sql.bind(scalar_text(value), c.type);
  }
  sql << " where t.id = ";
  sql.bind(rec.id) << " returning to_jsonb(t)::text";
  return audited(db, t, rec.id, store::Operation::update, user, [&](soci::session& s) {
    auto before = store::fetch_value(s, read);
    if (!before)
      throw Error(errc::not_found, "código '" + rec.id + "' não encontrado em " + t.audit_name,
                  "id");
    return BeforeAfter{before, store::fetch_value(s, sql)};
  });
}

std::string remove(store::Pool& db, const DomainTable& t, const std::string& id,
                   const store::Principal& user) {
  store::Sql sql("delete from ");
  sql << t.layer->qualified() << " as t where t.id = ";
  sql.bind(id) << " returning to_jsonb(t)::text";
  try {
    return audited(db, t, id, store::Operation::remove, user, [&](soci::session& s) {
      auto before = store::fetch_value(s, sql);
      if (!before)
        throw Error(errc::not_found, "código '" + id + "' não encontrado em " + t.audit_name, "id");
      return BeforeAfter{before, std::nullopt};
    });
  } catch (const Error& e) {
    // The only conflict a delete meets: a cadastral record still references the code.
    if (e.code() != errc::conflict) throw;
    throw Error(errc::conflict,
                "o código '" + id + "' de " + t.audit_name +
                    " ainda é usado por registros do cadastro e não pode ser excluído",
                "id");
  }
}

}  // namespace cadastre::server::domains
