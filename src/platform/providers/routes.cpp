// Service providers (surveying firms, consultancies) working for municipalities:
//
// - a firm pre-registers (/preprovider/register, no account needed); a platform
//   administrator reviews the pre-registrations and approves one (/provider/create), which
//   creates the provider and its first user, who gets a link to create a password;
// - a tenant's administrator grants a provider access to the tenant (POST /provider, read
//   or read and write on every layer) and takes it back (DELETE /provider/delete/:id, which
//   ends the provider's sessions in that tenant at once; so does taking write away);
// - the provider's users sign in with /login-provider into a tenant that granted access,
//   and see only what that grant allows.
#include "cadastre/json.hpp"
#include "platform/common/links.hpp"
#include "platform/app.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/schemas.hpp"
#include "platform/providers/input.hpp"
#include "platform/providers/store.hpp"
#include "store/rate_limit.hpp"

namespace cadastre::platform::providers {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Prestadores";

struct Providers {
  common::Links links;
  store::Identity* identity;
  std::unique_ptr<store::RateLimit> registrations;  ///< per address

  store::Pool& db() const { return *links.platform; }

  Response pre_register(Request& req) const {
    PreRegistration p = parse_pre(req.body);
    registrations->take(req.remote_addr, "muitos cadastros; tente mais tarde");
    std::int64_t id = register_pre(db(), p);
    return Response::json("{\"id\":" + std::to_string(id) + ",\"estado\":\"pendente\"}", 201);
  }
  Response pre_list(const service::Scope&, Request& req) const {
    Page page = parse_page(req, "id", true);
    return Response::json(page_json(list_pre(db(), req.query_value("estado"), page), page));
  }
  // A provider's user: the pre-registration of their own provider; a platform administrator:
  // those of a CNPJ.
  Response pre_of_caller(const service::Scope& s, Request& req) const {
    if (s.user.provider_id) return Response::json(pre_of(db(), std::nullopt, s.user.provider_id));
    guard::require_reach(s, guard::Reach::platform);
    auto cnpj = cnpj_query(req);
    if (!cnpj) throw Error(errc::missing_field, "informe cnpj", "cnpj");
    return Response::json(pre_of(db(), cnpj, std::nullopt));
  }
  Response pre_delete(const service::Scope&, Request& req) const {
    delete_pre(db(), id_field(req, "id", false));
    return Response::no_content();
  }
  Response create(const service::Scope&, Request& req) const {
    CreatedProvider c = providers::create(db(), parse_new(req.body));
    // The provider exists from here on: a mail server that fails now is reported in the
    // answer, not as an error (a retry would only meet a 409); /recuperarsenha sends
    // the link again later.
    bool sent = false;
    if (links.mailer->enabled()) {
      try {
        links.send_password_reset({c.user_id, c.user_email, c.user_nome});
        sent = true;
      } catch (const Error&) {
      }
    }
    JsonWriter w;
    w.begin_object().key("provedor").raw(one(db(), c.provider_id)).key("idUsuario").value(c.user_id);
    w.key("linkDeSenhaEnviado").value(sent).end_object();
    return Response::json(std::move(w).str(), 201);
  }
  // Platform administrators see every provider; a provider's user, their own; anyone else,
  // those serving their tenant.
  Response list(const service::Scope& s, Request&) const {
    if (s.user.provider_id) return Response::json("[" + one(db(), s.user.provider_id) + "]");
    return Response::json(providers::list(
        db(), guard::reach(s) == guard::Reach::platform ? std::nullopt : std::optional<std::int64_t>(s.tenant.id)));
  }
  Response users(const service::Scope& s, Request& req) const {
    if (s.user.provider_id) return Response::json(users_of(db(), s.user.provider_id));
    std::int64_t id = id_field(req, "idProvedor", false);
    const guard::Reach reach = guard::reach(s);
    if (reach != guard::Reach::platform && !(reach == guard::Reach::tenant && granted(db(), id, s.tenant.id)))
      throw Error(errc::not_found, "prestador não encontrado neste município", "idProvedor");
    return Response::json(users_of(db(), id));
  }
  Response give(const service::Scope& s, Request& req) const {
    Grant g = parse_grant(req.body);
    // Taking write access away ends the provider's sessions in the tenant: a session's
    // rights are cached by every service that validated it (cadastre-server too, for its
    // token_ttl), and only a revocation reaches them all at once. More rights may wait for
    // those caches; this process's reload makes them visible here at once.
    std::vector<std::int64_t> sessions = grant(db(), g.provider_id, s.tenant.id, g.escrita);
    identity->revoke_sessions(sessions, "acesso_reduzido");
    identity->reload();
    return Response::json(providers::list(db(), s.tenant.id));
  }
  // A tenant's administrator takes the provider's access to the tenant back; a platform
  // administrator deactivates the provider altogether. Either way its sessions there end.
  Response remove(const service::Scope& s, Request& req) const {
    std::int64_t id = id_field(req, "idProvedor", true);
    if (guard::reach(s) == guard::Reach::platform) {
      for (std::int64_t user : deactivate(db(), id))
        identity->revoke_user_sessions(user, "prestador_inativado");
    } else {
      std::vector<std::int64_t> sessions = revoke_grant(db(), id, s.tenant.id);
      identity->revoke_sessions(sessions, "acesso_revogado");
    }
    return Response::no_content();
  }
};

}  // namespace
}  // namespace cadastre::platform::providers

