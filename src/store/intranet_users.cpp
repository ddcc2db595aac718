#include "store/intranet_users.hpp"

#include <soci/soci.h>

namespace cadastre::store {

std::optional<Principal> IntranetUsers::find(std::string_view email, std::string_view tenant_slug) {
  std::string mail(email), slug(tenant_slug);
  return pool_.with([&](soci::session& s) -> std::optional<Principal> {
    Principal p;
    long long uid = 0, tid = 0;
    int adm = 0;
    s << "select u.id, u.email, u.nome, u.tenant_id, t.slug, u.adm::int "
         "from plataforma.usuarios u join plataforma.tenants t on t.id = u.tenant_id "
         "where u.ativo and t.ativo and lower(u.email) = lower(:e) and t.slug = :s",
        soci::into(uid), soci::into(p.email), soci::into(p.nome), soci::into(tid), soci::into(p.tenant_slug),
        soci::into(adm), soci::use(mail), soci::use(slug);
    if (!s.got_data()) return std::nullopt;
    p.user_id = uid;
    p.tenant_id = tid;
    p.admin = adm != 0;
    return p;
  });
}

}  // namespace cadastre::store
