// Explorer (/explorer/{municipio}): a data browser over the tenant's catalog layers (schema
// cadastro, the layers /crud serves).
//
//   tabelas/        the catalog: tables, columns, types, geometry, row estimate
//   query/preview   a query description (explorer_query.hpp) → the SQL text it would run,
//                   values written as literals; nothing runs
//   query/preview2  the same, and runs it: values bound, read-only transaction, statement
//                   timeout, at most 1000 rows
//   {camada}        paged list, create, update, delete of a layer's records
//   relatorios      the pseudo-layer of saved reports (explorer_reports.cpp), and
//   report/{id}/export-excel|export-pdf  a report's rows as .xlsx or PDF
//
// Access: layers by their own read/write permission (layer_for); reports by the pseudo-layer
// "explorer" of the permission rules. Every name from the body or the path is checked by the
// identifier rules and the catalog before any SQL is built.
#include "server/explorer/routes.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <map>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace explorer {

LayerRef query_layer(App& app, const http::Request& req, const Query& q, std::string_view where) {
  try {
    return layer_for(app, req, q.table, false);
  } catch (const Error& e) {
    if (e.code() != errc::layer_not_found) throw;
    std::string field = where.empty() ? "tabela" : std::string(where) + ".tabela";
    throw Error(errc::invalid_argument, "tabela fora do catálogo do município: " + q.table, field);
  }
}

void read_only(const Context& ctx, std::chrono::milliseconds timeout,
               const std::function<void(soci::session&)>& fn) {
  ctx.db->run([&](soci::session& s) {
    soci::transaction tx(s);
    s << "set transaction read only";
    s << "set local statement_timeout = " + std::to_string(timeout.count());
    try {
      fn(s);
    } catch (const soci::postgresql_soci_error& e) {
      if (std::string(e.sqlstate()) == "25006")
        throw Error(errc::forbidden,
                    "a consulta tentou gravar dados; o explorador só executa leitura");
      throw;
    }
    tx.rollback();  // nothing to keep
  });
}

}  // namespace explorer

