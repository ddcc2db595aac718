// /tenants/config: the tenant's configuration (map, theme, contacts, modules), read by
// everyone of the tenant and replaced by its administrators.
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/tenants/input.hpp"
#include "platform/tenants/store.hpp"

namespace cadastre::platform {

void add_tenant_routes(App& app) {
  store::Pool* db = &app.platform();
  store::Identity* identity = &app.identity();
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/tenants/config", .auth = "sessao", .tag = "Municípios",
           .summary = "O município da sessão e a sua configuração",
           .answer_schema = schemas::ref("ConfiguracaoMunicipio"),
           .handler = service::scoped([db](const service::Scope& s, http::Request&) {
             return http::Response::json(tenants::config(*db, s.tenant.id));
           })});
  srv.add({.method = "PUT", .pattern = "/tenants/config", .auth = "sessao", .access = http::admins(),
           .tag = "Municípios", .summary = "Substitui a configuração do município (validada pelo esquema documentado)",
           .body = {.description = R"({"mapa"?: {"centro": [lon, lat], "zoom", "mapaBase"}, "tema"?: {"corPrimaria", )"
                                   R"("corSecundaria", "logo"}, "contato"?: {"email", "telefone", "site"}, "modulos"?: [...]})",
                    .max_bytes = 65536, .schema = schemas::ref("Configuracao")},
           .answer_schema = schemas::ref("ConfiguracaoMunicipio"),
           .handler = service::scoped([db, identity](const service::Scope& s, http::Request& r) {
             tenants::set_config(*db, s.tenant.id, tenants::parse_config(r.body));
             identity->reload();  // the cached tenant carries its configuration
             return http::Response::json(tenants::config(*db, s.tenant.id));
           })});
}

}  // namespace cadastre::platform
