// GET /geo/{municipio}/usuarios/permissoes/: the caller, the tenant and the effective
// read/write permission on every layer of the tenant's `cadastro` schema.
#include "cadastre/json.hpp"
#include "server/app.hpp"

namespace cadastre::server {

void add_user_routes(App& app) {
  app.server().add(
      {.method = "GET",
       .pattern = "/geo/{municipio}/usuarios/permissoes/",
       .auth = "bearer",
       .tag = "Geoespacial avançado",
       .summary = "Usuário autenticado, município e permissões de leitura/escrita por camada",
       .handler = [&app](http::Request& req) {
         const Context& ctx = context(req);
         auto perms = app.identity().permissions(ctx.user.user_id);
         // The layer list comes from the tenant's cached catalog: no query on the hot path.
         auto catalog = app.catalogs().get(ctx.tenant, *ctx.db);
         JsonWriter w;
         w.begin_object().key("usuario").begin_object();
         w.key("id")
             .value(ctx.user.user_id)
             .key("email")
             .value(ctx.user.email)
             .key("nome")
             .value(ctx.user.nome);
         w.key("adm").value(ctx.user.admin).end_object();
         w.key("municipio")
             .begin_object()
             .key("id")
             .value(ctx.tenant.id)
             .key("slug")
             .value(ctx.tenant.slug);
         w.key("nome").value(ctx.tenant.nome).end_object();
         w.key("regras").begin_array();
         for (const auto& p : perms) {
           w.begin_object()
               .key("camada")
               .value(p.camada)
               .key("leitura")
               .value(p.leitura)
               .key("escrita")
               .value(p.escrita);
           w.end_object();
         }
         w.end_array();
         w.key("camadas").begin_array();
         for (const auto& [layer, _] : catalog->layers()) {
           w.begin_object().key("camada").value(layer);
           w.key("leitura").value(store::layer_allowed(perms, layer, false, ctx.user.admin));
           w.key("escrita").value(store::layer_allowed(perms, layer, true, ctx.user.admin));
           w.end_object();
         }
         w.end_array().end_object();
         return http::Response::json(std::move(w).str());
       }});
}

}  // namespace cadastre::server
