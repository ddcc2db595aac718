#include "platform/guard/accounts.hpp"

#include <stdexcept>

#include "cadastre/error.hpp"
#include "platform/guard/store.hpp"

namespace cadastre::platform::guard {

Reach reach(const service::Caller& s) noexcept {
  if (s.user.platform_admin) return Reach::platform;
  return s.user.admin ? Reach::tenant : Reach::own;
}

void require_reach(const service::Scope& s, Reach needed) {
  if (reach(s) >= needed) return;
  throw Error(errc::forbidden, needed == Reach::platform ? "somente administradores da plataforma"
                                                         : "somente administradores do município");
}

void require_not_public(store::Pool& platform, const service::Scope& s, std::string_view why) {
  if (is_public(platform, s.user.user_id)) throw Error(errc::forbidden, std::string(why));
}

void require_administers_a_project(const service::Scope& s, std::string_view why) {
  if (reach(s) >= Reach::tenant || administers_a_project(s)) return;
  throw Error(errc::forbidden, std::string(why));
}

bool is_account_record(std::string_view record) noexcept { return record == "usuario" || record == "comentario"; }

service::Grant require_account(store::Pool& platform, const service::Scope& s, std::string_view record,
                               std::int64_t id, std::string_view role, std::string_view field) {
  if (!is_account_record(record) || (role != "proprio" && role != "admin"))
    throw std::logic_error("permissão de conta mal declarada: " + std::string(record) + " " + std::string(role));
  std::optional<Account> a = locate_account(platform, record, id);
  const bool user = record == "usuario";
  // A user is known only in the tenant the session acts in; a comment on any map.
  if (!a || (user && a->tenant_id != s.tenant.id))
    throw Error(errc::not_found, std::string(user ? "usuário" : "comentário") + " não encontrado", std::string(field));
  const Reach r = reach(s);
  const bool administers = r == Reach::platform || (r == Reach::tenant && a->tenant_id == s.tenant.id);
  const bool own = a->owner_id == s.user.user_id;
  if (role == "proprio" && !own && !administers)
    throw Error(errc::forbidden, user ? "somente administradores veem outros usuários"
                                      : "somente o autor ou um administrador exclui o comentário",
                std::string(field));
  if (role == "admin") {
    if (!administers) throw Error(errc::forbidden, "somente administradores do município", std::string(field));
    if (a->platform_admin && r != Reach::platform)
      throw Error(errc::forbidden, "somente administradores da plataforma alteram um administrador da plataforma",
                  std::string(field));
  }
  service::Grant g;
  g.record = std::string(record);
  g.id = id;
  g.role = own && role == "proprio" ? "proprio" : "admin";
  return g;
}

}  // namespace cadastre::platform::guard
