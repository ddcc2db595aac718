#include "platform/tenants/store.hpp"

#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "service/tenant_config.hpp"

namespace cadastre::platform::tenants {

std::string config(store::Pool& pool, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    std::string tenant, cfg;
    long long tid = tenant_id;
    s << "select json_build_object('id', id, 'slug', slug, 'nome', nome, 'uf', uf, 'codigoIbge', codigo_ibge, "
         "'fusoHorario', fuso_horario)::text, config::text from plataforma.tenants where id = :t",
        soci::use(tid), soci::into(tenant), soci::into(cfg);
    JsonWriter w;
    w.begin_object().key("tenant").raw(tenant).key("config").raw(service::tenant_config::public_view(cfg));
    return std::move(w.end_object()).str();
  });
}

void change_config(store::Pool& pool, std::int64_t tenant_id, std::int64_t user, const std::string& changes) {
  pool.run([&](soci::session& s) {
    soci::transaction tx(s);
    long long tid = tenant_id, uid = user;
    std::string before;
    s << "select config::text from plataforma.tenants where id = :t for update", soci::use(tid), soci::into(before);
    const std::string after = service::tenant_config::merged(before, changes);
    s << "update plataforma.tenants set config = :c::jsonb where id = :t", soci::use(after), soci::use(tid);
    const std::string shown_before = service::tenant_config::public_view(before),
                      shown_after = service::tenant_config::public_view(after);
    s << "insert into plataforma.configuracoes_auditoria (tenant_id, usuario_id, antes, depois) "
         "values (:t, :u, :a::jsonb, :d::jsonb)",
        soci::use(tid), soci::use(uid), soci::use(shown_before), soci::use(shown_after);
    tx.commit();
  });
}

}  // namespace cadastre::platform::tenants