namespace {

using http::Request;
using http::Response;
using namespace explorer;

constexpr std::int64_t kPreviewDefaultLimit = 100;
constexpr std::int64_t kPreviewMaxLimit = 1000;
constexpr std::chrono::milliseconds kPreviewTimeout{5000};

// ------------------------------------------------------------------ catalog

// Row estimates read now (pg_class.reltuples, kept by ANALYZE and autovacuum), not from
// the cached catalog, which may predate the data. Null when never analysed.
std::map<std::string, store::Value> row_estimates(const Context& ctx) {
  store::Sql sql(
      "select c.relname::text, case when c.reltuples < 0 or c.relkind in ('v') then null "
      "else c.reltuples::bigint::text end from pg_class c join pg_namespace n on n.oid = "
      "c.relnamespace "
      "where n.nspname = 'cadastro' and c.relkind in ('r', 'p', 'v', 'm')");
  auto rows = ctx.db->with([&](soci::session& s) { return store::fetch(s, sql); });
  std::map<std::string, store::Value> out;
  for (auto& r : rows) out[r[0].value_or("")] = r[1];
  return out;
}

Response tables(App& app, Request& req) {
  const Context& ctx = context(req);
  auto catalog = app.catalogs().get(ctx.tenant, *ctx.db);
  auto perms = app.identity().permissions(ctx.user.user_id);
  auto estimates = row_estimates(ctx);
  JsonWriter w;
  w.begin_object().key("municipio").value(ctx.tenant.slug).key("esquema").value(catalog->schema());
  w.key("tabelas").begin_array();
  for (const auto& [name, layer] : catalog->layers()) {
    if (!store::layer_allowed(perms, name, false, ctx.user.admin))
      continue;  // only what the caller may read
    w.begin_object().key("nome").value(name).key("tipo").value(layer.is_view ? "visao" : "tabela");
    if (layer.primary_key.empty())
      w.key("chave_primaria").null();
    else
      w.key("chave_primaria").value(layer.primary_key);
    if (const store::Column* g =
            layer.geometry_column.empty() ? nullptr : layer.column(layer.geometry_column)) {
      w.key("geometria")
          .begin_object()
          .key("coluna")
          .value(g->name)
          .key("tipo")
          .value(g->geometry_type);
      w.key("srid").value(g->srid).end_object();
    } else {
      w.key("geometria").null();
    }
    auto est = estimates.find(name);
    if (est == estimates.end() || !est->second)
      w.key("linhas_estimadas").null();
    else
      w.key("linhas_estimadas").value(static_cast<std::int64_t>(std::stoll(*est->second)));
    w.key("colunas").begin_array();
    for (const auto& c : layer.columns) {
      w.begin_object()
          .key("nome")
          .value(c.name)
          .key("tipo")
          .value(c.type)
          .key("tipo_base")
          .value(c.base_type);
      w.key("nulo")
          .value(c.nullable)
          .key("chave_primaria")
          .value(c.primary_key)
          .key("geometria")
          .value(c.geometry);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

// ------------------------------------------------------------------ previews

struct Preview {
  Query query;
  LayerRef layer;
  std::int64_t limit = kPreviewDefaultLimit;
  Built built;
};

Preview preview_of(App& app, Request& req) {
  Preview p;
  p.query = parse_query(req.body);
  p.layer = query_layer(app, req, p.query);
  // Previews show a sample: the description's limit, at most kPreviewMaxLimit rows.
  p.limit = std::min(p.query.limit.value_or(kPreviewDefaultLimit), kPreviewMaxLimit);
  p.built = build(p.query, *p.layer, p.limit, Output::json);
  return p;
}

void write_preview(JsonWriter& w, const Preview& p) {
  w.key("sql").value(p.built.preview).key("tabela").value(p.layer->name);
  w.key("colunas").begin_array();
  for (const store::Column* c : p.built.columns) w.value(c->name);
  w.end_array();
  w.key("limite").value(p.limit);
}

Response preview(App& app, Request& req) {
  Preview p = preview_of(app, req);
  JsonWriter w;
  w.begin_object();
  write_preview(w, p);
  w.end_object();
  return Response::json(std::move(w).str());
}

Response preview_and_run(App& app, Request& req) {
  Preview p = preview_of(app, req);
  store::Sql sql =
      wrap(p.built, "select coalesce(json_agg(r), '[]')::text, count(*)::text from (", ") r");
  store::Row row;
  read_only(context(req), kPreviewTimeout,
            [&](soci::session& s) { row = store::fetch(s, sql).at(0); });
  JsonWriter w;
  w.begin_object();
  write_preview(w, p);
  w.key("registros").raw(row[0].value_or("[]"));
  w.key("total_retornado").value(static_cast<std::int64_t>(std::stoll(row[1].value_or("0"))));
  w.end_object();
  return Response::json(std::move(w).str());
}

// ------------------------------------------------------------------ layer records

bool is_reports(const Request& req) { return req.param("camada") == kReportsLayer; }

// One record as the list shows it (geometry as GeoJSON), read after a write.
std::string record_json(soci::session& s, const store::Layer& layer, const std::string& id) {
  store::Sql sql("select to_json(r)::text from (select ");
  sql << select_list(layer, Output::json) << " from " << layer.qualified() << " t where t."
      << query::quote_identifier(layer.primary_key) << " = ";
  sql.bind(id, layer.column(layer.primary_key)->type) << ") r";
  return store::fetch_value(s, sql).value_or("null");
}

Response list(App& app, Request& req) {
  if (is_reports(req)) return list_reports(app, req);
  auto layer = layer_for(app, req, req.param("camada"), false);
  auto fq = store::resolve(*layer, query::parse_list_query(query_params(req)));
  store::Sql sql("select (select count(*) from ");
  sql << layer->qualified() << " t";
  store::append_where(sql, fq);
  sql << ")::text, (select coalesce(json_agg(r), '[]') from (select "
      << select_list(*layer, Output::json) << " from " << layer->qualified() << " t";
  store::append_where(sql, fq);
  sql << " order by ";
  for (const auto& k : fq.sort)
    sql << "t." << query::quote_identifier(k.field) << (k.descending ? " desc" : " asc") << ", ";
  // A unique key last keeps pages stable: no record appears on two pages or none.
  sql << (layer->primary_key.empty() ? "t.ctid"
                                     : "t." + query::quote_identifier(layer->primary_key));
  sql << " limit " << std::to_string(fq.paging.size) << " offset "
      << std::to_string(fq.paging.offset) << ") r)::text";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  JsonWriter w;
  w.begin_object().key("camada").value(layer->name);
  w.key("total").value(static_cast<std::int64_t>(std::stoll(row[0].value_or("0"))));
  w.key("pagina").value(fq.paging.page).key("limite").value(fq.paging.size);
  w.key("registros").raw(row[1].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response create(App& app, Request& req) {
  if (is_reports(req)) return create_report(app, req);
  auto layer = layer_for(app, req, req.param("camada"), true);
  auto in = store::parse_record(*layer, req.body);
  const Context& ctx = context(req);
  std::string body;
  std::string id;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto written = store::insert_record(s, *layer, in, ctx.user);
      id = written.id;
      // Without a single-column key the record cannot be read back by id: answer the Feature.
      body = layer->primary_key.empty() ? written.feature : record_json(s, *layer, written.id);
    });
  });
  auto r = Response::json(std::move(body), 201);
  if (!layer->primary_key.empty())
    r.headers.set("Location", "/explorer/" + ctx.tenant.slug + "/" + layer->name + "/" + id);
  return r;
}

Response update(App& app, Request& req) {
  if (is_reports(req)) return update_report(app, req);
  auto layer = layer_for(app, req, req.param("camada"), true);
  std::string id = record_id(*layer, req.param("id"));
  auto in = store::parse_record(*layer, req.body);
  if (in.id && *in.id != id)
    throw Error(errc::invalid_argument,
                "o id do corpo (" + *in.id + ") difere do id do caminho (" + id + ")", "id");
  in.id = id;
  const Context& ctx = context(req);
  std::string body;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      store::update_record(s, *layer, in, ctx.user);
      body = record_json(s, *layer, id);
    });
  });
  return Response::json(std::move(body));
}

