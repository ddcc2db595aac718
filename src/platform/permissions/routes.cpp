// /permissoes: what the caller may do on the tenant's projects and layers, and (for a
// project's administrators) who may do what on a project. The answers come from the
// guard's own rule set (platform/guard.hpp), so they never disagree with what the routes
// then allow: a "pode" that says true is a route that answers.
#include "platform/app.hpp"
#include "platform/permissions/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::permissions {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Permissões";

}  // namespace
}  // namespace cadastre::platform::permissions

namespace cadastre::platform {

void add_permission_routes(App& app) {
  using namespace permissions;
  using service::Scope;
  store::Pool* platform = &app.platform();
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/permissoes/projetos", .auth = "sessao", .access = http::members("o papel do próprio usuário em cada projeto que ele vê"), .tag = kTag,
           .summary = "O papel do usuário em cada projeto que ele vê e o que esse papel permite",
           .answer_schema = schemas::list_of("PermissaoProjeto"),
           .handler = service::scoped([](const Scope& s, Request&) { return Response::json(projects(s)); })});
  srv.add({.method = "GET", .pattern = "/permissoes/projetos/{idProjeto}", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "leitura"), .tag = kTag,
           .summary = "O papel do usuário num projeto e em cada camada dele que ele vê",
           .answer_schema = schemas::ref("PermissaoProjetoDetalhe"),
           .handler = service::scoped(
               [](const Scope& s, Request&) { return Response::json(project(s, s.grant().id)); })});
  srv.add({.method = "GET", .pattern = "/permissoes/camadas", .auth = "sessao", .access = http::members("o papel do próprio usuário em cada camada que ele vê"), .tag = kTag,
           .summary = "O papel do usuário em cada camada que ele vê e o que esse papel permite",
           .answer_schema = schemas::list_of("PermissaoCamada"),
           .handler = service::scoped([](const Scope& s, Request&) { return Response::json(layers(s)); })});
  srv.add({.method = "GET", .pattern = "/permissoes/camadas/{camadaId}", .auth = "sessao",
           .access = http::on("camada", "{camadaId}", "leitura"), .tag = kTag,
           .summary = "O papel do usuário numa camada e o que esse papel permite",
           .answer_schema = schemas::ref("PermissaoCamada"),
           .handler = service::scoped(
               [](const Scope& s, Request&) { return Response::json(layer(s, s.grant().id)); })});
  srv.add({.method = "GET", .pattern = "/permissoes/{idProjeto}", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "admin"), .tag = kTag,
           .summary = "Quem pode o quê num projeto: cada usuário com papel nele, a origem do papel e o "
                      "papel em cada camada (administradores do projeto)",
           .answer_schema = schemas::ref("PermissoesDoProjeto"),
           .handler = service::scoped([platform](const Scope& s, Request&) {
             return Response::json(table(s, s.grant().id, members(*platform, s.tenant.id)));
           })});
}

}  // namespace cadastre::platform
