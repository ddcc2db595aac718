#include "platform/audit/store.hpp"

#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::audit {

std::string user_names(store::Pool& platform, std::int64_t tenant_id) {
  store::Sql q("select coalesce(json_object_agg(id, nome), '{}')::text from plataforma.usuarios where tenant_id = ");
  q.bind(std::to_string(tenant_id), "bigint") << " or adm_plataforma";
  return platform.with([&](soci::session& db) { return store::fetch_value(db, q).value_or("{}"); });
}

std::string rows(const service::Caller& s, const AuditQuery& q, bool whole_tenant, const std::string& names) {
  auto ms = [](store::Sql& sql, std::int64_t v) {
    sql << "(timestamptz 'epoch' + ";
    sql.bind(std::to_string(v), "bigint") << " * interval '1 millisecond')";
  };
  store::Sql sql(
      "select coalesce(json_agg(x.r order by x.em desc, x.id desc), '[]')::text from (select a.id, a.em, "
      "json_build_object('id', a.id, 'idGeometria', a.geometria_id, 'idCamada', a.camada_id, 'idProjeto', "
      "c.projeto_id, 'operacao', a.operacao, 'versao', a.versao, 'antes', a.antes, 'depois', a.depois, "
      "'idUsuario', a.usuario_id, 'nomeUsuario', ");
  sql.bind(names, "jsonb") << " ->> a.usuario_id::text, "
      "'em', a.em, 'emLong', floor(extract(epoch from a.em) * 1000)::bigint) as r "
      "from projeto.geometrias_auditoria a left join projeto.camadas c on c.id = a.camada_id where a.em >= ";
  ms(sql, q.inicio_ms);
  sql << " and a.em < ";
  ms(sql, q.fim_ms + 1);  // the final millisecond included, with its microseconds
  if (q.projeto) sql << " and c.projeto_id = ", sql.bind(std::to_string(*q.projeto), "bigint");
  if (q.camada) sql << " and a.camada_id = ", sql.bind(std::to_string(*q.camada), "bigint");
  if (q.usuario) sql << " and a.usuario_id = ", sql.bind(std::to_string(*q.usuario), "bigint");
  // Rows of deleted layers have no project left to check: only the tenant's administrators see them.
  if (!whole_tenant) sql << " and " << guard::layer_role_sql(s, "a.camada_id") << " is not null";
  sql << " order by a.em desc, a.id desc limit ";
  sql.bind(std::to_string(q.limite), "bigint") << ") x";
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, sql).value_or("[]"); });
}

}  // namespace cadastre::platform::audit
