#include "platform/layers/store_events.hpp"

#include <soci/soci.h>

#include <map>
#include <utility>

#include "store/sql.hpp"

namespace cadastre::platform::layers {

std::vector<Viewer> open_sessions(store::Pool& platform, std::int64_t tenant_id,
                                  std::optional<std::int64_t> user_id) {
  // The conditions of the session check (store/identity.cpp, fetch_session): not revoked,
  // not expired nor idle too long, user and tenant active, and a provider's user only while
  // the provider is active and still granted this tenant. Administrators as the guard
  // counts them (guard/store.cpp, caller_args): a provider's user never is one.
  store::Sql q(
      "select s.id::text, u.id::text, (u.provedor_id is null and (u.adm or u.adm_plataforma))::text "
      "from plataforma.sessoes s join plataforma.usuarios u on u.id = s.usuario_id "
      "  join plataforma.tenants t on t.id = s.tenant_id "
      "  left join plataforma.provedores p on p.id = u.provedor_id "
      "  left join plataforma.provedor_tenants pt on pt.provedor_id = u.provedor_id and pt.tenant_id = s.tenant_id "
      "where s.tenant_id = ");
  q.bind(std::to_string(tenant_id), "bigint");
  q << " and s.revogada_em is null and s.expira_em > now() "
       "and (s.ociosa_max is null or s.usada_em + s.ociosa_max > now()) "
       "and u.ativo and t.ativo and (u.tenant_id = s.tenant_id or (p.ativo and pt.tenant_id is not null))";
  if (user_id) q << " and s.usuario_id = ", q.bind(std::to_string(*user_id), "bigint");
  // Prepared once per connection (a plan for any tenant): every write a layer's viewers
  // see asks it.
  auto rows = platform.with([&](soci::session& db) { return store::fetch(db, q.reuse_plan()); });
  std::vector<Viewer> out;
  out.reserve(rows.size());
  for (const store::Row& r : rows) out.push_back({std::stoll(*r[0]), std::stoll(*r[1]), *r[2] == "true"});
  return out;
}

std::vector<std::int64_t> sessions_seeing(const service::Caller& s, std::int64_t layer_id,
                                          const std::vector<Viewer>& viewers) {
  if (viewers.empty()) return {};
  // One papel_camada call per distinct (user, admin), not per session: a user often holds
  // several sessions (phone and desktop).
  std::map<std::pair<std::int64_t, bool>, std::vector<std::int64_t>> by_user;
  for (const Viewer& v : viewers) by_user[{v.user, v.admin}].push_back(v.session);
  std::string users = "{", admins = "{";
  for (const auto& [who, sessions] : by_user) {
    users += (users.size() > 1 ? "," : "") + std::to_string(who.first);
    admins += std::string(admins.size() > 1 ? "," : "") + (who.second ? "t" : "f");
  }
  store::Sql q("select x.u::text, x.a::text from unnest(");
  q.bind(users + "}", "bigint[]"), q << ", ", q.bind(admins + "}", "boolean[]");
  q << ") as x(u, a) where projeto.papel_camada(", q.bind(std::to_string(layer_id), "bigint");
  q << ", x.u, x.a) is not null";
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q.reuse_plan()); });
  std::vector<std::int64_t> out;
  for (const store::Row& r : rows) {
    const auto& sessions = by_user[{std::stoll(*r[0]), *r[1] == "true"}];
    out.insert(out.end(), sessions.begin(), sessions.end());
  }
  return out;
}

std::optional<LayerStamp> layer_stamp(const service::Caller& s, std::int64_t layer_id) {
  store::Sql q("select projeto_id::text, geracao::text from projeto.camadas where id = ");
  q.bind(std::to_string(layer_id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) return std::nullopt;
  return LayerStamp{std::stoll(*rows[0][0]), std::stoll(*rows[0][1])};
}

}  // namespace cadastre::platform::layers
