// Layer reports (/relatorios-de-camada): a saved choice of a layer's fields, a filter (the
// conditions of POST /pesquisa-caracteristicas) and an optional grouping field. Reading
// needs the leitura role on the layer, saving and deleting edicao (a read-only share gets
// 403, an inactive layer or project 409). GET /relatorios-de-camada/:id answers the
// definition, or with ?formato=pdf|xlsx the report itself from the current values.
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/layer_reports/input.hpp"
#include "platform/layer_reports/render.hpp"
#include "platform/layer_reports/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::layer_reports {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Relatórios de camada";

Response listed(const Scope& s, Request& req) {
  std::optional<std::int64_t> camada;
  if (auto v = req.query_value("idCamada"); v && !v->empty()) camada = query::parse_integer(*v, "idCamada", 1, INT64_MAX);
  Page page = parse_page(req, "id");
  return Response::json(page_json(list(s, camada, page), page));
}

Response created(const Scope& s, Request& req) {
  ReportFields f = parse_report(req.body, true);
  check(*s.db, *f.camada, f);
  return Response::json(create(*s.db, s.user.user_id, f), 201);
}

Response shown(const Scope& s, Request& req) {
  std::int64_t id = s.grant().id;
  Format format = parse_format(req);
  Stored stored = load(*s.db, id);
  if (format == Format::json) return Response::json(read(*s.db, id));
  auto cols = columns(*s.db, stored.camada, stored.campos);
  std::optional<Column> group;
  if (stored.agrupamento)
    if (auto g = columns(*s.db, stored.camada, {*stored.agrupamento}); !g.empty()) group = g.front();
  auto rows = search::rows(*s.db, parse_filters(stored.camada, stored.filtros_json), fields(cols, group), kMaxRows);
  Rendered r = render(stored, cols, group, rows);
  bool sheet = format == Format::xlsx;
  auto answer = Response::text(sheet ? xlsx(r) : pdf(stored, r),
                               sheet ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" : "application/pdf");
  answer.headers.set("Content-Disposition", report::content_disposition(stored.nome, id, sheet ? ".xlsx" : ".pdf"));
  return answer;
}

Response changed(const Scope& s, Request& req) {
  std::int64_t id = s.grant().id;
  Stored stored = load(*s.db, id);
  ReportFields f = parse_report(req.body, false);
  if (f.filtros) f.filtros->camada = stored.camada;
  check(*s.db, stored.camada, f);
  return Response::json(update(*s.db, id, f));
}

Response erased(const Scope& s, Request&) {
  remove(*s.db, s.grant().id);
  return Response::no_content();
}

}  // namespace
}  // namespace cadastre::platform::layer_reports

namespace cadastre::platform {

void add_layer_report_routes(App& app) {
  using namespace layer_reports;
  auto& srv = app.server();
  std::vector<http::Param> list = page_params({"id", "nome", "atualizadoEm"});
  list.push_back({.name = "idCamada", .type = "integer", .description = "só os relatórios desta camada"});
  srv.add({.method = "GET", .pattern = "/relatorios-de-camada", .auth = "sessao",
           .access = http::members("só os relatórios das camadas que o usuário vê"), .tag = kTag,
           .summary = "Os relatórios das camadas que o usuário vê, paginados", .params = list,
           .answer_schema = schemas::page_of("RelatorioCamada"), .handler = service::scoped(listed)});
  srv.add({.method = "POST", .pattern = "/relatorios-de-camada", .auth = "sessao",
           .access = http::on("camada", "corpo.idCamada", "edicao"), .tag = kTag,
           .summary = "Salva um relatório da camada (papel edicao na camada): campos, filtros como os de "
                      "/pesquisa-caracteristicas e agrupamento",
           .body = {.description = R"({"idCamada", "nome", "descricao"?, "campos": [idCampo...] (1 a 50), )"
                                   R"("filtros"?: {"condicoes": [{"idCampo", "operador", "valor"?}...], "todas"?}, )"
                                   R"("agrupamento"?: idCampo})",
                    .max_bytes = 65536, .schema = schemas::ref("RelatorioCamadaNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("RelatorioCamada"), .handler = service::scoped(created)});
  srv.add({.method = "GET", .pattern = "/relatorios-de-camada/{id}", .auth = "sessao",
           .access = http::on("relatorio_camada", "{id}", "leitura"), .tag = kTag,
           .summary = "O relatório (quem lê a camada): a definição em JSON, ou com formato=pdf|xlsx o relatório "
                      "com os valores atuais (até 5000 geometrias; agrupado: resumo por grupo com contagem e somas)",
           .params = {{.name = "formato", .description = "json (padrão), pdf ou xlsx", .values = {"json", "pdf", "xlsx"}}},
           .answer_schema = schemas::ref("RelatorioCamada"),
           .handler = service::scoped([heavy = &app.heavy_reads()](const Scope& s, Request& r) {
             auto slot = heavy->enter(s.db);  // a rendered report reads up to 5000 geometries: the tenant's bulkhead
             return shown(s, r);
           })});
  srv.add({.method = "PUT", .pattern = "/relatorios-de-camada/{id}", .auth = "sessao",
           .access = http::on("relatorio_camada", "{id}", "edicao"), .tag = kTag,
           .summary = "Altera os campos informados do relatório (papel edicao na camada); agrupamento null o remove",
           .body = {.description = "os campos de POST, menos idCamada", .max_bytes = 65536,
                    .schema = schemas::ref("RelatorioCamadaAlteracao")},
           .answer_schema = schemas::ref("RelatorioCamada"), .handler = service::scoped(changed)});
  srv.add({.method = "DELETE", .pattern = "/relatorios-de-camada/{id}", .auth = "sessao",
           .access = http::on("relatorio_camada", "{id}", "edicao"), .tag = kTag,
           .summary = "Remove o relatório (papel edicao na camada)", .answers = "", .answer_status = 204,
           .handler = service::scoped(erased)});
}

}  // namespace cadastre::platform
