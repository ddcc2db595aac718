#include "platform/projects/store_shares.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/guard/guard.hpp"
#include "platform/projects/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::projects {
namespace {

// {"<id>": {"nome","email"}} of the tenant's users among `ids` (comma-separated numbers).
std::string names(store::Pool& platform, std::int64_t tenant, const std::string& ids) {
  store::Sql q("select coalesce(jsonb_object_agg(id::text, jsonb_build_object('nome', nome, 'email', email)), "
               "'{}')::text from plataforma.usuarios where tenant_id = " + std::to_string(tenant) +
               " and id = any(string_to_array(");
  q.bind(ids) << ", ',')::bigint[])";
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("{}"); });
}

// The shares of `project` (only `user`'s when non-zero), named with `names_json`.
std::string compose(soci::session& s, std::int64_t project, std::int64_t user, const std::string& names_json) {
  store::Sql q("select coalesce(jsonb_agg(jsonb_build_object('idUsuario', u.usuario_id, "
               "'nome', n.d->(u.usuario_id::text)->>'nome', 'email', n.d->(u.usuario_id::text)->>'email', "
               "'papel', u.papel, 'concedidoPor', u.concedido_por, 'concedidoEm', u.concedido_em) "
               "order by u.usuario_id), '[]')::text from projeto.projeto_usuarios u, (select ");
  q.bind(names_json, "jsonb") << " as d) n where u.projeto_id = " << std::to_string(project);
  if (user) q << " and u.usuario_id = " << std::to_string(user);
  return store::fetch_value(s, q).value_or("[]");
}

}  // namespace

bool is_active_user(store::Pool& platform, std::int64_t tenant, std::int64_t user) {
  store::Sql q("select 1 from plataforma.usuarios where ativo and id = " + std::to_string(user) + " and tenant_id = " + std::to_string(tenant));
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q).has_value(); });
}

std::string shares(const service::Caller& scope, store::Pool& platform, std::int64_t project) {
  store::Sql ids_q("select coalesce(string_agg(usuario_id::text, ','), '') from projeto.projeto_usuarios "
                   "where projeto_id = " + std::to_string(project));
  std::string ids = scope.db->with([&](soci::session& s) { return store::fetch_value(s, ids_q).value_or(""); });
  std::string who = ids.empty() ? "{}" : names(platform, scope.tenant.id, ids);
  return scope.db->with([&](soci::session& s) { return compose(s, project, 0, who); });
}

std::pair<bool, std::string> upsert_share(const service::Caller& scope, store::Pool& platform, const Share& sh) {
  if (sh.user == scope.user.user_id)
    throw Error(errc::conflict, "ninguém altera o próprio papel no projeto", "idUsuario");
  if (!is_active_user(platform, scope.tenant.id, sh.user))
    throw Error(errc::not_found, "usuário " + std::to_string(sh.user) + " não encontrado entre os ativos do município", "idUsuario");
  std::string who = names(platform, scope.tenant.id, std::to_string(sh.user));
  return scope.db->with([&](soci::session& s) {
    soci::transaction tx(s);
    store::Sql owner("select criado_por::text from projeto.projetos where id = " + std::to_string(sh.project) + " for update");
    if (store::fetch_value(s, owner) == std::to_string(sh.user))
      throw Error(errc::conflict, "o usuário " + std::to_string(sh.user) + " criou o projeto e já é admin dele", "idUsuario");
    auto before = store::fetch_value(
        s, store::Sql("select papel from projeto.projeto_usuarios where projeto_id = " + std::to_string(sh.project) +
                      " and usuario_id = " + std::to_string(sh.user)));
    store::Sql up("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" +
                  std::to_string(sh.project) + ", " + std::to_string(sh.user) + ", ");
    up.bind(sh.papel) << ", " << std::to_string(scope.user.user_id)
                      << ") on conflict (projeto_id, usuario_id) do update set papel = excluded.papel, "
                         "concedido_por = excluded.concedido_por, concedido_em = now()";
    store::execute(s, up);
    JsonWriter d;
    d.begin_object().key("idUsuario").value(sh.user).key("papel").value(sh.papel).key("papelAnterior");
    if (before) d.value(*before);
    else d.null();
    d.end_object();
    record_event(s, sh.project, "compartilhar", d.str(), scope.user.user_id);
    std::string row = compose(s, sh.project, sh.user, who);
    tx.commit();
    return std::pair{!before.has_value(), row.substr(1, row.size() - 2)};  // the one element
  });
}

void remove_share(const service::Caller& scope, std::int64_t project, std::int64_t user) {
  scope.db->run([&](soci::session& s) {
    soci::transaction tx(s);
    auto before = store::fetch_value(
        s, store::Sql("delete from projeto.projeto_usuarios where projeto_id = " + std::to_string(project) +
                      " and usuario_id = " + std::to_string(user) + " returning papel"));
    if (!before)
      throw Error(errc::not_found, "o usuário " + std::to_string(user) + " não tem compartilhamento neste projeto", "idUsuario");
    JsonWriter d;
    d.begin_object().key("idUsuario").value(user).key("papelAnterior").value(*before).end_object();
    record_event(s, project, "descompartilhar", d.str(), scope.user.user_id);
    tx.commit();
  });
}

std::string users_of_domain(const service::Caller& scope, store::Pool& platform, const std::string& domain) {
  store::Sql uq("select coalesce(jsonb_agg(jsonb_build_object('id', id, 'nome', nome, 'email', email, 'adm', adm) "
                "order by nome, id), '[]')::text from plataforma.usuarios where ativo and tenant_id = " +
                std::to_string(scope.tenant.id) + " and lower(split_part(email, '@', 2)) = ");
  uq.bind(domain);
  std::string users = platform.with([&](soci::session& s) { return store::fetch_value(s, uq).value_or("[]"); });
  // Each user's role on each project the caller administers, by the same rule set as the guard.
  store::Sql q("with mine as (select p.id, p.nome from projeto.projetos p where " +
               guard::project_role_sql(scope, "p.id") +
               " = 'admin') select coalesce(jsonb_agg((u.j - 'adm') || jsonb_build_object('projetos', "
               "coalesce((select jsonb_agg(jsonb_build_object('id', m.id, 'nome', m.nome, 'papel', "
               "projeto.papel_projeto(m.id, (u.j->>'id')::bigint, (u.j->>'adm')::boolean)) order by m.id) from mine m), "
               "'[]')) order by u.o), '[]')::text from jsonb_array_elements(");
  q.bind(users, "jsonb") << ") with ordinality u(j, o)";
  return scope.db->with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}


}  // namespace cadastre::platform::projects
