// Geometry audit (GET /auditoria/geometrias): who changed which geometry when, with its
// state (GeoJSON, version, values by field key) before and after, read from the rows the
// geometries area writes with every edit. An audit is an administrator's reading: with
// idCamada or idProjeto the caller needs admin on it (gestao: inactive ones too); without
// them, only the tenant's administrators may ask (the whole tenant). The rows answered are
// only those of layers the caller may see. Each row names its user (the name is in the
// platform database, read once per request).
#include "platform/app.hpp"
#include "platform/audit/input.hpp"
#include "platform/audit/store.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/guard/guard.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::audit {
namespace {

http::Response list(store::Pool& platform, const service::Scope& s, http::Request& req) {
  AuditQuery q = parse_query(req);
  if (q.projeto) guard::require(s, "projeto", *q.projeto, "gestao", "idProjeto");
  if (q.camada) guard::require(s, "camada", *q.camada, "gestao", "idCamada");
  if (!q.projeto && !q.camada) guard::require_reach(s, guard::Reach::tenant);  // the whole tenant's audit
  bool tenant_admin = guard::reach(s) >= guard::Reach::tenant;
  return http::Response::json(rows(s, q, tenant_admin, user_names(platform, s.tenant.id)));
}

}  // namespace
}  // namespace cadastre::platform::audit

namespace cadastre::platform {

void add_audit_routes(App& app) {
  auto id = [](const char* name, const char* what) {
    return http::Param{.name = name, .type = "integer", .description = what};
  };
  auto ms = [](const char* name, const char* what) {
    return http::Param{.name = name, .type = "integer", .required = true, .description = what};
  };
  app.server().add(
      {.method = "GET", .pattern = "/auditoria/geometrias", .auth = "sessao", .access = http::members("gestão no projeto idProjeto ou na camada idCamada (verificada pelo guarda); sem eles, administrador do município"), .tag = "Auditoria",
       .summary = "Auditoria das geometrias: criações, alterações e exclusões com o estado antes e depois "
                  "(GeoJSON e valores), da mais recente; intervalo de até 366 dias",
       .params = {id("idProjeto", "o projeto (o chamador precisa ser admin dele)"),
                  id("idCamada", "a camada (o chamador precisa ser admin dela)"),
                  id("idUsuario", "só as edições deste usuário"),
                  ms("dataInicioLong", "início, em milissegundos desde 1970 (incluído)"),
                  ms("dataFinalLong", "fim, em milissegundos desde 1970 (incluído; até 366 dias após o início)"),
                  id("limite", "quantas linhas no máximo (padrão 100, até 1000)")},
       .answer_schema = schemas::list_of("AuditoriaGeometria"), .handler = service::scoped([platform = &app.platform()](const service::Scope& s, http::Request& req) {
         return audit::list(*platform, s, req);
       })});
}

}  // namespace cadastre::platform
