// Geometries: the features of a project's layers, in SIRGAS 2000 lon/lat (EPSG:4674).
// Reads need leitura on the layer or geometry the route names; writes edicao. Every write
// is one transaction (store.hpp): checked by the database (GEOS validity, with its reason
// in the 400; the layer's geometry type), optimistic on the version the client read (a
// stale one → 409 with versaoAtual, never a lost update), audited in
// projeto.geometrias_auditoria and bumping the layer's tile generation. After the commit
// each geometry written is announced on the live socket ("geometria_alterada": layer, id,
// version, generation and the z12–z16 tiles its boxes before and after cover), so an open
// map refetches exactly those tiles; only to the sessions that may see the layer.
//
// POST /geometrias and offline criar items may carry the geometry's "valores" (the list
// POST /v2/valores takes): the values area checks and writes them in the geometry's own
// transaction (values::write_batch_in), so both go in or neither does; edicao on the layer
// covers both. A geometry written with values is announced as "valor_alterado" too.
//
// Bounds: lists are paged (pageSize at most 1000); the searches around a point answer at
// most 1000 geometries; batches take at most 1000 ids (500 offline items).
#include <map>
#include <set>

#include "cadastre/bbox.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "cadastre/tiles.hpp"
#include "platform/app.hpp"
#include "platform/geometries/input.hpp"
#include "platform/geometries/store.hpp"
#include "platform/guard/guard.hpp"
#include "platform/layers/events.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::geometries::handlers {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Geometrias";
// The zooms whose tiles an event names; a geometry covering more than kMaxTiles tiles at a
// zoom is announced at the zooms below it only (clients refetch those, which cover it).
constexpr int kMinZoom = 12, kMaxZoom = 16;
constexpr std::size_t kMaxTiles = 256;

std::string tiles_json(const Touched& t) {
  std::set<tiles::Tile> seen;
  for (int z = kMinZoom; z <= kMaxZoom; ++z) {
    std::set<tiles::Tile> at_zoom;
    try {
      for (const auto& b : t.boxes)
        for (const tiles::Tile& tile : tiles::tiles_covering_bbox({b[0], b[1], b[2], b[3]}, z, kMaxTiles))
          at_zoom.insert(tile);
    } catch (const Error&) {
      break;  // too many at this zoom: the lower zooms stand for it
    }
    if (at_zoom.size() > kMaxTiles) break;
    seen.insert(at_zoom.begin(), at_zoom.end());
  }
  JsonWriter w;
  w.begin_array();
  for (const tiles::Tile& tile : seen)
    w.value(std::to_string(tile.z) + "/" + std::to_string(tile.x) + "/" + std::to_string(tile.y));
  w.end_array();
  return std::move(w).str();
}

// Each event goes only to the sessions whose user may see the layer (layers::Announcer):
// it names the layer, its geometries and the tiles where the edit happened. A write of
// many geometries (a batch, a split, an offline sync) reads each layer's audience once.
void announce(const layers::Announcer& events, const Scope& s, const std::vector<Touched>& touched) {
  std::map<std::int64_t, std::vector<std::int64_t>> audience;  // per layer
  for (const Touched& t : touched) {
    auto [seen, fresh] = audience.try_emplace(t.layer);
    if (fresh) seen->second = events.audience(s, t.layer);
    if (seen->second.empty()) continue;  // nobody to tell (or the audience could not be read)
    JsonWriter w;
    w.begin_object().key("tipo").value("geometria_alterada").key("operacao").value(t.operacao);
    w.key("idCamada").value(t.layer).key("idGeometria").value(t.id).key("versao");
    if (t.versao) w.value(*t.versao);
    else w.null();
    w.key("geracao").value(generation(*s.db, t.layer)).key("tiles").raw(tiles_json(t)).end_object();
    events.send(s, "geometria_alterada", std::move(w).str(), seen->second);
    if (!t.valores) continue;
    // The values area's event of a value write (values/routes.cpp), same members.
    JsonWriter v;
    v.begin_object().key("tipo").value("valor_alterado").key("idCamada").value(t.layer);
    v.key("idGeometria").value(t.id).key("geracao").value(generation(*s.db, t.layer)).end_object();
    events.send(s, "valor_alterado", std::move(v).str(), seen->second);
  }
}

