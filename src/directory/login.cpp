#include "directory/login.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "cadastre/error.hpp"
#include "directory/directory.hpp"
#include "text/text.hpp"

namespace cadastre::directory {
namespace {

constexpr std::size_t kMaxUsername = 256;
constexpr std::size_t kMaxPassword = 1024;

[[noreturn]] void refuse() {
  throw Error(errc::unauthenticated, "usuário ou senha inválidos no diretório");
}

// The tenant the directory grants: the one named in the body (which must be among the
// user's groups) or the only one the user has.
store::Tenant granted_tenant(const Login& login, const DirectoryUser& du, const std::string& wanted) {
  std::vector<store::Tenant> granted;
  for (const auto& cn : du.groups) {
    std::string slug = cn.substr(login.options.group_prefix.size());
    bool plausible =
        !slug.empty() && slug.size() <= 63 && std::islower(static_cast<unsigned char>(slug[0])) &&
        slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
    if (!plausible) continue;
    if (auto t = login.identity.tenant(slug); t && t->ativo) granted.push_back(std::move(*t));
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

}  // namespace

bool Credentials::plausible() const {
  bool control = std::any_of(username.begin(), username.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  return !password.empty() && !username.empty() && !control && username.size() <= kMaxUsername &&
         password.size() <= kMaxPassword;
}

Login::Login(const LdapOptions& o, store::Identity& id, store::SecretChecks& c, store::SessionLimits l)
    : options(o), identity(id), checks(c), limits(l) {
  if (!o.new_user_permission.empty()) new_user_rule = store::parse_layer_permission(o.new_user_permission);
}

Session log_in(const Login& login, const Credentials& in, const store::SessionOrigin& origin) {
  if (login.options.uri.empty())
    throw Error(errc::unavailable,
                "login por diretório não configurado neste servidor (--ldap-uri)");
  if (!in.plausible()) refuse();
  // " fiscal", "Fiscal" and "fiscal" are one directory user: one name to bind, one key.
  const std::string user = text::fold_identifier(in.username);
  if (user.empty()) refuse();
  auto du = login.checks.run({"ldap:" + user, origin.address}, [&] {
    auto found = authenticate(login.options, user, in.password);
    if (!found) refuse();
    return found;
  });
  if (du->mail.empty())
    throw Error(errc::forbidden, "o diretório não informa o e-mail (atributo mail) deste usuário");
  Session out;
  out.tenant = granted_tenant(login, *du, in.municipio);
  // Existing users keep their tenant, flags and permissions.
  out.user = login.identity.find_or_create_user(out.tenant.id, du->mail, du->nome);
  if (out.user.created && login.new_user_rule) login.identity.set_permission(out.user.email, *login.new_user_rule);
  if (!out.user.ativo) throw Error(errc::forbidden, "usuário desativado na plataforma");
  if (out.user.tenant_id != out.tenant.id)
    throw Error(errc::tenant_forbidden,
                "o usuário está cadastrado em outro município na plataforma");
  store::SessionOrigin ldap = origin;
  ldap.kind = "ldap";
  out.token = login.identity.open_session(principal_of(out), login.limits, ldap);
  return out;
}

store::Principal principal_of(const Session& s) {
  store::Principal who;
  who.user_id = s.user.id;
  who.email = s.user.email;
  who.nome = s.user.nome;
  who.tenant_id = s.tenant.id;
  who.tenant_slug = s.tenant.slug;
  who.admin = s.user.admin;
  return who;
}

}  // namespace cadastre::directory
