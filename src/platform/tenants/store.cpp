#include "platform/tenants/store.hpp"

#include <soci/soci.h>

namespace cadastre::platform::tenants {

std::string config(store::Pool& pool, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    std::string out;
    long long tid = tenant_id;
    s << "select json_build_object('tenant', json_build_object('id', id, 'slug', slug, 'nome', nome, 'uf', uf, "
         "'codigoIbge', codigo_ibge, 'fusoHorario', fuso_horario), 'config', config)::text "
         "from plataforma.tenants where id = :t",
        soci::use(tid), soci::into(out);
    return out;
  });
}

void set_config(store::Pool& pool, std::int64_t tenant_id, const std::string& json) {
  pool.run([&](soci::session& s) {
    long long tid = tenant_id;
    s << "update plataforma.tenants set config = :c::jsonb where id = :t", soci::use(json), soci::use(tid);
  });
}

}  // namespace cadastre::platform::tenants