// 400 in the error shape naming each refused value, with the report per field as
// POST /v2/valores gives it: neither the geometry nor any value was written.
Response values_refused(const ValuesRefused& e) {
  return Response::json(http::error_body(errc::invalid_argument,
                                         "nenhuma geometria gravada: valores recusados: " + e.fields_text(),
                                         [&](JsonWriter& w) {
                                           w.key("campos").begin_array();
                                           for (const values::Problem& p : e.problems)
                                             w.begin_object().key("idCampo").value(p.campo).key("chave").value(p.chave)
                                                 .key("motivo").value(p.motivo).end_object();
                                           w.end_array();
                                         }),
                        400);
}

// 409 in the error shape, with the version the geometry is at (null: deleted).
Response stale(const Stale& e) {
  return Response::json(http::error_body(errc::conflict,
                                         "a geometria " + std::to_string(e.id) +
                                             " foi alterada por outra edição: releia-a e refaça a sua",
                                         [&](JsonWriter& w) {
                                           w.key("idGeometria").value(e.id).key("versaoAtual");
                                           if (e.current) w.value(e.current);
                                           else w.null();
                                         }),
                        409);
}

// Runs a write, announces what it touched and answers its JSON (or 204 when none).
template <typename F>
Response write(const layers::Announcer& events, const Scope& s, int status, F&& fn) {
  try {
    Written w = fn();
    announce(events, s, w.touched);
    if (w.json.empty()) return Response::no_content();
    return Response::json(std::move(w.json), status);
  } catch (const Stale& e) {
    return stale(e);
  } catch (const ValuesRefused& e) {
    return values_refused(e);
  }
}

Response list(const Scope& s, Request& req) {
  auto bbox = parse_bbox(req);
  Page page = parse_page(req, "id");
  return Response::json(page_json(geometries::list(*s.db, s.grant().id, bbox, page), page));
}

Response read(const Scope& s, Request&) { return Response::json(one(*s.db, s.grant().id)); }

Response of_layer(const Scope& s, Request& req) {
  auto bbox = parse_bbox(req);
  Page page = parse_page(req, "id");
  return Response::text(feature_collection(*s.db, s.grant().id, bbox, page), "application/geo+json");
}

Response create(const layers::Announcer& events, const Scope& s, Request& req) {
  NewGeometry g = parse_new(req.body);
  const service::Grant& layer = s.grant();
  if (g.vinculo) {
    service::Grant link = guard::require(s, "geometria", *g.vinculo, "leitura", "vinculoId");
    if (link.project_id != layer.project_id)
      throw Error(errc::invalid_argument, "vinculoId deve ser uma geometria do mesmo projeto", "vinculoId");
  }
  return write(events, s, 201, [&] { return geometries::create(*s.db, s.user.user_id, layer.id, g); });
}

Response change(const layers::Announcer& events, const Scope& s, Request& req) {
  Change c = parse_change(req);
  return write(events, s, 200, [&] { return geometries::change(*s.db, s.user.user_id, s.grant().id, c); });
}

Response remove(const layers::Announcer& events, const Scope& s, Request& req) {
  std::int64_t versao = parse_version(req);
  return write(events, s, 204, [&] { return geometries::remove(*s.db, s.user.user_id, s.grant().id, versao); });
}

Response unite(const layers::Announcer& events, const Scope& s, Request& req) {
  Union order = parse_union(req.body);
  for (std::int64_t id : order.ids) guard::require(s, "geometria", id, "edicao", "ids");
  return write(events, s, 200, [&] { return geometries::unite(*s.db, s.user.user_id, order); });
}

