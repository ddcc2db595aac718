// Values: the attribute values of platform geometries, one per (geometry, field), typed by
// the field (include/cadastre/field_values.hpp). Reads need leitura on the record the route
// names (GET /valores and the body-named geometries are checked in the handler with the
// same guard); writes need edicao on the geometry, are checked against the field's type
// and rules, audited and recompute the calculated fields (store_write.hpp), and each write
// is announced on the live socket ("valor_alterado": the layer, the geometry, the layer's
// new tile generation) to the sessions that may see the layer, so an open map refreshes
// what changed.
//
// Bounds: GET /valores, /valores/camada/:id/pg and /valores/search are paged (pageSize at
// most 1000); GET /valores/camada/:id answers at most kLayerCap (10,000) values and says
// whether it cut; /valores/projeto/:id and /valores/edificacao/:id at most kGeometryCap
// (1,000) geometries.
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/guard/guard.hpp"
#include "platform/layers/events.hpp"
#include "platform/schemas.hpp"
#include "platform/values/input.hpp"
#include "platform/values/store.hpp"
#include "platform/values/store_write.hpp"

namespace cadastre::platform::values::handlers {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Valores";

std::string problems_json(const std::vector<Problem>& problems) {
  JsonWriter w;
  w.begin_array();
  for (const Problem& p : problems)
    w.begin_object().key("idCampo").value(p.campo).key("chave").value(p.chave).key("motivo").value(p.motivo).end_object();
  w.end_array();
  return std::move(w).str();
}

// Browsers on /socket refresh the geometry's attributes and the layer's tiles (whose
// generation the write bumped in its transaction). Only the sessions that may see the
// layer hear it (layers::Announcer): a private layer's edits stay with its users.
void announce(const layers::Announcer& events, const Scope& s, std::int64_t layer, std::int64_t geometry) {
  std::string generation = s.db->with([&](soci::session& db) { return layer_generation(db, layer); });
  JsonWriter w;
  w.begin_object().key("tipo").value("valor_alterado").key("idCamada").value(layer);
  w.key("idGeometria").value(geometry).key("geracao").raw(generation).end_object();
  events.to_layer(s, layer, "valor_alterado", std::move(w).str());
}

Response list(const Scope& s, Request& req) {
  ListFilter filter = parse_list_filter(req);
  guard::require(s, filter.record, filter.id, "leitura");
  Page page = parse_page(req, "id");
  return Response::json(page_json(values::list(*s.db, filter, page), page));
}

Response create(const layers::Announcer& events, const Scope& s, Request& req) {
  NewValue v = parse_new_value(req.body);
  const service::Grant& g = s.grant();
  std::string out = values::create(*s.db, s.user.user_id, g, v.entry);
  announce(events, s, g.layer_id, g.id);
  return Response::json(std::move(out), 201);
}

Response create_many(const layers::Announcer& events, const Scope& s, Request& req) {
  Batch b = parse_batch(req.body);
  const service::Grant& g = s.grant();
  BatchResult r = write_batch(*s.db, s.user.user_id, g, b.valores);
  if (!r.problems.empty()) {
    // The error shape, with the report of every refused field: nothing was written.
    return Response::json(
        http::error_body(errc::invalid_argument,
                         "nenhum valor gravado: " + std::to_string(r.problems.size()) + " campo(s) recusado(s)",
                         [&](JsonWriter& w) { w.key("campos").raw(problems_json(r.problems)); }),
        400);
  }
  JsonWriter w;
  w.begin_object().key("gravados").value(r.written).key("idGeometria").value(g.id).key("valores").raw(r.values);
  w.end_object();
  announce(events, s, g.layer_id, g.id);
  return Response::json(std::move(w).str());
}

Response change(const layers::Announcer& events, const Scope& s, Request& req) {
  std::string out = values::change(*s.db, s.user.user_id, s.grant(), parse_change(req.body));
  std::int64_t geometry = s.db->with([&](soci::session& db) { return geometry_of_value(db, s.grant().id); });
  announce(events, s, s.grant().layer_id, geometry);
  return Response::json(std::move(out));
}

Response read(const Scope& s, Request&) {
  return Response::json(s.db->with([&](soci::session& db) { return one(db, s.grant().id); }));
}

Response of_geometry(const Scope& s, Request&) {
  return Response::json(s.db->with([&](soci::session& db) { return values::of_geometry(db, s.grant().id); }));
}

Response at_point(const Scope& s, Request& req) {
  return Response::json(values::at_point(s, s.grant().id, parse_point(req)));
}

Response of_layer(const Scope& s, Request& req) {
  return Response::json(values::of_layer(*s.db, s.grant().id, optional_id(req, "idCampo")));
}

Response page_of_layer(const Scope& s, Request& req) {
  Page page = parse_page(req, "id");
  return Response::json(page_json(values::page_of_layer(*s.db, s.grant().id, optional_id(req, "idCampo"), page), page));
}

Response search(const Scope& s, Request& req) {
  std::string termo = parse_term(req);
  SearchField field = text_field(*s.db, s.grant().id);
  // This route's paging is named page/pageSize (the spec's), not pageNumber.
  Page page;
  if (auto n = req.query_value("page")) page.paging.page = query::parse_integer(*n, "page", 1, INT32_MAX);
  if (auto n = req.query_value("pageSize"))
    page.paging.size = query::parse_integer(*n, "pageSize", 1, query::max_page_size);
  page.paging.offset = (page.paging.page - 1) * page.paging.size;
  return Response::json(page_json(values::search(*s.db, field, termo, page), page));
}

Response copy(const layers::Announcer& events, const Scope& s, Request& req) {
  CopyOrder order = parse_copy(req.body);
  service::Grant from = guard::require(s, "geometria", order.origem, "leitura");
  service::Grant to = guard::require(s, "geometria", order.destino, "edicao");
  // A project's data stays in it: reading another project's geometry is no licence to
  // pour its values into this one.
  if (from.project_id != to.project_id)
    throw Error(errc::invalid_argument, "as geometrias de origem e destino devem ser do mesmo projeto",
                "idGeometriaDestino");
  CopyResult r = values::copy(*s.db, s.user.user_id, from, to, order.campos);
  JsonWriter w;
  w.begin_object().key("copiados").value(r.copied).key("idGeometriaOrigem").value(from.id);
  w.key("idGeometriaDestino").value(to.id).key("ignorados").raw(problems_json(r.skipped));
  w.key("valores").raw(r.values).end_object();
  announce(events, s, to.layer_id, to.id);
  return Response::json(std::move(w).str());
}

Response buildings(const Scope& s, Request& req) {
  return Response::json(values::buildings(s, s.grant().id, parse_linked(req)));
}

http::Param id_param(std::string name, std::string description, bool required = false) {
  return {.name = std::move(name), .type = "integer", .required = required, .description = std::move(description)};
}

}  // namespace
}  // namespace cadastre::platform::values::handlers