namespace cadastre::platform {

void add_provider_routes(App& app) {
  using namespace providers;
  auto p = std::make_shared<Providers>();
  p->links = common::links_of(app);
  p->identity = &app.identity();
  p->registrations = std::make_unique<store::RateLimit>(app.platform(), "prestador", store::RateLimitOptions{.max = 5});
  std::vector<http::Param> pre_list_params = page_params(kPreOrderColumns);
  pre_list_params.push_back(
      {.name = "estado", .description = "filtra pelo estado", .values = {"pendente", "aprovado", "recusado"}});
  const std::string pre_body = R"({"nome", "cnpj", "email", "responsavel", "telefone"?, "mensagem"?})";
  auto& srv = app.server();
  srv.add({.method = "POST", .pattern = "/preprovider/register", .auth = "none", .tag = kTag,
           .summary = "Pré-cadastro de um prestador de serviços, para análise da plataforma",
           .body = {.description = pre_body, .max_bytes = 16384, .schema = schemas::ref("PreCadastro")},
           .answer_status = 201,
           .answer_schema = R"({"type":"object","properties":{"id":{"type":"integer"},"estado":{"type":"string"}}})",
           .handler = [p](Request& r) { return p->pre_register(r); }});
  srv.add({.method = "GET", .pattern = "/preprovider", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag, .summary = "Os pré-cadastros, paginados (do mais novo, sem direction)",
           .params = pre_list_params, .answer_schema = schemas::page_of("PreProvedor"),
           .handler = service::scoped(p, &Providers::pre_list)});
  srv.add({.method = "GET", .pattern = "/preprovider/provider-user", .auth = "sessao", .access = http::members("o pré-cadastro do próprio prestador; administradores da plataforma: os de um CNPJ"), .tag = kTag,
           .summary = "O pré-cadastro do prestador de quem chama (administradores da plataforma: os de um CNPJ)",
           .params = {{.name = "cnpj", .description = "administradores da plataforma"}},
           .answer_schema = schemas::list_of("PreProvedor"), .handler = service::scoped(p, &Providers::pre_of_caller)});
  srv.add({.method = "DELETE", .pattern = "/preprovider/delete", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag, .summary = "Descarta um pré-cadastro não aprovado",
           .params = {{.name = "id", .type = "integer", .required = true, .description = "o pré-cadastro"}},
           .answers = "", .answer_status = 204, .handler = service::scoped(p, &Providers::pre_delete)});
  srv.add({.method = "POST", .pattern = "/provider/create", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag,
           .summary = "Cria um prestador (aprovando um pré-cadastro, ou com os dados dados) e o seu primeiro usuário, "
                      "que recebe o link para criar a senha",
           .body = {.description = R"({"idPreProvedor"} ou )" + pre_body, .max_bytes = 16384,
                    .schema = schemas::ref("ProvedorNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("ProvedorCriado"), .handler = service::scoped(p, &Providers::create)});
  srv.add({.method = "GET", .pattern = "/provider", .auth = "sessao",
           .access = http::members("os prestadores que atendem o município (o próprio, para o usuário de um "
                                   "prestador; todos, para administradores da plataforma)"),
           .tag = kTag,
           .summary = "Prestadores: os que atendem o município (todos, para administradores da plataforma; o "
                      "próprio, para o usuário de um prestador)",
           .answer_schema = schemas::list_of("Provedor"), .handler = service::scoped(p, &Providers::list)});
  srv.add({.method = "GET", .pattern = "/provider/provider-user", .auth = "sessao", .access = http::members("os usuários do próprio prestador; administradores: os de um prestador com acesso ao município"), .tag = kTag,
           .summary = "Os usuários de um prestador (o próprio, para o usuário de um prestador)",
           .params = {{.name = "idProvedor", .type = "integer", .description = "o prestador"}},
           .answer_schema = schemas::list_of("UsuarioDoProvedor"), .handler = service::scoped(p, &Providers::users)});
  srv.add({.method = "POST",
           .pattern = "/provider",
           .auth = "sessao",
           .access = http::admins(),
           .tag = kTag,
           .summary = "Concede a um prestador acesso ao município (leitura, ou leitura e escrita); "
                      "retirar a escrita encerra as sessões do prestador no município",
           .body = {.description = R"({"idProvedor", "escrita"?: false})", .schema = schemas::ref("Concessao")},
           .answer_schema = schemas::list_of("Provedor"), .handler = service::scoped(p, &Providers::give)});
  srv.add({.method = "DELETE", .pattern = "/provider/delete/{idProvedor}", .auth = "sessao", .access = http::admins(),
           .tag = kTag,
           .summary = "Retira o acesso do prestador ao município e encerra as suas sessões nele (administradores da "
                      "plataforma: inativa o prestador)",
           .answers = "", .answer_status = 204, .handler = service::scoped(p, &Providers::remove)});
}

}  // namespace cadastre::platform