Response remove_many(const layers::Announcer& events, const Scope& s, Request& req) {
  Union order = parse_delete_many(req.body);
  for (std::int64_t id : order.ids) guard::require(s, "geometria", id, "edicao", "ids");
  return write(events, s, 204, [&] { return geometries::remove_many(*s.db, s.user.user_id, order); });
}

Response split(const layers::Announcer& events, const Scope& s, Request& req) {
  Split order = parse_split(req.body);
  bool reshape = false;
  if (auto r = req.query_value("reshape")) {
    if (*r != "true" && *r != "false") throw Error(errc::invalid_argument, "reshape deve ser true ou false", "reshape");
    reshape = *r == "true";
  }
  return write(events, s, 200, [&] { return geometries::split(*s.db, s.user.user_id, s.grant().id, order, reshape); });
}

Response intersect(const Scope& s, Request& req) {
  Intersect order = parse_intersect(req);
  for (std::int64_t id : order.ids) guard::require(s, "geometria", id, "leitura", "ids");
  return Response::json(intersecting(*s.db, order.ids, order.wkt));
}

Response radius(const Scope& s, Request& req) {
  return Response::json(within_radius(*s.db, s.grant().id, parse_around(req, true)));
}
Response point(const Scope& s, Request& req) {
  return Response::json(at_point(*s.db, s.grant().id, parse_around(req, false)));
}
Response square(const Scope& s, Request& req) {
  return Response::json(within_square(*s.db, s.grant().id, parse_around(req, true)));
}

Response offline(const layers::Announcer& events, const Scope& s, Request& req) {
  std::vector<OfflineItem> items = parse_offline(req.body);
  // Items recorded before are answered from the record (their geometry may be gone by
  // now); the others need edicao on what they name.
  OfflineReport r = apply_offline(*s.db, s.user.user_id, items, [&](const OfflineItem& item) {
    if (item.operacao == "criar") guard::require(s, "camada", item.camada, "edicao", "idCamada");
    else guard::require(s, "geometria", item.id, "edicao", "id");
  });
  if (r.failed) {
    // The error shape with the per-item report: nothing of this batch was applied.
    return Response::json(http::error_body(errc::invalid_argument,
                                           "lote recusado: um item não pôde ser aplicado e nada foi gravado",
                                           [&](JsonWriter& w) { w.key("relatorio").raw(r.json); }),
                          400);
  }
  announce(events, s, r.touched);
  return Response::json(std::move(r.json));
}

// The destination form, named by the path beside the route's own record (the geometry):
// the guard's refusals are re-worded to name it, so they are not read as the route's.
service::Grant destination_form(const Scope& s, std::int64_t form) {
  const std::string field = "idFormularioDestino";
  try {
    return guard::require(s, "formulario", form, "edicao", field);
  } catch (const Error& e) {
    if (e.code() == errc::not_found) throw Error(errc::not_found, "formulário destino desconhecido", field);
    if (e.code() == errc::forbidden)
      throw Error(errc::forbidden, "sem direito de edição na camada do formulário destino", field);
    if (e.code() == errc::invalid_transition)
      throw Error(errc::invalid_transition, "o formulário destino não aceita edição (inativo)", field);
    throw;
  }
}

Response copy_geometry(const layers::Announcer& events, const Scope& s, Request& req) {
  const std::string& form_text = req.param("idFormularioDestino");
  std::int64_t form = query::parse_integer(form_text, "idFormularioDestino", 1, INT64_MAX);
  service::Grant dest = destination_form(s, form);
  std::vector<std::int64_t> ids{s.grant().id};
  return write(events, s, 201, [&] { return copy_into(*s.db, s.user.user_id, ids, dest.layer_id, form); });
}

Response copy_samples(const layers::Announcer& events, const Scope& s, Request& req) {
  std::vector<std::int64_t> ids = parse_samples(req.body);
  for (std::int64_t id : ids) {
    service::Grant g = guard::require(s, "geometria", id, "leitura", "ids");
    if (g.layer_id == s.grant().id)
      throw Error(errc::invalid_argument, "as amostras devem ser de outra camada: " + std::to_string(id), "ids");
  }
  return write(events, s, 201, [&] { return copy_into(*s.db, s.user.user_id, ids, s.grant().id, 0); });
}

