// /camadas-usuarios: per-user rights on a layer ("leitura" or "edicao"), managed by the
// layer's administrators. A right replaces what the project's share gives on that layer
// and opens a private layer to its user. The user must be an active user of the caller's
// tenant (checked in the platform database).
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/layer_users/input.hpp"
#include "platform/layer_users/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::layer_users {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Camadas: usuários";

struct Rights {
  store::Pool* platform;

  Response listed(const service::Scope& s, Request& req) const {
    std::optional<std::int64_t> layer;
    if (auto v = req.query_value("idCamada")) layer = query::parse_integer(*v, "idCamada", 1, INT64_MAX);
    return Response::json(list(s, *platform, layer));
  }
  Response read(const service::Scope& s, Request&) const { return Response::json(one(s, *platform, s.grant().id)); }
  Response create(const service::Scope& s, Request& req) const {
    NewRight r = parse_new(req.body);
    require_tenant_user(s, *platform, r.usuario);
    return Response::json(one(s, *platform, layer_users::create(s, r.camada, r.usuario, r.direito)), 201);
  }
  Response change(const service::Scope& s, Request& req) const {
    update(s, s.grant().id, parse_change(req.body));
    return Response::json(one(s, *platform, s.grant().id));
  }
  Response erase(const service::Scope& s, Request&) const {
    remove(s, s.grant().id);
    return Response::no_content();
  }
};

}  // namespace
}  // namespace cadastre::platform::layer_users

namespace cadastre::platform {

void add_layer_user_routes(App& app) {
  using namespace layer_users;
  auto r = std::make_shared<const Rights>(Rights{&app.platform()});
  const std::string body = R"({"direito": "leitura"|"edicao"})";
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/camadas-usuarios", .auth = "sessao", .access = http::members("só os direitos nas camadas que o usuário administra"), .tag = kTag,
           .summary = "Os direitos de usuários nas camadas que o usuário administra",
           .params = {{.name = "idCamada", .type = "integer", .description = "só os direitos nesta camada"}},
           .answer_schema = schemas::list_of("CamadaUsuario"), .handler = service::scoped(r, &Rights::listed)});
  srv.add({.method = "GET", .pattern = "/camadas-usuarios/{id}", .auth = "sessao",
           .access = http::on("camada_usuario", "{id}", "gestao"), .tag = kTag,
           .summary = "Um direito de usuário numa camada (administradores da camada)",
           .answer_schema = schemas::ref("CamadaUsuario"), .handler = service::scoped(r, &Rights::read)});
  srv.add({.method = "POST", .pattern = "/camadas-usuarios", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "admin"), .tag = kTag,
           .summary = "Dá a um usuário do município direito de leitura ou edição numa camada",
           .body = {.description = R"({"idCamada", "idUsuario", "direito": "leitura"|"edicao"})", .max_bytes = 1024,
                    .schema = schemas::ref("CamadaUsuarioNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("CamadaUsuario"), .handler = service::scoped(r, &Rights::create)});
  srv.add({.method = "PUT", .pattern = "/camadas-usuarios/{id}", .auth = "sessao",
           .access = http::on("camada_usuario", "{id}", "admin"), .tag = kTag,
           .summary = "Muda o direito de um usuário numa camada",
           .body = {.description = body, .max_bytes = 1024, .schema = schemas::ref("CamadaUsuarioAlteracao")},
           .answer_schema = schemas::ref("CamadaUsuario"), .handler = service::scoped(r, &Rights::change)});
  srv.add({.method = "DELETE", .pattern = "/camadas-usuarios/{id}", .auth = "sessao",
           .access = http::on("camada_usuario", "{id}", "gestao"), .tag = kTag,
           .summary = "Retira o direito de um usuário numa camada", .answers = "", .answer_status = 204,
           .handler = service::scoped(r, &Rights::erase)});
}

}  // namespace cadastre::platform
