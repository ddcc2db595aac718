// Accounts by e-mail: self-service sign-up (pending until the e-mail is confirmed),
// confirmation links, password recovery and an administrator's message to the tenant's
// users. No answer tells an anonymous caller whether an e-mail has an account: sign-up and
// recovery answer 202 alike, and an address that already has an account receives a
// password reset link instead of a second account.
#include "cadastre/json.hpp"
#include "mail/templates.hpp"
#include "platform/accounts/input.hpp"
#include "platform/common/links.hpp"
#include "platform/accounts/store.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/accounts/outbox.hpp"
#include "platform/passwords.hpp"
#include "store/rate_limit.hpp"
#include "store/crypto.hpp"
#include "store/dsn.hpp"

namespace cadastre::platform::accounts {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Contas";

Response accepted(const char* message) {
  JsonWriter w;
  w.begin_object().key("mensagem").value(message).end_object();
  return Response::json(std::move(w).str(), 202);
}

struct Accounts {
  common::Links links;
  store::Identity* identity;
  const AppOptions* options;
  std::string tenant_server;  ///< where new accounts' databases go
  std::unique_ptr<store::RateLimit> sign_ups;  ///< sign-ups and recovery mails per address
  store::SecretChecks* checks;                   ///< guesses of reset tokens
  std::unique_ptr<Outbox> outbox;                ///< mails sent after answering (outbox.hpp)

  // Every accepted request counts against the address: a few per hour, then 429.
  void limit(const Request& req) const {
    sign_ups->take(req.remote_addr, "muitas solicitações; tente mais tarde");
  }

  Response sign_up(Request& req) const {
    SignUp in = parse_sign_up(req.body);
    require_strong_password(in.senha, in.email, in.nome);
    links.require_mailer();
    limit(req);
    NewAccount a{in.nome, in.email, store::hash_password(in.senha), in.empresa, in.cnpj, in.telefone, in.municipio, in.uf};
    auto created = create_pending(*links.platform, a, tenant_server, options->trial);
    if (!created) {
      // The address has an account: its owner gets a reset link, after the answer, so the
      // answer takes as long as for a new account.
      outbox->post([links = links, email = in.email] {
        if (auto owner = active_contact(*links.platform, email)) links.send_password_reset(*owner);
      });
    } else {
      try {
        links.send_confirmation({created->user_id, in.email, in.nome});
      } catch (...) {
        discard_pending(*links.platform, *created);
        throw;
      }
    }
    return accepted("se o e-mail puder receber a conta, enviamos a ele o link de confirmação");
  }

  Response confirm(Request& req) const {
    Confirmed c = accounts::confirm(*links.platform, parse_token_query(req.query_value("token")), tenant_server);
    identity->reload();  // the tenant's activation, at once
    // An e-mail change: the sessions were opened under the old e-mail.
    if (!c.account) identity->revoke_user_sessions(c.user_id, "email");
    JsonWriter w;
    w.begin_object().key("mensagem").value(c.account ? "conta confirmada: já é possível entrar" : "e-mail alterado");
    w.key("email").value(c.email);
    if (c.account) w.key("tnToken").value(store::encode_tenant_token(identity->tenant(c.slug)->id));
    w.end_object();
    return Response::json(std::move(w).str());
  }

  Response recover(Request& req) const {
    Recovery in = parse_recovery(req.body);
    if (!in.token.empty()) {
      // A reset token is a secret: guesses count against the address (store/secret_checks.hpp).
      const store::Attempt who{"", req.remote_addr};
      checks->require_turn(who);
      std::int64_t user = 0;
      try {
        user = reset_password(*links.platform, in.token, [&](const Contact& c) {
          require_strong_password(in.senha, c.email, c.nome);
          return store::hash_password(in.senha);
        });
      } catch (const Error& e) {
        if (e.field() == "token") checks->failed(who);
        throw;
      }
      identity->revoke_user_sessions(user, "senha");
      JsonWriter w;
      w.begin_object().key("mensagem").value("senha alterada; as sessões abertas foram encerradas").end_object();
      return Response::json(std::move(w).str());
    }
    links.require_mailer();
    limit(req);
    // Looked up and sent after the answer: it takes the same time whether or not the
    // address has an account.
    outbox->post([links = links, email = in.email] {
      if (auto user = active_contact(*links.platform, email)) links.send_password_reset(*user);
    });
    return accepted("se o e-mail tiver conta, enviamos a ele o link para criar uma nova senha");
  }

