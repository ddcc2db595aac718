// /camadasAdicionais: external layers (WMS, XYZ tiles, vector URLs) attached to projects.
// Reading follows the project's visibility; adding and deleting need the project's admin
// role (an inactive project refuses both: the guard's 409).
#include "platform/additional_layers/input.hpp"
#include "platform/additional_layers/store.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::additional_layers {
namespace {

using http::Request;
using http::Response;

Response listed(const service::Scope& s, Request& req) { return Response::json(list(s, parse_project_ids(req), false)); }

Response grouped(const service::Scope& s, Request& req) { return Response::json(list(s, parse_project_ids(req), true)); }

Response add(const service::Scope& s, Request& req) {
  NewLayer n = parse_new_layer(req.body);
  return Response::json(create(s, n), 201);
}

Response erase(const service::Scope& s, Request&) {
  remove(s, s.grant().id);
  return Response::no_content();
}

}  // namespace
}  // namespace cadastre::platform::additional_layers

namespace cadastre::platform {

void add_additional_layer_routes(App& app) {
  using namespace additional_layers;
  constexpr const char* kTag = "Projetos";
  const http::Param ids{.name = "id_projetos",
                        .description = "ids de projetos separados por vírgula (os que o usuário não vê ficam de fora); "
                                       "sem ele: todos os projetos ativos que o usuário vê"};
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/camadasAdicionais", .auth = "sessao", .access = http::members("só as camadas adicionais dos projetos que o usuário vê"), .tag = kTag,
           .summary = "As camadas adicionais (WMS, XYZ, vetor) dos projetos que o usuário vê", .params = {ids},
           .answer_schema = schemas::list_of("CamadaAdicional"), .handler = service::scoped(listed)});
  srv.add({.method = "GET", .pattern = "/camadasAdicionais/v2", .auth = "sessao", .access = http::members("só as camadas adicionais dos projetos que o usuário vê"), .tag = kTag,
           .summary = "As camadas adicionais agrupadas por projeto", .params = {ids},
           .answer_schema = schemas::list_of("CamadasAdicionaisDoProjeto"), .handler = service::scoped(grouped)});
  srv.add({.method = "POST", .pattern = "/camadasAdicionais", .auth = "sessao", .access = http::on("projeto", "corpo.idProjeto", "admin"), .tag = kTag,
           .summary = "Adiciona uma camada externa ao projeto (administradores do projeto); url http(s) sem "
                      "credenciais, xyz com {z}, {x} e {y}, wms com camadas",
           .body = {.description = R"({"idProjeto", "nome", "tipo": "wms"|"xyz"|"vetor", "url", "camadas"?, )"
                                   R"("opcoes"?: {...}, "ordem"?})",
                    .max_bytes = 32768, .schema = schemas::ref("CamadaAdicionalNova")},
           .answer_status = 201, .answer_schema = schemas::ref("CamadaAdicional"), .handler = service::scoped(add)});
  srv.add({.method = "DELETE", .pattern = "/camadasAdicionais/{id}", .auth = "sessao",
           .access = http::on("camada_adicional", "{id}", "admin"), .tag = kTag,
           .summary = "Remove a camada adicional (administradores do projeto)", .answers = "", .answer_status = 204,
           .handler = service::scoped(erase)});
}

}  // namespace cadastre::platform
