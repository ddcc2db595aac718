// /minha-conta: the caller's own profile. A new e-mail takes effect only once confirmed
// from the new address; a new password needs the current one and ends the caller's other
// sessions.
#include "platform/common/links.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/profile/input.hpp"
#include "platform/profile/store.hpp"
#include "platform/passwords.hpp"
#include "store/crypto.hpp"
#include "text/text.hpp"

namespace cadastre::platform::profile {
namespace {

using http::Request;
using http::Response;

struct Profile {
  common::Links links;
  store::Identity* identity;
  store::SecretChecks* checks;

  Response read(const service::Scope& s, Request&) const {
    return Response::json(profile_json(*links.platform, s.user.user_id, s.tenant.id));
  }

  Response change(const service::Scope& s, Request& req) const {
    Update in = parse_update(req.body);
    store::Pool& db = *links.platform;
    if (!in.nova_senha.empty()) {
      require_strong_password(in.nova_senha, in.email.value_or(s.user.email), s.user.nome, "novaSenha");
      // The current password is a secret check like a login (a stolen session must not
      // become a way to guess it): the same throttle, the same account.
      const store::Attempt who{"email:" + text::fold_identifier(s.user.email), req.remote_addr};
      checks->require_turn(who);
      std::string current = password_hash(db, s.user.user_id);
      if (current.empty() || !store::verify_password(current, in.senha_atual)) {
        checks->failed(who);
        throw Error(errc::forbidden, "senhaAtual não confere", "senhaAtual");
      }
      checks->succeeded(who);
    }
    bool new_email = in.email && *in.email != http::lower_ascii(s.user.email);
    // An e-mail another account uses is not refused here, which would tell any user that
    // the address has an account: no link goes to it, and the answer is the same.
    bool send_link = new_email && !email_taken(db, *in.email, s.user.user_id);
    if (new_email) links.require_mailer();
    update(db, s.user.user_id, in.fields);
    if (!in.nova_senha.empty()) {
      set_password(db, s.user.user_id, store::hash_password(in.nova_senha));
      identity->revoke_user_sessions(s.user.user_id, "senha", s.user.session_id);
    }
    if (send_link) links.send_email_change({s.user.user_id, s.user.email, s.user.nome}, *in.email);
    return Response::json(profile_json(db, s.user.user_id, s.tenant.id));
  }
};

}  // namespace
}  // namespace cadastre::platform::profile

namespace cadastre::platform {

void add_profile_routes(App& app) {
  using namespace profile;
  auto p = std::make_shared<const Profile>(Profile{common::links_of(app), &app.identity(), &app.secret_checks()});
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/minha-conta", .auth = "sessao", .access = http::members("o próprio perfil"), .tag = "Minha conta",
           .summary = "O perfil de quem chama",
           .answer_schema = schemas::ref("Perfil"),
           .handler = service::scoped([p](const service::Scope& s, Request& r) { return p->read(s, r); })});
  srv.add({.method = "PUT", .pattern = "/minha-conta", .auth = "sessao", .access = http::members("o próprio perfil"), .tag = "Minha conta",
           .summary = "Altera o próprio perfil; um e-mail novo vale depois de confirmado pelo link enviado a ele; "
                      "a troca de senha pede a atual e encerra as outras sessões",
           .body = {.description = R"({"nome"?, "telefone"?, "cargo"?, "email"?, "senhaAtual"?, "novaSenha"?})",
                    .max_bytes = 16384, .schema = schemas::ref("PerfilAlteracao")},
           .answer_schema = schemas::ref("Perfil"),
           .handler = service::scoped([p](const service::Scope& s, Request& r) { return p->change(s, r); })});
}

}  // namespace cadastre::platform
