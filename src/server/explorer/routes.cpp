// Explorer (/explorer/{municipio}): a data browser over the tenant's catalog layers (schema
// cadastro, the layers /crud serves).
//
//   tabelas/        the catalog: tables, columns, types, geometry, row estimate
//   query/preview   a query description (input.hpp) → the SQL text it would run, values
//                   written as literals; nothing runs
//   query/preview2  the same, and runs it: values bound, read-only transaction, statement
//                   timeout, at most 1000 rows
//   {camada}        paged list, create, update, delete of a layer's records
//   relatorios      the saved reports (a pseudo-layer beside the layers: its routes are
//                   literal, so they take precedence over {camada}), and
//   report/{id}/export-excel|export-pdf  a report's rows as .xlsx or PDF (export.hpp)
//
// Access: layers by their own read/write permission; reports by the pseudo-layer
// "explorer" of the permission rules (a rule for "explorer", else the user's "*" default),
// and a report's table by its own read permission. Every name from the body or the path is
// checked by the identifier rules and the catalog before any SQL is built (store.cpp).
#include <soci/soci.h>

#include <map>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/explorer/export.hpp"
#include "server/explorer/input.hpp"
#include "server/explorer/store.hpp"
#include "service/geojson.hpp"
#include "service/paging.hpp"
#include "store/features.hpp"
#include "store/records.hpp"

