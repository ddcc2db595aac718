// GET /geo/{municipio}/usuarios/permissoes/: the caller, the tenant and the effective
// read/write permission on every layer of the tenant's `cadastro` schema.
#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/users/permissions.hpp"
#include "service/scope.hpp"

namespace cadastre::server::users {
namespace {

http::Response permissions(const service::Scope& s, http::Request&) {
  JsonWriter w;
  w.begin_object().key("usuario").begin_object();
  w.key("id").value(s.user.user_id).key("email").value(s.user.email).key("nome").value(s.user.nome);
  w.key("adm").value(s.user.admin).end_object();
  w.key("municipio").begin_object().key("id").value(s.tenant.id).key("slug").value(s.tenant.slug);
  w.key("nome").value(s.tenant.nome).end_object();
  write_permissions(w, s);
  w.end_object();
  return http::Response::json(std::move(w).str());
}

}  // namespace
}  // namespace cadastre::server::users

namespace cadastre::server {

void add_user_routes(App& app) {
  app.server().add({.method = "GET",
                    .pattern = "/geo/{municipio}/usuarios/permissoes/",
                    .auth = "bearer",
                    .access = http::members("as próprias permissões"),
                    .tag = "Geoespacial avançado",
                    .summary = "Usuário autenticado, município e permissões de leitura/escrita por camada",
                    .handler = service::scoped(&users::permissions)});
}

}  // namespace cadastre::server
