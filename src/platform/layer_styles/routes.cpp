// Labels and classes of a layer (POST /camadas/rotular..., /camadas/categorizar...): the
// layer's administrators set them; they are stored with the layer (camadas.rotulo,
// camadas.categorias) and served with it. The label of one geometry (its text, position or
// rotation) is data of that geometry: whoever edits the layer's data may set it. The
// fields named must belong to a form of the layer (400 otherwise). Each write bumps the
// layer's generation, so tiles cached with the old look are refetched, and once committed
// is announced on the live socket ({"tipo":"camada","operacao":"estilo"}, layers/events.hpp).
#include "platform/app.hpp"
#include "cadastre/categories.hpp"
#include "platform/layer_styles/input.hpp"
#include "cadastre/palette.hpp"
#include "platform/layer_styles/store.hpp"
#include "platform/layers/events.hpp"
#include "platform/layers/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::layer_styles {
namespace {

using http::Request;
using http::Response;
using layers::Announcer;

constexpr const char* kTag = "Camadas: rótulos e categorias";

// The layer and field the query names (the guard resolved the layer).
Field named_field(const service::Scope& s, const Request& req) {
  return layer_field(s, s.grant().id, query_id(req, "idCampo"), "idCampo");
}

// A route on a geometry (idGeometria) that also names its layer (idCamada): they must agree.
std::int64_t layer_of_geometry(const service::Scope& s, const Request& req) {
  std::int64_t layer = query_id(req, "idCamada");
  if (layer != s.grant().layer_id)
    throw Error(errc::invalid_argument,
                "idGeometria: a geometria " + std::to_string(s.grant().id) + " não é da camada " + std::to_string(layer),
                "idGeometria");
  return layer;
}

Response label(const Announcer& events, const service::Scope& s, Request& req) {
  std::vector<Field> fields{named_field(s, req)};
  for (std::int64_t id : parse_concat(req)) fields.push_back(layer_field(s, s.grant().id, id, "concat"));
  set_label(s, s.grant().id, fields, parse_separator(req));
  events.changed(s, "estilo", s.grant().id);
  return Response::json(layers::one(s, s.grant().id));
}

Response label_rotation(const Announcer& events, const service::Scope& s, Request& req) {
  set_label_rotation(s, s.grant().id, named_field(s, req));
  events.changed(s, "estilo", s.grant().id);
  return Response::json(layers::one(s, s.grant().id));
}

Response geometry_label(const Announcer& events, const service::Scope& s, Request& req) {
  GeometryLabel l = parse_geometry_label(req.body);
  set_geometry_label(s, s.grant().layer_id, s.grant().id, l);
  events.changed(s, "estilo", s.grant().layer_id, {}, s.grant().id);
  return Response::json(geometry_label_json(s, s.grant().id));
}

Response geometry_label_rotation(const Announcer& events, const service::Scope& s, Request& req) {
  std::int64_t layer = layer_of_geometry(s, req);
  Field f = layer_field(s, layer, query_id(req, "idCampo"), "idCampo");
  set_geometry_label_rotation(s, layer, s.grant().id, f);
  events.changed(s, "estilo", layer, {}, s.grant().id);
  return Response::json(geometry_label_json(s, s.grant().id));
}

Response categorize_layer(const Announcer& events, const service::Scope& s, Request& req) {
  categorize(s, s.grant().id, named_field(s, req), parse_intervals(req), parse_ramp(req));
  events.changed(s, "estilo", s.grant().id);
  return Response::json(layers::one(s, s.grant().id));
}

// The stored classes of that field serve as they are, unless atualizar=true or there are
// none: then they are computed (and stored) first, which is announced.
Response categorize_front(const Announcer& events, const service::Scope& s, Request& req) {
  std::int64_t layer = s.grant().id;
  Field f = named_field(s, req);
  Stored stored = stored_classes(s, layer);
  std::optional<categories::Classes> c;
  if (stored.categorias && req.query_value("atualizar").value_or("false") != "true") {
    categories::Classes kept = categories::from_json(*stored.categorias);
    if (kept.campo == f.id) c = std::move(kept);
  }
  if (!c) {
    c = categorize(s, layer, f, parse_intervals(req), parse_ramp(req));
    events.changed(s, "estilo", layer);
  }
  return Response::json(categories::front_json(*c, layer, stored.geometria));
}

}  // namespace
}  // namespace cadastre::platform::layer_styles