namespace cadastre::server::explorer {
namespace {

using http::Request;
using http::Response;
using service::Scope;

/// The pseudo-layer under /explorer/{municipio} that holds the saved reports.
constexpr std::string_view kReportsLayer = "relatorios";
constexpr std::int64_t kPreviewDefaultLimit = 100;
constexpr std::int64_t kPreviewMaxLimit = 1000;
constexpr std::chrono::milliseconds kPreviewTimeout{5000};
constexpr std::chrono::milliseconds kExportTimeout{30000};

enum class FileFormat { xlsx, pdf };

// ------------------------------------------------------------------ catalog

void write_layer(JsonWriter& w, const store::Layer& layer, const std::map<std::string, store::Value>& estimates) {
  w.begin_object().key("nome").value(layer.name).key("tipo").value(layer.is_view ? "visao" : "tabela");
  if (layer.primary_key.empty()) w.key("chave_primaria").null();
  else w.key("chave_primaria").value(layer.primary_key);
  if (const store::Column* g = layer.geometry_column.empty() ? nullptr : layer.column(layer.geometry_column)) {
    w.key("geometria").begin_object().key("coluna").value(g->name).key("tipo").value(g->geometry_type);
    w.key("srid").value(g->srid).end_object();
  } else {
    w.key("geometria").null();
  }
  auto est = estimates.find(layer.name);
  if (est == estimates.end() || !est->second) w.key("linhas_estimadas").null();
  else w.key("linhas_estimadas").value(static_cast<std::int64_t>(std::stoll(*est->second)));
  w.key("colunas").begin_array();
  for (const auto& c : layer.columns) {
    w.begin_object().key("nome").value(c.name).key("tipo").value(c.type).key("tipo_base").value(c.base_type);
    w.key("nulo").value(c.nullable).key("chave_primaria").value(c.primary_key).key("geometria").value(c.geometry);
    w.end_object();
  }
  w.end_array().end_object();
}

Response tables(const Scope& s, Request&) {
  auto catalog = s.catalog();
  auto estimates = s.db->with([](soci::session& ss) { return row_estimates(ss); });
  JsonWriter w;
  w.begin_object().key("municipio").value(s.tenant.slug).key("esquema").value(catalog->schema());
  w.key("tabelas").begin_array();
  for (const auto& [name, layer] : catalog->layers()) {
    if (s.may(name, false)) write_layer(w, layer, estimates);  // only what the caller may read
  }
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

// ------------------------------------------------------------------ previews

struct Preview {
  service::LayerRef layer;
  std::int64_t limit = kPreviewDefaultLimit;
  Built built;
};

Preview preview_of(const Scope& s, const Request& req) {
  Query query = parse_query(req.body);
  Preview p;
  p.layer = query_layer(s, query);
  // Previews show a sample: the description's limit, at most kPreviewMaxLimit rows.
  p.limit = std::min(query.limit.value_or(kPreviewDefaultLimit), kPreviewMaxLimit);
  p.built = build(query, *p.layer, p.limit, Output::json);
  return p;
}

void write_preview(JsonWriter& w, const Preview& p) {
  w.key("sql").value(p.built.preview).key("tabela").value(p.layer->name);
  w.key("colunas").begin_array();
  for (const store::Column* c : p.built.columns) w.value(c->name);
  w.end_array();
  w.key("limite").value(p.limit);
}

Response preview(const Scope& s, Request& req) {
  Preview p = preview_of(s, req);
  JsonWriter w;
  w.begin_object();
  write_preview(w, p);
  w.end_object();
  return Response::json(std::move(w).str());
}

Response preview_and_run(const Scope& s, Request& req) {
  Preview p = preview_of(s, req);
  auto [records, count] = run_preview(*s.db, p.built, kPreviewTimeout);
  JsonWriter w;
  w.begin_object();
  write_preview(w, p);
  w.key("registros").raw(records);
  w.key("total_retornado").value(count);
  w.end_object();
  return Response::json(std::move(w).str());
}

// ------------------------------------------------------------------ layer records

Response list(const Scope& s, Request& req) {
  const store::Layer& layer = *s.layer();
  auto fq = store::resolve(layer, query::parse_list_query(query_params(req)));
  auto page = s.db->with([&](soci::session& ss) { return layer_page(ss, fq); });
  return Response::json(service::page_envelope(page, fq.paging, "registros", layer.name));
}

Response create(const Scope& s, Request& req) {
  const store::Layer& layer = *s.layer();
  Saved saved = create_record(*s.db, layer, store::parse_record(layer, req.body), s.user);
  auto r = Response::json(std::move(saved.json), 201);
  if (!layer.primary_key.empty())
    r.headers.set("Location", "/explorer/" + s.tenant.slug + "/" + layer.name + "/" + saved.id);
  return r;
}

Response update(const Scope& s, Request& req) {
  const store::Layer& layer = *s.layer();
  std::string id = service::record_id(layer, req.param("id"));
  auto in = store::parse_record(layer, req.body);
  if (in.id && *in.id != id)
    throw Error(errc::invalid_argument, "o id do corpo (" + *in.id + ") difere do id do caminho (" + id + ")", "id");
  in.id = id;
  return Response::json(update_record(*s.db, layer, in, s.user));
}

Response remove(const Scope& s, Request& req) {
  const store::Layer& layer = *s.layer();
  std::string id = service::record_id(layer, req.param("id"));
  long long removed = delete_record(*s.db, layer, id, s.user);
  JsonWriter w;
  w.begin_object().key("id").value(id).key("camada").value(layer.name);
  w.key("registros_removidos").value(static_cast<std::int64_t>(removed)).end_object();
  return Response::json(std::move(w).str());
}

// ------------------------------------------------------------------ saved reports

Response list_saved(const Scope& s, Request& req) {
  auto paging = query::normalize_paging(req.query);
  auto page = s.db->with([&](soci::session& ss) { return list_reports(ss, paging); });
  return Response::json(service::page_envelope(page, paging, "registros", kReportsLayer));
}

Response create_saved(const Scope& s, Request& req) {
  Saved saved = create_report(*s.db, parse_report(s, req.body, std::nullopt), s.user);
  auto r = Response::json(std::move(saved.json), 201);
  r.headers.set("Location", "/explorer/" + s.tenant.slug + "/" + std::string(kReportsLayer) + "/" + saved.id);
  return r;
}

Response update_saved(const Scope& s, Request& req) {
  std::int64_t id = report_id(req);
  return Response::json(update_report(*s.db, id, parse_report(s, req.body, id), s.user));
}

Response delete_saved(const Scope& s, Request& req) {
  std::int64_t id = report_id(req);
  std::string before = delete_report(*s.db, id, s.user);
  JsonWriter w;
  w.begin_object().key("mensagem").value("relatório " + std::to_string(id) + " excluído");
  w.key("registro").raw(before).end_object();
  return Response::json(std::move(w).str());
}

// The stored description of a report, checked again: it was valid when saved, but the
// catalog may have changed since (→ 422); the caller's read permission on its table holds.
Built stored_query(const Scope& s, const StoredReport& report, std::int64_t id, service::LayerRef& layer) {
  try {
    Query q = parse_query(report.consulta, "consulta");
    layer = query_layer(s, q, "consulta");
    return build(q, *layer, q.limit.value_or(kMaxLimit), Output::text, "consulta");
  } catch (const Error& e) {
    if (e.code() == errc::forbidden) throw;
    throw Error(errc::unprocessable,
                "o relatório " + std::to_string(id) + " não corresponde mais ao catálogo: " + e.what(), e.field());
  }
}

ExportTable export_table(const StoredReport& report, const store::Layer& layer, const Built& built, ExportRows rows) {
  ExportTable table;
  table.title = report.titulo;
  std::size_t n = rows.rows.size();
  table.subtitle = "Tabela " + layer.name + " · " + std::to_string(n) + (n == 1 ? " registro" : " registros") +
                   " · gerado em " + rows.generated;
  table.rows = std::move(rows.rows);
  for (const store::Column* c : built.columns) {
    table.columns.push_back(c->name);
    table.numeric.push_back(c->numeric());
  }
  return table;
}

Response export_report(const Scope& s, Request& req, FileFormat format) {
  std::int64_t id = report_id(req);
  StoredReport report = s.db->with([&](soci::session& ss) { return read_report(ss, id); });
  service::LayerRef layer;
  Built built = stored_query(s, report, id, layer);
  const std::string zone = s.tenant.fuso_horario.empty() ? "America/Sao_Paulo" : s.tenant.fuso_horario;
  ExportTable table = export_table(report, *layer, built, run_export(*s.db, built, zone, kExportTimeout));
  const bool xlsx = format == FileFormat::xlsx;
  auto r = Response::text(xlsx ? xlsx_document(table) : pdf_document(table),
                          xlsx ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" : "application/pdf");
  r.headers.set("Content-Disposition", content_disposition(report.nome, id, xlsx ? ".xlsx" : ".pdf"));
  return r;
}

}  // namespace
}  // namespace cadastre::server::explorer

namespace cadastre::server {

void add_explorer_routes(App& app) {
  using namespace explorer;
  auto& srv = app.server();
  const std::string tag = "Explorador";
  const std::string query_body =
      "{\"tabela\": camada do catálogo, \"colunas\"?: [nomes], \"filtros\"?: [{\"coluna\", "
      "\"operador\": = <> < <= > "
      ">= contains icontains in | is null | is not null | bbox, \"valor\"}], \"ordem\"?: "
      "[{\"coluna\", \"direcao\": "
      "asc|desc}], \"limite\"?: 1..10000}";
  const std::string report_body = "{nome, titulo?, consulta}: consulta é uma descrição de consulta (" + query_body + ")";
  srv.add({.method = "GET",
           .pattern = "/explorer/{municipio}/tabelas/",
           .auth = "bearer",
           .access = http::members("só as tabelas e visões que o usuário pode ler"),
           .tag = tag,
           .summary = "Catálogo do município: tabelas e visões do esquema cadastro que o usuário "
                      "pode ler, com colunas "
                      "(nome, tipo, tipo_base, nulo, chave_primaria, geometria), geometria "
                      "(coluna, tipo, srid) e "
                      "linhas_estimadas (null se a tabela nunca foi analisada).",
           .handler = service::scoped(&tables)});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/query/preview",
           .auth = "bearer",
           .access = http::members("leitura em cada tabela da consulta (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Gera o texto SQL de uma descrição de consulta, com identificadores entre "
                      "aspas e valores como literais "
                      "seguros; nada é executado. Tabela ou coluna fora do catálogo, operador ou "
                      "valor incompatível com o tipo "
                      "→ 400; tabela sem leitura → 403. Responde {sql, tabela, colunas, limite} (limite padrão 100, máximo "
                      "1000).",
           .body = {.description = query_body},
           .handler = service::scoped(&preview)});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/query/preview2",
           .auth = "bearer",
           .access = http::members("leitura em cada tabela da consulta (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Como preview, e executa a consulta com valores vinculados (não o texto) "
                      "numa transação somente leitura "
                      "com tempo limite de 5 s: responde {sql, tabela, colunas, limite, registros, "
                      "total_retornado}; no máximo "
                      "1000 linhas; geometrias em GeoJSON (lon/lat).",
           .body = {.description = query_body},
           .handler = service::scoped(&preview_and_run)});
  srv.add({.method = "GET",
           .pattern = "/explorer/{municipio}/{camada}",
           .auth = "bearer",
           .access = http::reads("{camada}"),
           .tag = tag,
           .summary = "Lista paginada dos registros da camada: {camada, total, pagina, limite, "
                      "registros} com geometrias em "
                      "GeoJSON; filtros campo=valor e sort como nas demais listas. Camada "
                      "desconhecida → 404.",
           .params = with_paging(),
           .handler = service::scoped(&list)});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/{camada}",
           .auth = "bearer",
           .access = http::writes("{camada}"),
           .tag = tag,
           .summary = "Cria um registro da camada (campos da tabela; geometria GeoJSON em lon/lat) com "
                      "auditoria; responde 201 "
                      "com o registro.",
           .body = {.description = "objeto de campos ou Feature GeoJSON"},
           .handler = service::scoped(&create)});
  srv.add({.method = "PUT",
           .pattern = "/explorer/{municipio}/{camada}/{id}",
           .auth = "bearer",
           .access = http::writes("{camada}"),
           .tag = tag,
           .summary = "Altera os campos enviados do registro {id}; 404 se não existe.",
           .body = {.description = "campos a alterar"},
           .handler = service::scoped(&update)});
  srv.add({.method = "DELETE",
           .pattern = "/explorer/{municipio}/{camada}/{id}",
           .auth = "bearer",
           .access = http::writes("{camada}"),
           .tag = tag,
           .summary = "Exclui o registro {id} e suas relações principais (como em /crud); 404 se "
                      "não existe.",
           .handler = service::scoped(&remove)});
  srv.add({.method = "GET",
           .pattern = "/explorer/{municipio}/relatorios",
           .auth = "bearer",
           .access = http::reads("explorer"),
           .tag = tag,
           .summary = "Lista paginada dos relatórios salvos: {camada: relatorios, total, pagina, limite, "
                      "registros: [{id, nome, titulo, consulta, criado_em, criado_por, atualizado_em}]}.",
           .params = with_paging(),
           .handler = service::scoped(&list_saved)});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/relatorios",
           .auth = "bearer",
           .access = http::writes("explorer"),
           .tag = tag,
           .summary = "Salva um relatório {nome, titulo?, consulta} com auditoria; a consulta é "
                      "verificada contra o catálogo e exige leitura na sua tabela. Nome repetido → 409; "
                      "responde 201 com o relatório.",
           .body = {.description = report_body},
           .handler = service::scoped(&create_saved)});
  srv.add({.method = "PUT",
           .pattern = "/explorer/{municipio}/relatorios/{id}",
           .auth = "bearer",
           .access = http::writes("explorer"),
           .tag = tag,
           .summary = "Altera nome, titulo ou consulta do relatório {id}; 404 se não existe, 409 "
                      "para nome repetido.",
           .body = {.description = "{nome?, titulo?, consulta?}"},
           .handler = service::scoped(&update_saved)});
  srv.add({.method = "DELETE",
           .pattern = "/explorer/{municipio}/relatorios/{id}",
           .auth = "bearer",
           .access = http::writes("explorer"),
           .tag = tag,
           .summary = "Exclui o relatório {id} com auditoria; 404 se não existe.",
           .handler = service::scoped(&delete_saved)});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/report/{id}/export-excel",
           .auth = "bearer",
           .access = http::reads("explorer"),
           .tag = tag,
           .summary = "Executa o relatório salvo {id} (somente leitura, até 10.000 linhas) e "
                      "devolve uma planilha .xlsx com "
                      "título, cabeçalho e as linhas (anexo). Relatório inexistente → 404; id não "
                      "inteiro → 400; a tabela do relatório exige leitura.",
           .answers = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
           .handler = service::scoped([](const Scope& s, Request& r) { return export_report(s, r, FileFormat::xlsx); })});
  srv.add({.method = "POST",
           .pattern = "/explorer/{municipio}/report/{id}/export-pdf",
           .auth = "bearer",
           .access = http::reads("explorer"),
           .tag = tag,
           .summary = "Como export-excel, em PDF (A4 paisagem): título, cabeçalho repetido em cada "
                      "página e as linhas.",
           .answers = "application/pdf",
           .handler = service::scoped([](const Scope& s, Request& r) { return export_report(s, r, FileFormat::pdf); })});
}

}  // namespace cadastre::server
