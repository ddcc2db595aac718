// POST /ldap/login/: login with directory credentials. The password is checked by a bind
// to the configured LDAP directory (server/ldap/directory.hpp); the directory also says
// which municipality the user belongs to, through membership of a group
// cn=<group_prefix><slug>. On success the user is found (or, on first login, created
// without a password) in the identity store and gets a fresh session token, exactly as
// the identity platform issues them.
//
// Answers: 200 {"auth_token", "usuario", "municipio"}; 401 for credentials the directory
// refuses (empty password included: it would be an anonymous bind); 403 when the
// directory grants no municipality or the identity store keeps the user elsewhere or
// inactive; 502/504 when the directory fails or is slow; 503 when no directory is
// configured (after the body was found well-formed: 400 otherwise).
#include <simdjson.h>
#include <soci/soci.h>

#include <algorithm>
#include <cctype>

#include "cadastre/json.hpp"
#include "core/json_in.hpp"
#include "server/app.hpp"
#include "server/ldap/directory.hpp"

namespace cadastre::server {
namespace {

constexpr std::size_t kMaxUsername = 256;
constexpr std::size_t kMaxPassword = 1024;

struct LoginInput {
  std::string username, password, municipio;
};

LoginInput parse_login(const std::string& body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, _] : root)
    if (key != "username" && key != "password" && key != "municipio")
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  LoginInput in{jsonin::string(root, "username"), jsonin::string(root, "password"),
                jsonin::opt_string(root, "municipio").value_or("")};
  return in;
}

[[noreturn]] void refuse() {
  throw Error(errc::unauthenticated, "usuário ou senha inválidos no diretório");
}

// The tenant the directory grants: the one named in the body (which must be among the
// user's groups) or the only one the user has.
store::Tenant granted_tenant(App& app, const LdapOptions& o, const ldap::DirectoryUser& du,
                             const std::string& wanted) {
  std::vector<store::Tenant> granted;
  for (const auto& cn : du.groups) {
    std::string slug = cn.substr(o.group_prefix.size());
    bool plausible =
        !slug.empty() && slug.size() <= 63 && std::islower(static_cast<unsigned char>(slug[0])) &&
        slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
    if (!plausible) continue;
    if (auto t = app.identity().tenant(slug); t && t->ativo) granted.push_back(std::move(*t));
  }
  if (granted.empty())
    throw Error(errc::forbidden,
                "o diretório não concede acesso ao cadastro de nenhum município a este usuário");
  if (!wanted.empty()) {
    for (auto& t : granted)
      if (t.slug == wanted) return t;
    throw Error(errc::tenant_forbidden, "o diretório não concede acesso ao município " + wanted);
  }
  if (granted.size() > 1)
    throw Error(errc::missing_field,
                "o usuário pertence a mais de um município no diretório: informe municipio",
                "municipio");
  return granted.front();
}

struct StoredUser {
  std::int64_t id = 0, tenant_id = 0;
  bool ativo = false, adm = false, criado = false;
  std::string email, nome;
};

// Finds the user by email, creating them (no password: they log in through the
// directory) when absent. Existing users keep their tenant, flags and permissions.
StoredUser find_or_create(App& app, const ldap::DirectoryUser& du, const store::Tenant& tenant) {
  StoredUser u = app.identity().pool().with([&](soci::session& s) {
    StoredUser out;
    long long id = 0, tid = tenant.id;
    s << "insert into plataforma.usuarios (tenant_id, email, nome) values (:t, :e, :n) "
         "on conflict (email) do nothing returning id",
        soci::use(tid), soci::use(du.mail), soci::use(du.nome), soci::into(id);
    out.criado = s.got_data();
    int ativo = 0, adm = 0;
    s << "select id, tenant_id, ativo::int, adm::int, email, nome from plataforma.usuarios where "
         "lower(email) = lower(:e)",
        soci::use(du.mail), soci::into(id), soci::into(tid), soci::into(ativo), soci::into(adm),
        soci::into(out.email), soci::into(out.nome);
    out.id = id;
    out.tenant_id = tid;
    out.ativo = ativo != 0;
    out.adm = adm != 0;
    return out;
  });
  if (u.criado && !app.options().ldap.new_user_permission.empty()) {
    const std::string& rule = app.options().ldap.new_user_permission;
    auto colon = rule.find(':');
    std::string mode = colon == std::string::npos ? "r" : rule.substr(colon + 1);
    app.identity().set_permission(u.email, rule.substr(0, colon),
                                  mode.find('r') != std::string::npos,
                                  mode.find('w') != std::string::npos);
  }
  return u;
}

http::Response login(App& app, const http::Request& req) {
  // The body first: a malformed one is a 400 whether or not a directory is configured.
  LoginInput in = parse_login(req.body);
  const LdapOptions& o = app.options().ldap;
  if (o.uri.empty())
    throw Error(errc::unavailable,
                "login por diretório não configurado neste servidor (--ldap-uri)");
  // Control characters never belong to a directory name; an empty password would be an
  // unauthenticated (anonymous) bind that the directory may accept.
  bool control = std::any_of(in.username.begin(), in.username.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (in.password.empty() || in.username.empty() || control || in.username.size() > kMaxUsername ||
      in.password.size() > kMaxPassword)
    refuse();

  auto du = ldap::authenticate(o, in.username, in.password);
  if (!du) refuse();
  if (du->mail.empty())
    throw Error(errc::forbidden, "o diretório não informa o e-mail (atributo mail) deste usuário");
  store::Tenant tenant = granted_tenant(app, o, *du, in.municipio);

  StoredUser u = find_or_create(app, *du, tenant);
  if (!u.ativo) throw Error(errc::forbidden, "usuário desativado na plataforma");
  if (u.tenant_id != tenant.id)
    throw Error(errc::tenant_forbidden,
                "o usuário está cadastrado em outro município na plataforma");
  std::string token = app.identity().issue_token(u.email);

  JsonWriter w;
  w.begin_object().key("auth_token").value(token);
  w.key("usuario")
      .begin_object()
      .key("id")
      .value(u.id)
      .key("email")
      .value(u.email)
      .key("nome")
      .value(u.nome);
  w.key("adm").value(u.adm).key("criado").value(u.criado).end_object();
  w.key("municipio").begin_object().key("id").value(tenant.id).key("slug").value(tenant.slug);
  w.key("nome").value(tenant.nome).end_object();
  w.end_object();
  return http::Response::json(std::move(w).str());
}

}  // namespace

void add_ldap_routes(App& app) {
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
       .handler = [&app](http::Request& req) { return login(app, req); }});
}

}  // namespace cadastre::server
