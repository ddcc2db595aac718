#include "platform/projects/store_catalog.hpp"

#include <soci/soci.h>

#include <string>

namespace cadastre::platform::projects {
namespace {

// The active published projects of a tenant: [{"id","nome","descricao"}].
std::string published_projects(store::Pool& tenant_db) {
  return tenant_db.with([&](soci::session& s) {
    std::string out;
    s << "select coalesce(jsonb_agg(jsonb_build_object('id', id, 'nome', nome, 'descricao', descricao) order by id), "
         "'[]')::text from projeto.projetos where publicado and ativo",
        soci::into(out);
    return out;
  });
}

// Only rows that change are written (a list does not rewrite the catalog each time).
void sync_tenant(store::Pool& platform, std::int64_t tenant_id, const std::string& tenant_nome,
                 const std::string& projects) {
  platform.with([&](soci::session& s) {
    long long t = tenant_id;
    std::string org = tenant_nome.substr(0, 200);
    s << "with p as (select * from jsonb_to_recordset(:j::jsonb) as x(id bigint, nome text, descricao text)), "
         "ins as (insert into plataforma.wikimap_mapas (tenant_id, projeto_id, titulo, descricao, organizacao) "
         "  select :t, p.id, p.nome, p.descricao, :o from p "
         "  on conflict (tenant_id, projeto_id) do update set publicado = true, "
         "    titulo = case when wikimap_mapas.editado then wikimap_mapas.titulo else excluded.titulo end, "
         "    descricao = case when wikimap_mapas.editado then wikimap_mapas.descricao else excluded.descricao end, "
         "    atualizado_em = now() "
         "  where not wikimap_mapas.publicado or (not wikimap_mapas.editado and (wikimap_mapas.titulo, "
         "    wikimap_mapas.descricao) is distinct from (excluded.titulo, excluded.descricao))) "
         "update plataforma.wikimap_mapas m set publicado = false, atualizado_em = now() "
         "where m.tenant_id = :t2 and m.publicado and m.projeto_id not in (select id from p)",
        soci::use(projects), soci::use(t), soci::use(org), soci::use(t);
  });
}

}  // namespace

void refresh_catalog(store::Pool& platform, const service::Caller& caller) {
  sync_tenant(platform, caller.tenant.id, caller.tenant.nome, published_projects(*caller.db));
}

}  // namespace cadastre::platform::projects