Response copy_values(const layers::Announcer& events, const Scope& s, Request& req) {
  CopyValues order = parse_copy_values(req.body);
  guard::require(s, "camada", order.origem, "leitura", "origem");
  if (order.origem == s.grant().id) throw Error(errc::invalid_argument, "origem deve ser outra camada", "origem");
  return write(events, s, 200, [&] { return geometries::copy_values(*s.db, s.user.user_id, s.grant().id, order); });
}

Response thematic(const layers::Announcer& events, const Scope& s, Request& req) {
  std::int64_t campo = parse_thematic(req.body);
  return write(events, s, 200, [&] { return geometries::thematic(*s.db, s.user.user_id, s.grant().id, campo); });
}

http::Param id_param(std::string name, std::string description, bool required = false) {
  return {.name = std::move(name), .type = "integer", .required = required, .description = std::move(description)};
}
http::Param number_param(std::string name, std::string description, bool required = true) {
  return {.name = std::move(name), .type = "number", .required = required, .description = std::move(description)};
}

}  // namespace
}  // namespace cadastre::platform::geometries::handlers

namespace cadastre::platform {

void add_geometry_routes(App& app) {
  using namespace geometries::handlers;
  using http::on;
  auto& srv = app.server();
  auto events = std::make_shared<const layers::Announcer>(app.platform());
  const std::string geometry = schemas::ref("Geometria");
  const http::Param bbox{.name = "bbox", .description = "minLon,minLat,maxLon,maxLat (SIRGAS 2000)"};
  const http::Param x = number_param("x", "longitude (SIRGAS 2000)"), y = number_param("y", "latitude (SIRGAS 2000)");
  const http::Param layer = id_param("idCamada", "a camada", true);
  std::vector<http::Param> list_params = page_params({"id"});
  list_params.push_back(layer);
  list_params.push_back(bbox);
  std::vector<http::Param> layer_page = page_params({"id"});
  layer_page.push_back(bbox);
  const std::string near = schemas::list_of("Geometria");

  srv.add({.method = "GET", .pattern = "/geometrias", .auth = "sessao", .access = on("camada", "idCamada", "leitura"),
           .tag = kTag, .summary = "Geometrias de uma camada (na caixa bbox, se informada), paginadas",
           .params = list_params, .answer_schema = schemas::page_of("Geometria"), .handler = service::scoped(list)});
  srv.add({.method = "POST", .pattern = "/geometrias", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "edicao"), .tag = kTag,
           .summary = "Cria uma geometria (WKT ou GeoJSON; SIRGAS 2000 salvo srid; validada pelo GEOS e pelo tipo "
                      "da camada; auditada), com os valores do formulário se enviados (uma transação)",
           .body = {.description = R"({"idCamada", "wkt"|"geojson", "srid"?, "vinculoId"?, "valores"?: [{"idCampo", "valor"}...]} )"
                                   "(valores: gravados com a geometria, tudo ou nada; até 500)",
                    .max_bytes = 4 * 1024 * 1024, .schema = schemas::ref("GeometriaNova")},
           .answer_status = 201, .answer_schema = schemas::ref("GeometriaCriada"), .handler = service::scoped(events, create)});
  srv.add({.method = "PUT", .pattern = "/geometrias/uniao", .auth = "sessao", .access = http::members("edição em cada geometria de ids (verificada pelo guarda)"), .tag = kTag,
           .summary = "Une geometrias de uma camada na geometria manter (seus valores ficam; as outras são excluídas), "
                      "cada uma na versão lida (versoes; desatualizada: 409)",
           .body = {.description = R"({"ids": [...], "manter", "versoes": {"id": versão} (de cada id)})",
                    .max_bytes = 64 * 1024, .schema = schemas::ref("GeometriasUniao")},
           .answer_schema = geometry, .handler = service::scoped(events, unite)});
  srv.add({.method = "PUT", .pattern = "/geometrias/deletar", .auth = "sessao", .access = http::members("edição em cada geometria de ids (verificada pelo guarda)"), .tag = kTag,
           .summary = "Exclui várias geometrias: todas ou nenhuma",
           .body = {.description = R"({"ids": [...], "versoes"?: {"id": versão}})", .max_bytes = 64 * 1024,
                    .schema = schemas::ref("GeometriasIds")},
           .answer_status = 204, .handler = service::scoped(events, remove_many)});
  srv.add({.method = "GET", .pattern = "/geometrias/intersect-geom", .auth = "sessao", .access = http::members("leitura em cada geometria de ids (verificada pelo guarda)"), .tag = kTag,
           .summary = "Quais das geometrias intersectam o WKT, com a área da interseção em m²",
           .params = {{.name = "ids", .required = true, .description = "ids separados por vírgula (até 1000)"},
                      {.name = "wkt", .required = true, .description = "a geometria (SIRGAS 2000)"}},
           .answer_schema = R"({"type":"array","items":{"type":"object"}})", .handler = service::scoped(intersect)});
  srv.add({.method = "GET", .pattern = "/geometrias/raio", .auth = "sessao", .access = on("camada", "idCamada", "leitura"),
           .tag = kTag, .summary = "Geometrias a até r metros do ponto (geodésico), da mais próxima; distancia em metros",
           .params = {layer, x, y, number_param("r", "raio em metros (padrão 50, até 5000)", false)},
           .answer_schema = near, .handler = service::scoped(radius)});
  srv.add({.method = "GET", .pattern = "/geometrias/xy", .auth = "sessao", .access = on("camada", "idCamada", "leitura"),
           .tag = kTag, .summary = "Geometrias que contêm o ponto", .params = {layer, x, y}, .answer_schema = near,
           .handler = service::scoped(point)});
  srv.add({.method = "GET", .pattern = "/geometrias/raio-quad", .auth = "sessao",
           .access = on("camada", "idCamada", "leitura"), .tag = kTag,
           .summary = "Geometrias que tocam o quadrado de meio-lado r metros centrado no ponto",
           .params = {layer, x, y, number_param("r", "meio-lado em metros (padrão 50, até 5000)", false)},
           .answer_schema = near, .handler = service::scoped(square)});
  srv.add({.method = "POST", .pattern = "/geometrias/offline", .auth = "sessao", .access = http::members("edição na camada ou geometria de cada item (verificada pelo guarda)"), .tag = kTag,
           .summary = "Aplica um lote de edições feitas offline, em ordem, numa transação; idempotente por idCliente; "
                      "conflitos de versão e valores recusados relatados por item",
           .body = {.description = R"([{"idCliente", "operacao": "criar|alterar|excluir", "idCamada"|"id", "versaoBase", "wkt", "valores"? (criar)}])",
                    .max_bytes = 8 * 1024 * 1024, .schema = schemas::list_of("GeometriaOfflineItem")},
           .answer_schema = schemas::ref("GeometriaOfflineRelatorio"), .handler = service::scoped(events, offline)});
  srv.add({.method = "POST", .pattern = "/geometrias/copiar-geometria/{idGeometria}/{idFormularioDestino}",
           .auth = "sessao", .access = on("geometria", "{idGeometria}", "leitura"), .tag = kTag,
           .summary = "Copia a geometria para a camada do formulário destino, com os valores dos campos de mesma chave",
           .answer_status = 201, .answer_schema = schemas::ref("GeometriasLote"), .handler = service::scoped(events, copy_geometry)});
  srv.add({.method = "POST", .pattern = "/geometrias/copiar-amostras/{idCamada}", .auth = "sessao",
           .access = on("camada", "{idCamada}", "edicao"), .tag = kTag,
           .summary = "Copia geometrias de outras camadas para esta, com os valores dos campos de mesma chave",
           .body = {.description = R"({"ids": [...]})", .max_bytes = 64 * 1024, .schema = schemas::ref("GeometriasAmostras")},
           .answer_status = 201, .answer_schema = schemas::ref("GeometriasLote"), .handler = service::scoped(events, copy_samples)});
  srv.add({.method = "POST", .pattern = "/geometrias/copiar-valores/{idCamada}", .auth = "sessao",
           .access = on("camada", "{idCamada}", "edicao"), .tag = kTag,
           .summary = "Copia para cada geometria da camada os valores da geometria da camada origem que contém seu "
                      "ponto na superfície (campos de mesma chave e tipo); contagens",
           .body = {.description = R"({"origem", "campos"?: [chaves]})", .max_bytes = 64 * 1024,
                    .schema = schemas::ref("CopiaDeValoresPorLocal")},
           .answer_schema = R"({"type":"object"})", .handler = service::scoped(events, copy_values)});
  srv.add({.method = "PUT", .pattern = "/geometrias/{id}", .auth = "sessao", .access = on("geometria", "{id}", "edicao"),
           .tag = kTag, .summary = "Altera a geometria a partir da versão lida (versao ou If-Match; desatualizada: 409)",
           .body = {.description = R"({"wkt"|"geojson", "srid"?, "versao"})", .max_bytes = 4 * 1024 * 1024,
                    .schema = schemas::ref("GeometriaAlteracao")},
           .answer_schema = geometry, .handler = service::scoped(events, change)});
  srv.add({.method = "DELETE", .pattern = "/geometrias/{id}", .auth = "sessao",
           .access = on("geometria", "{id}", "edicao"), .tag = kTag,
           .summary = "Exclui a geometria na versão lida (versao ou If-Match; desatualizada: 409)",
           .params = {id_param("versao", "a versão excluída (ou o cabeçalho If-Match)")}, .answer_status = 204,
           .handler = service::scoped(events, remove)});
  srv.add({.method = "GET", .pattern = "/geometrias/{id}", .auth = "sessao", .access = on("geometria", "{id}", "leitura"),
           .tag = kTag, .summary = "Uma geometria", .answer_schema = geometry, .handler = service::scoped(read)});
  srv.add({.method = "GET", .pattern = "/geometrias/camada/{id}", .auth = "sessao",
           .access = on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "Página da camada como GeoJSON FeatureCollection (RFC 7946): propriedades id, versao e os "
                      "valores por chave; paginada (pageSize padrão 10, até 1000); numberMatched e numberReturned dizem o "
                      "total e a página",
           .params = layer_page, .answer_schema = R"({"type":"object"})", .handler = service::scoped(of_layer)});
  srv.add({.method = "POST", .pattern = "/geometrias/split/{id}", .auth = "sessao",
           .access = on("geometria", "{id}", "edicao"), .tag = kTag,
           .summary = "Divide o polígono pela linha (as partes copiam os valores; a maior mantém o id) ou, com "
                      "reshape=true, remodela-o mantendo só a maior parte; áreas conferidas em m²",
           .params = {{.name = "reshape", .type = "boolean", .description = "true: remodela (mantém a maior parte)",
                       .values = {"true", "false"}}},
           .body = {.description = R"({"linha": WKT, "srid"?, "versao"})", .max_bytes = 1024 * 1024,
                    .schema = schemas::ref("GeometriaDivisao")},
           .answer_schema = R"({"type":"object"})", .handler = service::scoped(events, split)});
  srv.add({.method = "PUT", .pattern = "/geometrias/{id}/indexMapaTematico", .auth = "sessao",
           .access = on("geometria", "{id}", "edicao"), .tag = kTag,
           .summary = "Grava a classe da categorização da camada (camadas.categorias) em que o valor do campo da "
                      "geometria cai: índice em classes, -1 outros, null sem valor",
           .body = {.description = R"({"idCampo"})", .max_bytes = 4 * 1024, .schema = schemas::ref("IndiceMapaTematico")},
           .answer_schema = R"({"type":"object"})", .handler = service::scoped(events, thematic)});
}

}  // namespace cadastre::platform
