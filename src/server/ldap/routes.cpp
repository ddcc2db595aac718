// POST /ldap/login/: login with directory credentials. The password is checked by a bind
// to the configured LDAP directory (server/ldap/directory.hpp); the directory also says
// which municipality the user belongs to, through membership of a group
// cn=<group_prefix><slug>. On success the user is found (or, on first login, created
// without a password) in the identity store and gets a new session, exactly as the
// platform's logins open them (directory/login.hpp, shared with POST /login/LDAP).
//
// Answers: 200 {"auth_token", "usuario", "municipio"}; 401 for credentials the directory
// refuses (empty password included: it would be an anonymous bind); 403 when the
// directory grants no municipality or the identity store keeps the user elsewhere or
// inactive; 502/504 when the directory fails or is slow; 503 when no directory is
// configured (after the body was found well-formed: 400 otherwise).
#include <memory>

#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/ldap/input.hpp"
#include "directory/login.hpp"

namespace cadastre::server {
namespace {

http::Response log_in(const directory::Login& login, http::Request& req) {
  // The body first: a malformed one is a 400 whether or not a directory is configured.
  directory::Credentials in = ldap::parse_login(req.body);
  const std::string* agent = req.header("User-Agent");
  directory::Session session =
      directory::log_in(login, in, {.address = req.remote_addr, .agent = agent ? *agent : ""});
  const store::StoredUser& u = session.user;
  JsonWriter w;
  w.begin_object().key("auth_token").value(session.token);
  w.key("usuario").begin_object().key("id").value(u.id).key("email").value(u.email);
  w.key("nome").value(u.nome).key("adm").value(u.admin).key("criado").value(u.created).end_object();
  w.key("municipio").begin_object().key("id").value(session.tenant.id).key("slug").value(session.tenant.slug);
  w.key("nome").value(session.tenant.nome).end_object();
  w.end_object();
  return http::Response::json(std::move(w).str());
}

}  // namespace

void add_ldap_routes(App& app) {
  auto login = std::make_shared<const directory::Login>(app.options().ldap, app.identity(), app.secret_checks());
  app.server().add(
      {.method = "POST",
       .pattern = "/ldap/login/",
       .auth = "none",
       .tag = "Login por diretório",
       .summary = "Autentica no diretório LDAP configurado e devolve o auth_token da plataforma de "
                  "identidade "
                  "(cria o usuário no primeiro acesso quando o diretório o vincula a um município)",
       .body =
           {.description =
                R"(credenciais do diretório: {"username": "...", "password": "...", "municipio": "opcional, )"
                R"(quando o usuário pertence a mais de um município"})"},
       .handler = [login](http::Request& req) { return log_in(*login, req); }});
}

}  // namespace cadastre::server