  // An administrator's message to users of their tenant, one e-mail each; failures are
  // reported per address and do not stop the others.
  Response broadcast(const service::Scope& s, Request& req) const {
    Broadcast in = parse_broadcast(req.body);
    links.require_mailer();
    std::vector<Contact> to = recipients(*links.platform, s.tenant.id, in.destinatarios);
    JsonWriter w;
    int sent = 0;
    w.begin_object().key("falhas").begin_array();
    for (const auto& c : to) {
      try {
        links.mailer->send(mail::admin_message(c.email, s.tenant.nome, s.user.nome, in.assunto, in.mensagem));
        ++sent;
      } catch (const Error& e) {
        w.begin_object().key("idUsuario").value(c.id).key("mensagem").value(e.what()).end_object();
      }
    }
    w.end_array().key("enviados").value(sent).key("destinatarios").value(static_cast<std::int64_t>(to.size()));
    w.end_object();
    return Response::json(std::move(w).str());
  }
};

}  // namespace
}  // namespace cadastre::platform::accounts

namespace cadastre::platform {

void add_account_routes(App& app) {
  using namespace accounts;
  auto a = std::make_shared<Accounts>();
  a->links = common::links_of(app);
  a->identity = &app.identity();
  a->options = &app.options();
  a->checks = &app.secret_checks();
  a->outbox = std::make_unique<Outbox>(app.options().http.log);
  a->tenant_server = app.options().trial.tenant_server_dsn.empty() ? app.options().platform_dsn
                                                                   : app.options().trial.tenant_server_dsn;
  a->sign_ups = std::make_unique<store::RateLimit>(app.platform(), "cadastro", store::RateLimitOptions{.max = 10});
  const std::string sign_up_body = R"({"nome", "email", "senha" (8 a 1024 caracteres), "empresa", "cnpj"?, )"
                                   R"("telefone"?, "municipio"?, "uf"?})";
  const std::string sign_up = "Cria uma conta (município, empresa, administrador e licença de teste) pendente de "
                              "confirmação e envia o link de confirmação ao e-mail (202, exista ou não a conta)";
  auto& srv = app.server();
  srv.add({.method = "POST", .pattern = "/nova-conta", .auth = "none", .tag = kTag, .summary = sign_up,
           .body = {.description = sign_up_body, .max_bytes = 16384, .schema = schemas::ref("NovaConta")},
           .answer_status = 202, .answer_schema = schemas::ref("Mensagem"), .handler = service::unscoped(a, &Accounts::sign_up)});
  srv.add({.method = "POST", .pattern = "/email", .auth = "none", .tag = kTag,
           .summary = sign_up + " (forma anterior de /nova-conta)",
           .body = {.description = sign_up_body, .max_bytes = 16384, .schema = schemas::ref("NovaConta")},
           .answer_status = 202, .answer_schema = schemas::ref("Mensagem"), .handler = service::unscoped(a, &Accounts::sign_up)});
  srv.add({.method = "GET", .pattern = "/nova-conta/confirmar", .auth = "none", .tag = kTag,
           .summary = "Confirma uma conta nova (cria o banco do município e o ativa) ou a troca de e-mail; "
                      "o link vale uma vez",
           .params = {{.name = "token", .required = true, .description = "o token do link enviado por e-mail"}},
           .answer_schema = schemas::ref("Confirmacao"), .handler = service::unscoped(a, &Accounts::confirm)});
  srv.add({.method = "POST", .pattern = "/recuperarsenha", .auth = "none", .tag = kTag,
           .summary = "Com email: envia um link para criar nova senha (202, exista ou não a conta). Com token e "
                      "senha: grava a nova senha e encerra as sessões do usuário",
           .body = {.description = R"({"email"} ou {"token", "senha"})", .max_bytes = 8192,
                    .schema = schemas::ref("RecuperarSenha")},
           .answer_schema = schemas::ref("Mensagem"), .handler = service::unscoped(a, &Accounts::recover)});
  srv.add({.method = "POST", .pattern = "/email/personalizado", .auth = "sessao", .access = http::admins(),
           .tag = kTag, .summary = "Envia uma mensagem do administrador aos usuários do município",
           .body = {.description = R"({"assunto", "mensagem", "destinatarios"?: [ids de usuário]})",
                    .max_bytes = 65536, .schema = schemas::ref("EmailPersonalizado")},
           .answer_schema = schemas::ref("ResultadoEnvio"),
           .handler = service::scoped([a](const service::Scope& s, Request& r) { return a->broadcast(s, r); })});
}

}  // namespace cadastre::platform
