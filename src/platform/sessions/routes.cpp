// Logins and logout. Every login answers the spec's login response (statusLicenca,
// authToken, tnToken, usuarioPublico, idEmpresa, idUsuario, adm) with a new session of its
// own (a user may hold several). Password and directory logins go through the one
// throttle of secret checks (store/secret_checks.hpp: per account and address, per address,
// and a growing delay per account that spares the addresses it logged in from), keyed by
// the e-mail folded (text::fold_identifier); a refusal never says whether the e-mail
// exists (same answer, same argon2id work: a decoy hash for unknown e-mails).
#include <memory>

#include "cadastre/json.hpp"
#include "directory/login.hpp"
#include "platform/app.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/schemas.hpp"
#include "platform/sessions/input.hpp"
#include "platform/sessions/store.hpp"
#include "store/crypto.hpp"
#include "store/secret_checks.hpp"
#include "text/text.hpp"

namespace cadastre::platform::sessions {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Sessões";
constexpr const char* kRefused = "e-mail ou senha inválidos";

struct Logins {
  store::Identity* identity;
  store::Pool* platform;
  const AppOptions* options;
  store::SecretChecks* checks;
  std::unique_ptr<directory::Login> directory;
  std::unique_ptr<jwt::JwtVerifier> oidc;

  store::SessionOrigin origin(const Request& req, std::string kind) const {
    const std::string* agent = req.header("User-Agent");
    return {std::move(kind), req.remote_addr, agent ? *agent : ""};
  }

  // The login response for a session of `who`, opened here unless `token` is given.
  Response answer(const store::Principal& who, std::string token) const {
    LoginFacts f = login_facts(*platform, who.user_id, who.tenant_id);
    JsonWriter w;
    w.begin_object().key("statusLicenca").value(f.license_status).key("authToken").value(token);
    w.key("tnToken").value(store::encode_tenant_token(who.tenant_id)).key("usuarioPublico").value(f.publico);
    w.key("idEmpresa");
    if (f.empresa_id) w.value(f.empresa_id);
    else w.null();
    w.key("idUsuario").value(who.user_id).key("adm").value(who.admin).end_object();
    return Response::json(std::move(w).str());
  }

  Response password(Request& req) const {
    PasswordLogin in = parse_password_login(req, false);
    const std::string email = text::fold_identifier(in.email);
    return checks->run({"email:" + email, req.remote_addr}, [&] {
      auto who = identity->login(email, in.senha);
      // A pending account's tenant is inactive until its e-mail is confirmed, so the
      // identity store refuses it here like a wrong password.
      if (!who) throw Error(errc::unauthenticated, kRefused);
      return answer(*who, identity->open_session(*who, options->sessions, origin(req, "senha")));
    });
  }

  Response provider(Request& req) const {
    PasswordLogin in = parse_password_login(req, true);
    const std::string email = text::fold_identifier(in.email);
    return checks->run({"email:" + email, req.remote_addr}, [&] {
      auto account = provider_account(*platform, email);
      bool has_password = account && !account->password_hash.empty();
      bool ok = store::verify_password(has_password ? account->password_hash : store::decoy_password_hash(), in.senha);
      if (!has_password || !ok || !account->active) throw Error(errc::unauthenticated, kRefused);
      std::int64_t tenant = choose_tenant(*account, in.tenant_id);
      store::Principal who;
      who.user_id = account->user_id;
      who.email = account->email;
      who.nome = account->nome;
      who.tenant_id = tenant;
      who.provider_id = account->provider_id;
      return answer(who, identity->open_session(who, options->sessions, origin(req, "provedor")));
    });
  }

  static std::int64_t choose_tenant(const ProviderAccount& a, std::optional<std::int64_t> wanted) {
    if (a.tenants.empty()) throw Error(errc::forbidden, "nenhum município concede acesso a este prestador");
    if (wanted) {
      if (std::find(a.tenants.begin(), a.tenants.end(), *wanted) == a.tenants.end())
        throw Error(errc::tenant_forbidden, "o município não concede acesso a este prestador");
      return *wanted;
    }
    if (a.tenants.size() > 1)
      throw Error(errc::missing_field, "o prestador atende mais de um município: informe idTenant", "idTenant");
    return a.tenants.front();
  }

  Response ldap(Request& req) const {
    directory::Credentials in = parse_directory_login(req);
    directory::Session s = directory::log_in(*directory, in, origin(req, "ldap"));  // throttled inside
    return answer(directory::principal_of(s), s.token);
  }

  // The e-mail and uid prove nothing by themselves: the provider's signed id_token must
  // name them (`sub` = uid, `email` = email), for our audience, unexpired.
  Response oauth(Request& req) const {
    OidcLogin in = parse_oidc_login(req);
    if (!oidc) throw Error(errc::unavailable, "login OpenID Connect não configurado neste servidor");
    if (in.id_token.empty()) throw Error(errc::unauthenticated, "informe o id_token do provedor de identidade");
    const std::string email = text::fold_identifier(in.email);
    return checks->run({"email:" + email, req.remote_addr}, [&] { return oauth_login(req, in, email); });
  }

  Response oauth_login(const Request& req, const OidcLogin& in, const std::string& email) const {
    jwt::JwtClaims claims;
    try {
      claims = oidc->verify(in.id_token, jwt::unix_now());
    } catch (const jwt::JwtError& e) {
      throw Error(errc::unauthenticated, std::string("id_token recusado: ") + e.what());
    }
    if (claims.subject != in.uid || text::fold_identifier(claims.email) != email)
      throw Error(errc::unauthenticated, "o id_token não corresponde ao email e uid informados");
    auto who = active_user(*platform, email);
    if (!who) throw Error(errc::unauthenticated, "nenhum usuário ativo da plataforma com este e-mail");
    return answer(*who, identity->open_session(*who, options->sessions, origin(req, "oauth")));
  }

