// /tenants/config: the tenant's configuration (map, theme, contacts, modules), read by
// everyone of the tenant (without credentials) and changed by its administrators.
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/tenants/input.hpp"
#include "platform/tenants/store.hpp"

namespace cadastre::platform {

void add_tenant_routes(App& app) {
  store::Pool* db = &app.platform();
  store::Identity* identity = &app.identity();
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/tenants/config", .auth = "sessao", .access = http::members("o próprio município, sem credenciais"), .tag = "Municípios",
           .summary = "O município da sessão e a sua configuração",
           .answer_schema = schemas::ref("ConfiguracaoMunicipio"),
           .handler = service::scoped([db](const service::Scope& s, http::Request&) {
             return http::Response::json(tenants::config(*db, s.tenant.id));
           })});
  srv.add({.method = "PUT", .pattern = "/tenants/config", .auth = "sessao", .access = http::admins(),
           .tag = "Municípios",
           .summary = "Altera a configuração do município membro a membro (validada pelo esquema documentado): um "
                      "membro enviado substitui o atual, null o remove, os omitidos ficam; credenciais nunca são "
                      "devolvidas; cada alteração é auditada",
           .body = {.description = R"({"mapa"?: {"centro": [lon, lat], "zoom", "mapaBase"}, "tema"?: {"corPrimaria", )"
                                   R"("corSecundaria", "logo"}, "contato"?: {"email", "telefone", "site"}, "modulos"?: [...], )"
                                   R"("rastreador"?: {"url", "token", "timeout_ms"}} (cada membro pode ser null))",
                    .max_bytes = 65536, .schema = schemas::ref("Configuracao")},
           .answer_schema = schemas::ref("ConfiguracaoMunicipio"),
           .handler = service::scoped([db, identity](const service::Scope& s, http::Request& r) {
             tenants::change_config(*db, s.tenant.id, s.user.user_id, tenants::parse_config(r.body));
             identity->reload();  // the cached tenant carries its configuration
             return http::Response::json(tenants::config(*db, s.tenant.id));
           })});
}

}  // namespace cadastre::platform