Response remove(App& app, Request& req) {
  if (is_reports(req)) return delete_report(app, req);
  auto layer = layer_for(app, req, req.param("camada"), true);
  std::string id = record_id(*layer, req.param("id"));
  const Context& ctx = context(req);
  long long removed = 0;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] { removed = store::delete_record(s, *layer, id, ctx.user); });
  });
  JsonWriter w;
  w.begin_object().key("id").value(id).key("camada").value(layer->name);
  w.key("registros_removidos").value(static_cast<std::int64_t>(removed)).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace

void add_explorer_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Explorador";
  const std::string query_body =
      "{\"tabela\": camada do catálogo, \"colunas\"?: [nomes], \"filtros\"?: [{\"coluna\", "
      "\"operador\": = <> < <= > "
      ">= contains icontains in | is null | is not null | bbox, \"valor\"}], \"ordem\"?: "
      "[{\"coluna\", \"direcao\": "
      "asc|desc}], \"limite\"?: 1..10000}";
  const std::string reports =
      " A camada 'relatorios' lista/cria/altera/exclui os relatórios salvos ({nome, titulo?, "
      "consulta}); exige a "
      "permissão da camada 'explorer' (regra 'explorer' ou a padrão '*').";
  srv.add({.method = "GET",
           .pattern = "/explorer/{municipio}/tabelas/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Catálogo do município: tabelas e visões do esquema cadastro que o usuário "
                      "pode ler, com colunas "
                      "(nome, tipo, tipo_base, nulo, chave_primaria, geometria), geometria "
                      "(coluna, tipo, srid) e "
                      "linhas_estimadas (null se a tabela nunca foi analisada).",
           .handler = [&app](Request& r) { return tables(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/query/preview",
           .auth = "bearer",
           .tag = tag,
           .summary = "Gera o texto SQL de uma descrição de consulta, com identificadores entre "
                      "aspas e valores como literais "
                      "seguros; nada é executado. Tabela ou coluna fora do catálogo, operador ou "
                      "valor incompatível com o tipo "
                      "→ 400. Responde {sql, tabela, colunas, limite} (limite padrão 100, máximo "
                      "1000). Requer leitura na camada.",
           .body = {.description = query_body},
           .handler = [&app](Request& r) { return preview(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/query/preview2",
           .auth = "bearer",
           .tag = tag,
           .summary = "Como preview, e executa a consulta com valores vinculados (não o texto) "
                      "numa transação somente leitura "
                      "com tempo limite de 5 s: responde {sql, tabela, colunas, limite, registros, "
                      "total_retornado}; no máximo "
                      "1000 linhas; geometrias em GeoJSON (lon/lat).",
           .body = {.description = query_body},
           .handler = [&app](Request& r) { return preview_and_run(app, r); }});
  srv.add({.method = "GET",
           .pattern = "/explorer/{municipio}/{camada}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Lista paginada dos registros da camada: {camada, total, pagina, limite, "
                      "registros} com geometrias em "
                      "GeoJSON; filtros campo=valor e sort como nas demais listas. Camada "
                      "desconhecida → 404." +
                      reports,
           .params = with_paging(),
           .handler = [&app](Request& r) { return list(app, r); }});
  srv.add(
      {.method = "POST",
       .pattern = "/explorer/{municipio}/{camada}",
       .auth = "bearer",
       .tag = tag,
       .summary = "Cria um registro da camada (campos da tabela; geometria GeoJSON em lon/lat) com "
                  "auditoria; responde 201 "
                  "com o registro. Requer escrita na camada." +
                  reports,
       .body =
           {.description =
                "objeto de campos ou Feature GeoJSON; para relatorios {nome, titulo?, consulta}"},
       .handler = [&app](Request& r) { return create(app, r); }});
  srv.add({.method = "PUT",
           .pattern = "/explorer/{municipio}/{camada}/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Altera os campos enviados do registro {id}; 404 se não existe. Requer "
                      "escrita na camada." +
                      reports,
           .body = {.description = "campos a alterar; para relatorios {nome?, titulo?, consulta?}"},
           .handler = [&app](Request& r) { return update(app, r); }});
  srv.add({.method = "DELETE",
           .pattern = "/explorer/{municipio}/{camada}/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Exclui o registro {id} e suas relações principais (como em /crud); 404 se "
                      "não existe. Requer escrita na "
                      "camada." +
                      reports,
           .handler = [&app](Request& r) { return remove(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/report/{id}/export-excel",
           .auth = "bearer",
           .tag = tag,
           .summary = "Executa o relatório salvo {id} (somente leitura, até 10.000 linhas) e "
                      "devolve uma planilha .xlsx com "
                      "título, cabeçalho e as linhas (anexo). Relatório inexistente → 404; id não "
                      "inteiro → 400. Requer leitura "
                      "na camada 'explorer' e na tabela do relatório.",
           .answers = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
           .handler = [&app](Request& r) { return export_report(app, r, FileFormat::xlsx); }});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/report/{id}/export-pdf",
           .auth = "bearer",
           .tag = tag,
           .summary = "Como export-excel, em PDF (A4 paisagem): título, cabeçalho repetido em cada "
                      "página e as linhas.",
           .answers = "application/pdf",
           .handler = [&app](Request& r) { return export_report(app, r, FileFormat::pdf); }});
}

}  // namespace cadastre::server
