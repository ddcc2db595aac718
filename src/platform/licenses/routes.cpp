// Licenses: a tenant's plan, quotas and end date; the license's API tokens; and the
// platform administrators' view of every license (/adm/licencas).
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/licenses/input.hpp"
#include "platform/licenses/store.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::licenses {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Licenças";

using service::path_id;

struct Licenses {
  store::Pool* platform;
  common::FileStore files;  ///< the layers' own files count in the storage in use

  Response create(const service::Scope&, Request& req) const {
    NewLicense in = parse_new(req.body);
    return Response::json(licenses::create(*platform, in.tenant_id, in.fields), 201);
  }
  Response my_plan(const service::Scope& s, Request&) const {
    return Response::json(licenses::my_plan(*platform, {*s.db, files, s.tenant.slug}, s.tenant.id));
  }
  Response tokens(const service::Scope& s, Request&) const {
    return Response::json(api_tokens(*platform, s.tenant.id));
  }
  Response rotate(const service::Scope& s, Request& req) const {
    TokenRequest in = parse_token_request(req.body);
    return Response::json(rotate_api_token(*platform, s.tenant.id, in.id, in.nome, in.escopo));
  }
  Response all(const service::Scope&, Request& req) const {
    Page page = parse_page(req, "id");
    return Response::json(page_json(list(*platform, page), page));
  }
  Response tenant(const service::Scope&, Request& req) const {
    return Response::json(of_tenant(*platform, path_id(req)));
  }
  // A platform administrator records a contract's payment here (pagamentoConfirmado): the
  // contracting routes are the spec's, and this is the administrators' route of licenses.
  Response change(const service::Scope& s, Request& req) const {
    LicenseFields f = parse_change(req.body);
    std::int64_t id = path_id(req);
    if (!f.pagamento_confirmado) return Response::json(update(*platform, id, f));
    confirm_payment(*platform, id, *f.pagamento_confirmado, s.user.user_id);
    return Response::json(one(*platform, id));
  }
};

}  // namespace
}  // namespace cadastre::platform::licenses

namespace cadastre::platform {

void add_license_routes(App& app) {
  using namespace licenses;
  auto l = std::make_shared<const Licenses>(Licenses{&app.platform(), common::FileStore(app.options().files_dir)});
  const std::string fields = R"({"plano", "fim" (AAAA-MM-DD), "maxUsuarios", "maxArmazenamentoMb", )"
                             R"("status"? (teste|ativa|suspensa|cancelada), "inicio"?, "observacao"?})";
  auto& srv = app.server();
  srv.add({.method = "POST", .pattern = "/licencas", .auth = "sessao", .access = http::platform_admins(), .tag = kTag,
           .summary = "Cria uma licença para um município",
           .body = {.description = R"({"idTenant", )" + fields.substr(1), .schema = schemas::ref("LicencaNova")},
           .answer_status = 201, .answer_schema = schemas::ref("Licenca"), .handler = service::scoped(l, &Licenses::create)});
  srv.add({.method = "GET", .pattern = "/licencas/meu-plano", .auth = "sessao", .access = http::members("o plano do próprio município"), .tag = kTag,
           .summary = "O plano do município: licença, status, cotas de usuários e de armazenamento e seu uso",
           .answer_schema = schemas::ref("MeuPlano"), .handler = service::scoped(l, &Licenses::my_plan)});
  srv.add({.method = "GET", .pattern = "/licencas/tokens", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Os tokens de API da licença, sem os segredos",
           .answer_schema = schemas::list_of("TokenApi"), .handler = service::scoped(l, &Licenses::tokens)});
  srv.add({.method = "PUT", .pattern = "/licencas/tokens", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Gira o segredo de um token de API (ou emite um novo); o token aparece só nesta resposta",
           .body = {.description = R"({"id"} para girar; {"nome", "escopo": "integracao"|"avaliacao"} para emitir)",
                    .schema = schemas::ref("TokenApiPedido")},
           .answer_schema = schemas::ref("TokenApiEmitido"), .handler = service::scoped(l, &Licenses::rotate)});
  srv.add({.method = "GET", .pattern = "/adm/licencas", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag, .summary = "Todas as licenças, paginadas",
           .params = page_params({"id", "tenant", "plano", "status", "fim"}),
           .answer_schema = schemas::page_of("Licenca"), .handler = service::scoped(l, &Licenses::all)});
  srv.add({.method = "GET", .pattern = "/adm/licencas/tenant/{id}", .auth = "sessao",
           .access = http::platform_admins(), .tag = kTag, .summary = "As licenças de um município, da mais nova",
           .answer_schema = schemas::list_of("Licenca"), .handler = service::scoped(l, &Licenses::tenant)});
  srv.add({.method = "PUT", .pattern = "/adm/licencas/{id}", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag, .summary = "Altera uma licença (plano, status, datas, cotas) ou confirma o pagamento de um contrato dela",
           .body = {.description = "os campos a alterar: " + fields + R"(; ou {"pagamentoConfirmado": idContrato})", .schema = schemas::ref("LicencaAlteracao")},
           .answer_schema = schemas::ref("Licenca"), .handler = service::scoped(l, &Licenses::change)});
}

}  // namespace cadastre::platform
