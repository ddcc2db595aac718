// Domains (/dominio/{municipio}/{campo}): list, create, update and delete the rows of the
// lookup tables of the tenant's `dominio` schema (topografia, pedologia, uso, ...).
//
// Access: domain tables are governed as one layer named "dominio" in the user's permission
// rules (a rule for "dominio", else the user's "*" default): reads need its read
// permission, writes its write permission. Order of checks: the table name's identifier
// rules (400), the permission (403), then the catalog of schema dominio (404), so hostile
// names never reach SQL and unreadable tables are not probed.
//
// Rules of a row (cadastre/domain.hpp): id = codigo, descricao required; other members
// must be columns of that table (e.g. fator). The code is the key cadastral records
// reference, so it never changes; deleting a code still in use is refused by the foreign
// keys of the cadastro layers (409 conflito). Every write records an audit row
// (tabela "dominio.<campo>") and bumps the generation of "dominio.<campo>" in the same
// transaction.
#include <soci/soci.h>

#include <charconv>
#include <functional>
#include <variant>

#include "cadastre/domain.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "service/geojson.hpp"
#include "store/audit.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

constexpr const char* kPermissionLayer = "dominio";

struct DomainTable {
  std::shared_ptr<const store::Catalog> catalog;  ///< keeps `layer` alive
  const store::Layer* layer = nullptr;
  std::string audit_name;  ///< "dominio.<campo>"
};

DomainTable domain_table(App& app, const Request& req, bool write) {
  const std::string& campo = req.param("campo");
  domain::check_table_name(campo);
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), kPermissionLayer, write,
                            ctx.user.admin)) {
    throw Error(errc::forbidden, std::string("sem permissão de ") +
                                     (write ? "escrita" : "leitura") +
                                     " nas tabelas de domínio (camada 'dominio')");
  }
  DomainTable t;
  t.catalog = app.catalogs().get(ctx.tenant, *ctx.db, "dominio");
  if (!t.catalog->find(campo))
    t.catalog = app.catalogs().reload(ctx.tenant, *ctx.db, "dominio");  // a new table?
  t.layer = t.catalog->find(campo);
  // Only tables shaped as domain tables are served: key id, with codigo and descricao.
  if (!t.layer || t.layer->is_view || t.layer->primary_key != "id" || !t.layer->column("codigo") ||
      !t.layer->column("descricao")) {
    throw Error(errc::layer_not_found, "tabela de domínio não encontrada: " + campo, "campo");
  }
  t.audit_name = "dominio." + campo;
  return t;
}

// A path {id} names an existing code: the record rules apply (400 before any SQL).
std::string path_code(const Request& req) {
  const std::string& id = req.param("id");
  domain::Record{id, id, "-", {}}.validate();
  return id;
}

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
std::string audited(const Context& ctx, const DomainTable& t, const std::string& id,
                    store::Operation op, const std::function<BeforeAfter(soci::session&)>& write) {
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto [before, after] = write(s);
      store::record_audit(s, t.audit_name, id, op, ctx.user, before, after);
      store::bump_generation(s, t.audit_name);
      answer = op == store::Operation::remove ? before.value_or("null") : after.value_or("null");
    });
  });
  return answer;
}

Response list(App& app, Request& req) {
  DomainTable t = domain_table(app, req, false);
  auto fq = store::resolve(*t.layer, query::parse_list_query(query_params(req)));
  store::Sql sql("select (select count(*) from ");
  sql << t.layer->qualified() << " t";
  store::append_where(sql, fq);
  sql << ")::text, (select coalesce(json_agg(to_jsonb(t)), '[]') from (select * from "
      << t.layer->qualified() << " t";
  store::append_where(sql, fq);
  sql << " order by ";
  for (const auto& s : fq.sort)
    sql << "t." << query::quote_identifier(s.field) << (s.descending ? " desc" : " asc") << ", ";
  sql << "t.codigo, t.id limit " << std::to_string(fq.paging.size) << " offset "
      << std::to_string(fq.paging.offset) << ") t)::text";
  auto rows = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql); });
  JsonWriter w;
  w.begin_object().key("tabela").value(t.layer->name);
  w.key("total").value(static_cast<std::int64_t>(std::stoll(rows.at(0)[0].value_or("0"))));
  w.key("pagina").value(fq.paging.page).key("limite").value(fq.paging.size);
  w.key("registros").raw(rows.at(0)[1].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response create(App& app, Request& req) {
  DomainTable t = domain_table(app, req, true);
  auto rec = domain::Record::from_json_for_create(req.body);
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
    auto row = audited(context(req), t, rec.id, store::Operation::insert, [&](soci::session& s) {
      return BeforeAfter{std::nullopt, store::fetch_value(s, sql)};
    });
    return Response::json(std::move(row), 201);
  } catch (const Error& e) {
    if (e.code() != errc::conflict) throw;
    throw Error(errc::conflict, "o código '" + rec.id + "' já existe em " + t.audit_name, "id");
  }
}