namespace cadastre::platform {

void add_layer_style_routes(App& app) {
  using namespace layer_styles;
  auto events = std::make_shared<const layers::Announcer>(app.platform());
  const http::Param camada{.name = "idCamada", .type = "integer", .required = true, .description = "a camada"};
  const http::Param campo{.name = "idCampo", .type = "integer", .required = true,
                          .description = "um campo de um formulário da camada"};
  const http::Param geometria{.name = "idGeometria", .type = "integer", .required = true, .description = "a geometria"};
  const http::Param classes{.name = "classes", .type = "integer",
                            .description = "campos numéricos: número de intervalos iguais (2 a 20, padrão 5)"};
  const http::Param paleta{.name = "paleta", .description = "campos numéricos: a rampa de cores (padrão calor)",
                           .values = palette::ramp_names()};
  auto& srv = app.server();
  srv.add({.method = "POST", .pattern = "/camadas/rotular", .auth = "sessao",
           .access = http::on("camada", "idCamada", "admin"), .tag = kTag,
           .summary = "Rotula a camada com um campo, ou com vários concatenados (concat)",
           .params = {camada, campo,
                      {.name = "concat", .description = "ids de mais campos, separados por vírgula (até 9)"},
                      {.name = "separador", .description = "o que separa os campos concatenados (padrão espaço)"}},
           .answer_schema = schemas::ref("Camada"), .handler = service::scoped(events, label)});
  srv.add({.method = "POST", .pattern = "/camadas/rotular/rotacao", .auth = "sessao",
           .access = http::on("camada", "idCamada", "admin"), .tag = kTag,
           .summary = "Gira os rótulos da camada pelo valor de um campo numérico (graus)", .params = {camada, campo},
           .answer_schema = schemas::ref("Camada"), .handler = service::scoped(events, label_rotation)});
  srv.add({.method = "POST", .pattern = "/camadas/rotulargeometria", .auth = "sessao",
           .access = http::on("geometria", "idGeometria", "edicao"), .tag = kTag,
           .summary = "O rótulo de uma geometria: texto, posição ou rotação próprios (null volta à regra da camada)",
           .params = {geometria},
           .body = {.description = R"({"texto"?: string|null, "posicao"?: [lon, lat]|null, "rotacao"?: graus|null})",
                    .max_bytes = 4096, .schema = schemas::ref("RotuloGeometriaCampos")},
           .answer_schema = schemas::ref("RotuloGeometria"), .handler = service::scoped(events, geometry_label)});
  srv.add({.method = "POST", .pattern = "/camadas/rotulargeometria/rotacao", .auth = "sessao",
           .access = http::on("geometria", "idGeometria", "edicao"), .tag = kTag,
           .summary = "Gira o rótulo de uma geometria pelo seu valor de um campo numérico",
           .params = {camada, campo, geometria}, .answer_schema = schemas::ref("RotuloGeometria"),
           .handler = service::scoped(events, geometry_label_rotation)});
  srv.add({.method = "POST", .pattern = "/camadas/categorizar", .auth = "sessao",
           .access = http::on("camada", "idCamada", "admin"), .tag = kTag,
           .summary = "Classes de cores por um campo: valores distintos (texto, lista, booleano) ou intervalos "
                      "iguais (números), com a contagem de cada uma; guardadas com a camada",
           .params = {camada, campo, classes, paleta}, .answer_schema = schemas::ref("Camada"),
           .handler = service::scoped(events, categorize_layer)});
  srv.add({.method = "POST", .pattern = "/camadas/categorizarFront", .auth = "sessao",
           .access = http::on("camada", "idCamada", "admin"), .tag = kTag,
           .summary = "As classes do campo como expressão MapLibre (match/step), pintura e legenda; "
                      "atualizar=true as recalcula",
           .params = {camada, campo,
                      {.name = "atualizar", .type = "boolean", .description = "recalcula as classes guardadas",
                       .values = {"true", "false"}},
                      classes, paleta},
           .answer_schema = schemas::ref("CategoriasFront"), .handler = service::scoped(events, categorize_front)});
}

}  // namespace cadastre::platform