  // Anonymous callers get the methods the platform offers, whatever the e-mail: whether it
  // exists is not theirs to learn. An administrator of the tenant (or the user themself)
  // gets that user's actual methods.
  Response methods(Request& req) const {
    std::string email = parse_email_query(req);
    std::vector<std::string> found;
    const auto* scope = std::any_cast<service::Scope>(&req.auth);
    bool may_see = scope && (guard::reach(*scope) >= guard::Reach::tenant ||
                             http::lower_ascii(scope->user.email) == email);
    if (may_see) found = sign_in_methods(*platform, email, scope->tenant.id);
    else {
      found.push_back("senha");
      if (!options->ldap.uri.empty()) found.push_back("ldap");
      if (oidc) found.push_back("oauth");
    }
    JsonWriter w;
    w.begin_object().key("email").value(email).key("metodos").begin_array();
    for (const auto& m : found) w.value(m);
    w.end_array().key("doUsuario").value(may_see).end_object();
    return Response::json(std::move(w).str());
  }

  Response logout(const service::Scope& s, Request&) const {
    identity->revoke_session(s.user.session_id, "logout");
    return Response::no_content();
  }
};

}  // namespace
}  // namespace cadastre::platform::sessions

namespace cadastre::platform {

void add_session_routes(App& app) {
  using namespace sessions;
  auto logins = std::make_shared<Logins>();
  logins->identity = &app.identity();
  logins->platform = &app.platform();
  logins->options = &app.options();
  logins->checks = &app.secret_checks();
  logins->directory = std::make_unique<directory::Login>(app.options().ldap, app.identity(), app.secret_checks(),
                                                       app.options().sessions);
  if (!app.options().oidc.hs256_secret.empty() || !app.options().oidc.rs256_public_pem.empty()) {
    if (app.options().oidc.issuer.empty() || app.options().oidc.audience.empty())
      throw std::invalid_argument("o provedor OpenID Connect pede emissor (iss) e audiência (aud)");
    logins->oidc = std::make_unique<jwt::JwtVerifier>(app.options().oidc);
  }
  auto& srv = app.server();
  const std::string login_answer = "a resposta de login: statusLicenca, authToken, tnToken, usuarioPublico, "
                                   "idEmpresa, idUsuario, adm";
  srv.add({.method = "POST", .pattern = "/login", .auth = "none", .tag = kTag,
           .summary = "Entra com e-mail e senha; devolve " + login_answer + " (429 com Retry-After após falhas repetidas)",
           .body = {.description = "email e senha", .content_type = "application/x-www-form-urlencoded",
                    .max_bytes = 8192, .schema = schemas::ref("LoginSenha")},
           .answer_schema = schemas::ref("RespostaLogin"), .handler = service::unscoped(logins, &Logins::password)});
  srv.add({.method = "POST", .pattern = "/login-provider", .auth = "none", .tag = kTag,
           .summary = "Entra como usuário de um prestador de serviços, em um município que o prestador atende",
           .body = {.description = "email, senha e idTenant (quando o prestador atende mais de um município)",
                    .content_type = "application/x-www-form-urlencoded", .max_bytes = 8192,
                    .schema = schemas::ref("LoginPrestador")},
           .answer_schema = schemas::ref("RespostaLogin"), .handler = service::unscoped(logins, &Logins::provider)});
  srv.add({.method = "POST", .pattern = "/login/LDAP", .auth = "none", .tag = kTag,
           .summary = "Entra com as credenciais do diretório LDAP (o diretório indica o município)",
           .body = {.description = R"({"username", "password", "municipio"?})", .max_bytes = 8192,
                    .schema = schemas::ref("LoginDiretorio")},
           .answer_schema = schemas::ref("RespostaLogin"), .handler = service::unscoped(logins, &Logins::ldap)});
  srv.add({.method = "POST", .pattern = "/login/oAuth", .auth = "none", .tag = kTag,
           .summary = "Entra com um id_token OpenID Connect do provedor configurado (sub = uid, email = email)",
           .body = {.description = R"({"email", "uid", "id_token"})", .max_bytes = 16384,
                    .schema = schemas::ref("LoginOidc")},
           .answer_schema = schemas::ref("RespostaLogin"), .handler = service::unscoped(logins, &Logins::oauth)});
  srv.add({.method = "GET", .pattern = "/oAuth", .auth = "sessao_opcional", .access = http::members("com a sessão de um administrador, ou do próprio e-mail, as formas de entrada da conta; sem ela, as que a plataforma oferece"), .tag = kTag,
           .summary = "Formas de entrada de um e-mail (a quem não é administrador, as que a plataforma oferece)",
           .params = {{.name = "email", .required = true, .description = "o e-mail"}},
           .answer_schema = schemas::ref("FormasDeEntrada"), .handler = service::unscoped(logins, &Logins::methods)});
  srv.add({.method = "POST", .pattern = "/logout", .auth = "sessao", .access = http::members("a própria sessão"), .tag = kTag,
           .summary = "Encerra a sessão (o token deixa de valer na hora, e o socket da sessão é fechado)",
           .answers = "", .answer_status = 204,
           .handler = service::scoped([logins](const service::Scope& s, Request& r) { return logins->logout(s, r); })});
}

}  // namespace cadastre::platform