namespace cadastre::platform {

void add_value_routes(App& app) {
  using namespace values::handlers;
  using http::on;
  auto& srv = app.server();
  auto events = std::make_shared<const layers::Announcer>(app.platform());
  const std::string value = schemas::ref("Valor");
  std::vector<http::Param> list_params = page_params({"id"});
  list_params.push_back(id_param("idGeometria", "os valores de uma geometria"));
  list_params.push_back(id_param("idCampo", "os valores de um campo"));
  list_params.push_back(id_param("idCamada", "os valores de uma camada"));
  // /pg orders by any field of the layer: orderBy is "id" or a field's chave, checked by
  // the handler against the layer.
  std::vector<http::Param> pg_params = page_params({});
  pg_params[2].description = "id ou a chave de um campo da camada (sem valor por último)";
  pg_params.push_back(id_param("idCampo", "só os valores deste campo em cada linha"));

  srv.add({.method = "GET", .pattern = "/valores", .auth = "sessao", .access = http::members("leitura na geometria, no campo ou na camada do filtro (verificada pelo guarda)"), .tag = kTag,
           .summary = "Valores de uma geometria, de um campo ou de uma camada (um dos filtros), paginados",
           .params = list_params, .answer_schema = schemas::page_of("Valor"), .handler = service::scoped(list)});
  srv.add({.method = "POST", .pattern = "/valores", .auth = "sessao", .access = http::on("geometria", "corpo.idGeometria", "edicao"), .tag = kTag,
           .summary = "Cria o valor de um campo em uma geometria (validado pelo tipo e regras do campo; auditado)",
           .body = {.description = R"({"idGeometria", "idCampo", "valor"})", .max_bytes = 256 * 1024,
                    .schema = schemas::ref("ValorNovo")},
           .answer_status = 201, .answer_schema = value, .handler = service::scoped(events, create)});
  srv.add({.method = "POST", .pattern = "/v2/valores", .auth = "sessao", .access = http::on("geometria", "corpo.idGeometria", "edicao"), .tag = kTag,
           .summary = "Grava vários valores de uma geometria de uma vez: tudo ou nada, com o relatório por campo",
           .body = {.description = R"({"idGeometria", "valores": [{"idCampo", "valor"}...]} (até 500))",
                    .max_bytes = 2 * 1024 * 1024, .schema = schemas::ref("ValoresLote")},
           .answer_schema = schemas::ref("ValoresGravados"), .handler = service::scoped(events, create_many)});
  srv.add({.method = "PUT", .pattern = "/valores/{id}", .auth = "sessao", .access = on("valor", "{id}", "edicao"),
           .tag = kTag, .summary = "Altera um valor (validado e auditado)",
           .body = {.description = R"({"valor"})", .max_bytes = 256 * 1024, .schema = schemas::ref("ValorAlteracao")},
           .answer_schema = value, .handler = service::scoped(events, change)});
  srv.add({.method = "GET", .pattern = "/valores/{id}", .auth = "sessao", .access = on("valor", "{id}", "leitura"),
           .tag = kTag, .summary = "Um valor", .answer_schema = value, .handler = service::scoped(read)});
  srv.add({.method = "GET", .pattern = "/valores/geometria/{id}", .auth = "sessao",
           .access = on("geometria", "{id}", "leitura"), .tag = kTag,
           .summary = "Todos os valores de uma geometria, com chave, nome e tipo do campo",
           .answer_schema = schemas::list_of("ValorDeCampo"), .handler = service::scoped(of_geometry)});
  srv.add({.method = "GET", .pattern = "/valores/projeto/{id}", .auth = "sessao",
           .access = on("projeto", "{id}", "leitura"), .tag = kTag,
           .summary = "Valores das geometrias do projeto que contêm o ponto (camadas ativas que o usuário vê; "
                      "até 1000 geometrias), por camada e geometria",
           .params = {{.name = "x", .type = "number", .required = true, .description = "longitude (SIRGAS 2000)"},
                      {.name = "y", .type = "number", .required = true, .description = "latitude (SIRGAS 2000)"}},
           .answer_schema = schemas::list_of("ValoresNoPonto"), .handler = service::scoped(at_point)});
  srv.add({.method = "GET", .pattern = "/valores/camada/{id}", .auth = "sessao",
           .access = on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "Valores de uma camada (ou de um campo dela), até 10.000; truncado diz se há mais "
                      "(leia-os por páginas em /valores/camada/{id}/pg)",
           .params = {id_param("idCampo", "só os valores deste campo")},
           .answer_schema = schemas::ref("ValoresDaCamada"), .handler = service::scoped(of_layer)});
  srv.add({.method = "GET", .pattern = "/valores/camada/{id}/pg", .auth = "sessao",
           .access = on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "Página de geometrias da camada com seus valores por chave, ordenada por id ou por qualquer campo",
           .params = pg_params, .answer_schema = schemas::page_of("LinhaDeValores"),
           .handler = service::scoped(page_of_layer)});
  srv.add({.method = "GET", .pattern = "/valores/search", .auth = "sessao",
           .access = on("campo", "campoId", "leitura"), .tag = kTag,
           .summary = "Busca nos valores de um campo de texto, sem diferenciar acentos e maiúsculas",
           .params = {id_param("campoId", "o campo de texto", true),
                      {.name = "termo", .required = true, .description = "o texto buscado (2 a 200 caracteres)"},
                      {.name = "page", .type = "integer", .description = "página, a partir de 1"},
                      {.name = "pageSize", .type = "integer", .description = "registros por página (padrão 10, no máximo 1000)"}},
           .answer_schema = schemas::page_of("Valor"),
           .handler = service::scoped([heavy = &app.heavy_reads()](const Scope& s, Request& r) {
             auto slot = heavy->enter(s.db);  // an expensive read: the tenant's bulkhead
             return search(s, r);
           })});
  srv.add({.method = "POST", .pattern = "/copiar-valores", .auth = "sessao", .access = http::members("leitura na geometria idGeometriaOrigem e edição em idGeometriaDestino (verificadas pelo guarda)"), .tag = kTag,
           .summary = "Copia os valores de uma geometria para outra da mesma camada, ou de outra camada do projeto "
                      "pelos campos de mesma chave (uma transação; auditado como copiar)",
           .body = {.description = R"({"idGeometriaOrigem", "idGeometriaDestino", "idCampos"?: [...]})",
                    .max_bytes = 64 * 1024, .schema = schemas::ref("CopiaDeValores")},
           .answer_schema = schemas::ref("ValoresCopiados"), .handler = service::scoped(events, copy)});
  srv.add({.method = "GET", .pattern = "/valores/edificacao/{id}", .auth = "sessao",
           .access = on("geometria", "{id}", "leitura"), .tag = kTag,
           .summary = "Edificações de um lote com seus valores: vinculado=true as vinculadas ao lote; false as das "
                      "outras camadas do projeto dentro do lote (ponto na superfície) e não vinculadas a ele",
           .params = {{.name = "vinculado", .type = "boolean", .required = true,
                       .description = "true: vinculadas ao lote; false: dentro do lote, sem vínculo com ele",
                       .values = {"true", "false"}}},
           .answer_schema = schemas::list_of("Edificacao"), .handler = service::scoped(buildings)});
}

}  // namespace cadastre::platform
