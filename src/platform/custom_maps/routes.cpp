// Custom maps (/mapas-personalizados): saved views of a project — its layers in drawing
// order with visibility, opacity and style, the extent and the base map. A map belongs to
// its project: whoever sees the project reads its maps; saving, changing and deleting need
// the edicao role on the project (a read-only share gets 403, an inactive project 409).
// Each layer a map shows must be a layer of that project the caller may read.
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/custom_maps/input.hpp"
#include "platform/custom_maps/store.hpp"
#include "platform/guard/guard.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::custom_maps {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Mapas personalizados";

// The layers must be the project's and readable by the caller (404 for one it cannot see).
void check_layers(const Scope& s, std::int64_t projeto, const std::vector<MapLayer>& layers) {
  for (const auto& l : layers) {
    auto grant = guard::require(s, "camada", l.camada, "leitura", "idCamada");
    if (grant.project_id != projeto)
      throw Error(errc::invalid_argument,
                  "camadas: a camada " + std::to_string(l.camada) + " não é do projeto " + std::to_string(projeto),
                  "camadas");
  }
}

Response listed(const Scope& s, Request& req) {
  std::optional<std::int64_t> projeto;
  if (auto v = req.query_value("idProjeto"); v && !v->empty())
    projeto = query::parse_integer(*v, "idProjeto", 1, INT64_MAX);
  Page page = parse_page(req, "id");
  return Response::json(page_json(list(s, projeto, page), page));
}

Response created(const Scope& s, Request& req) {
  MapFields f = parse_map(req.body, true);
  check_layers(s, *f.projeto, *f.camadas);
  return Response::json(create(*s.db, s.user.user_id, f), 201);
}

Response shown(const Scope& s, Request&) {
  return Response::json(read(*s.db, s.grant().id));
}

Response changed(const Scope& s, Request& req) {
  MapFields f = parse_map(req.body, false);
  if (f.camadas) check_layers(s, s.grant().project_id, *f.camadas);
  return Response::json(update(*s.db, s.grant().id, f));
}

Response erased(const Scope& s, Request&) {
  remove(*s.db, s.grant().id);
  return Response::no_content();
}

}  // namespace
}  // namespace cadastre::platform::custom_maps

namespace cadastre::platform {

void add_custom_map_routes(App& app) {
  using namespace custom_maps;
  auto& srv = app.server();
  const std::string body =
      R"({"idProjeto", "nome", "descricao"?, "camadas": [{"idCamada", "ordem"?, "visivel"?, "opacidade"? (0 a 1), )"
      R"("estilo"?: {...}}] (1 a 100), "extensao"?: [minx, miny, maxx, maxy] (graus SIRGAS 2000), "idMapaBase"?})";
  std::vector<http::Param> list = page_params({"id", "nome", "atualizadoEm"});
  list.push_back({.name = "idProjeto", .type = "integer", .description = "só os mapas deste projeto"});
  srv.add({.method = "GET", .pattern = "/mapas-personalizados", .auth = "sessao",
           .access = http::members("só os mapas dos projetos que o usuário vê"), .tag = kTag,
           .summary = "Os mapas personalizados dos projetos que o usuário vê, paginados",
           .params = list, .answer_schema = schemas::page_of("MapaPersonalizado"), .handler = service::scoped(listed)});
  srv.add({.method = "POST", .pattern = "/mapas-personalizados", .auth = "sessao",
           .access = http::on("projeto", "corpo.idProjeto", "edicao"), .tag = kTag,
           .summary = "Salva um mapa personalizado do projeto (papel edicao no projeto; camadas do projeto que o "
                      "usuário lê)",
           .body = {.description = body, .max_bytes = 262144, .schema = schemas::ref("MapaPersonalizadoNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("MapaPersonalizado"), .handler = service::scoped(created)});
  srv.add({.method = "GET", .pattern = "/mapas-personalizados/{id}", .auth = "sessao",
           .access = http::on("mapa_personalizado", "{id}", "leitura"), .tag = kTag,
           .summary = "Um mapa personalizado (quem vê o projeto)",
           .answer_schema = schemas::ref("MapaPersonalizado"), .handler = service::scoped(shown)});
  srv.add({.method = "PUT", .pattern = "/mapas-personalizados/{id}", .auth = "sessao",
           .access = http::on("mapa_personalizado", "{id}", "edicao"), .tag = kTag,
           .summary = "Altera os campos informados do mapa (papel edicao no projeto); extensao e idMapaBase null "
                      "os limpam",
           .body = {.description = "os campos de POST, menos idProjeto", .max_bytes = 262144,
                    .schema = schemas::ref("MapaPersonalizadoAlteracao")},
           .answer_schema = schemas::ref("MapaPersonalizado"), .handler = service::scoped(changed)});
  srv.add({.method = "DELETE", .pattern = "/mapas-personalizados/{id}", .auth = "sessao",
           .access = http::on("mapa_personalizado", "{id}", "edicao"), .tag = kTag,
           .summary = "Remove o mapa personalizado (papel edicao no projeto)", .answers = "",
           .answer_status = 204, .handler = service::scoped(erased)});
}

}  // namespace cadastre::platform