Response update(App& app, Request& req) {
  DomainTable t = domain_table(app, req, true);
  auto rec = domain::Record::from_json_for_update(req.body, req.param("id"));
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
  auto row = audited(context(req), t, rec.id, store::Operation::update, [&](soci::session& s) {
    auto before = store::fetch_value(s, read);
    if (!before)
      throw Error(errc::not_found, "código '" + rec.id + "' não encontrado em " + t.audit_name,
                  "id");
    return BeforeAfter{before, store::fetch_value(s, sql)};
  });
  return Response::json(std::move(row));
}

Response remove(App& app, Request& req) {
  DomainTable t = domain_table(app, req, true);
  std::string id = path_code(req);
  store::Sql sql("delete from ");
  sql << t.layer->qualified() << " as t where t.id = ";
  sql.bind(id) << " returning to_jsonb(t)::text";
  try {
    auto row = audited(context(req), t, id, store::Operation::remove, [&](soci::session& s) {
      auto before = store::fetch_value(s, sql);
      if (!before)
        throw Error(errc::not_found, "código '" + id + "' não encontrado em " + t.audit_name, "id");
      return BeforeAfter{before, std::nullopt};
    });
    JsonWriter w;
    w.begin_object().key("mensagem").value("código '" + id + "' excluído de " + t.audit_name);
    w.key("registro").raw(row).end_object();
    return Response::json(std::move(w).str());
  } catch (const Error& e) {
    // The only conflict a delete meets: a cadastral record still references the code.
    if (e.code() != errc::conflict) throw;
    throw Error(errc::conflict,
                "o código '" + id + "' de " + t.audit_name +
                    " ainda é usado por registros do cadastro e não pode ser excluído",
                "id");
  }
}

}  // namespace

void add_domain_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Domínios";
  const std::string access_r =
      " Requer permissão de leitura na camada 'dominio' (regra 'dominio' ou a padrão '*').";
  const std::string access_w =
      " Requer permissão de escrita na camada 'dominio' (regra 'dominio' ou a padrão '*'); "
      "grava um registro de auditoria.";
  srv.add({.method = "GET",
           .pattern = "/dominio/{municipio}/{campo}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Lista a tabela de domínio {campo} ordenada por codigo: {tabela, total, "
                      "pagina, limite, registros}; aceita "
                      "filtros campo=valor e paginação. Tabela desconhecida → 404." +
                      access_r,
           .params = with_paging(),
           .handler = [&app](Request& r) { return list(app, r); }});
  srv.add(
      {.method = "POST",
       .pattern = "/dominio/{municipio}/{campo}",
       .auth = "bearer",
       .tag = tag,
       .summary = "Cria um código: id e codigo devem ser iguais (400 caso contrário); colunas "
                  "extras (ex.: fator) precisam "
                  "existir na tabela (400). Código repetido → 409. Responde 201 com o registro." +
                  access_w,
       .body = {.description = "{\"id\": \"...\", \"codigo\": \"...\" (igual a id), \"descricao\": "
                               "\"...\", demais colunas da tabela}"},
       .handler = [&app](Request& r) { return create(app, r); }});
  srv.add({.method = "PUT",
           .pattern = "/dominio/{municipio}/{campo}/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Altera descricao e colunas extras do código {id} (o código não muda: "
                      "id/codigo no corpo, se vierem, devem "
                      "ser iguais a {id}). Código inexistente → 404." +
                      access_w,
           .body = {.description = "{\"descricao\": \"...\", demais colunas da tabela}"},
           .handler = [&app](Request& r) { return update(app, r); }});
  srv.add({.method = "DELETE",
           .pattern = "/dominio/{municipio}/{campo}/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Exclui o código {id}; 404 se não existe; 409 (conflito) se ainda é usado "
                      "por registros do cadastro." +
                      access_w,
           .handler = [&app](Request& r) { return remove(app, r); }});
}

}  // namespace cadastre::server
