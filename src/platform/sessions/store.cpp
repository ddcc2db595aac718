#include "platform/sessions/store.hpp"

#include <soci/soci.h>

#include "platform/licenses/store.hpp"

namespace cadastre::platform::sessions {

LoginFacts login_facts(store::Pool& pool, std::int64_t user_id, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    LoginFacts f;
    long long uid = user_id, tid = tenant_id, empresa = 0;
    int publico = 0;
    s << "select coalesce(u.empresa_id, (select e.id from plataforma.empresas e where e.tenant_id = :t), 0), "
         "u.publico::int from plataforma.usuarios u where u.id = :u",
        soci::use(tid), soci::use(uid), soci::into(empresa), soci::into(publico);
    f.empresa_id = empresa;
    f.publico = publico != 0;
    f.license_status = licenses::current_status(s, tenant_id);
    return f;
  });
}

std::optional<ProviderAccount> provider_account(store::Pool& pool, const std::string& email) {
  return pool.with([&](soci::session& s) -> std::optional<ProviderAccount> {
    ProviderAccount a;
    long long uid = 0, pid = 0;
    int active = 0;
    soci::indicator hash_ind;
    s << "select u.id, u.provedor_id, u.email, u.nome, u.senha_hash, (u.ativo and p.ativo)::int "
         "from plataforma.usuarios u join plataforma.provedores p on p.id = u.provedor_id "
         "where lower(u.email) = lower(:e)",
        soci::use(email), soci::into(uid), soci::into(pid), soci::into(a.email), soci::into(a.nome),
        soci::into(a.password_hash, hash_ind), soci::into(active);
    if (!s.got_data()) return std::nullopt;
    if (hash_ind != soci::i_ok) a.password_hash.clear();
    a.user_id = uid;
    a.provider_id = pid;
    a.active = active != 0;
    soci::rowset<long long> rs = (s.prepare << "select pt.tenant_id from plataforma.provedor_tenants pt "
                                               "join plataforma.tenants t on t.id = pt.tenant_id "
                                               "where pt.provedor_id = :p and t.ativo order by pt.tenant_id",
                                  soci::use(pid));
    for (long long id : rs) a.tenants.push_back(id);
    return a;
  });
}

std::optional<store::Principal> active_user(store::Pool& pool, const std::string& email) {
  return pool.with([&](soci::session& s) -> std::optional<store::Principal> {
    store::Principal p;
    long long uid = 0, tid = 0;
    int adm = 0, adm_plataforma = 0;
    s << "select u.id, u.email, u.nome, t.id, t.slug, u.adm::int, u.adm_plataforma::int "
         "from plataforma.usuarios u join plataforma.tenants t on t.id = u.tenant_id "
         "where lower(u.email) = lower(:e) and u.ativo and t.ativo",
        soci::use(email), soci::into(uid), soci::into(p.email), soci::into(p.nome), soci::into(tid),
        soci::into(p.tenant_slug), soci::into(adm), soci::into(adm_plataforma);
    if (!s.got_data()) return std::nullopt;
    p.user_id = uid;
    p.tenant_id = tid;
    p.admin = adm != 0;
    p.platform_admin = adm_plataforma != 0;
    return p;
  });
}

std::vector<std::string> sign_in_methods(store::Pool& pool, const std::string& email, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    std::vector<std::string> out;
    long long tid = tenant_id;
    soci::rowset<std::string> rs =
        (s.prepare << "select m from plataforma.usuarios u, lateral ("
                      "  select 'senha' as m where u.senha_hash is not null "
                      "  union select distinct origem from plataforma.sessoes where usuario_id = u.id "
                      "    and origem in ('ldap', 'oauth')) x "
                      "where lower(u.email) = lower(:e) and u.tenant_id = :t order by m",
         soci::use(email), soci::use(tid));
    for (const auto& m : rs) out.push_back(m);
    return out;
  });
}

}  // namespace cadastre::platform::sessions
