// The SQL of the jobs' places in the queue (plataforma.tarefas, platform migration 0013):
// see store.hpp and jobs.hpp.
#include <soci/soci.h>

#include "platform/jobs/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::jobs::queue {
namespace {

using store::Sql;

// The advisory lock claimers take turns under (pg_advisory_xact_lock), so the per-tenant
// cap is counted and taken in one step across instances: "tarefas" in ASCII.
constexpr const char* kClaimLock = "7461726566617300";

std::string number(std::int64_t v) { return std::to_string(v); }

}  // namespace

void add(soci::session& s, std::int64_t tenant, std::int64_t job, const std::string& lane, const std::string& handler,
         const std::optional<std::string>& entrada, std::optional<std::int64_t> after) {
  Sql q("insert into plataforma.tarefas (tenant_id, importacao_id, fila, tipo, entrada, posicao) values (");
  q.bind(number(tenant), "bigint"), q << ", ", q.bind(number(job), "bigint"), q << ", ", q.bind(lane);
  q << ", ", q.bind(handler), q << ", ", q.bind(entrada), q << ", ";
  if (after) {  // the predecessor's place, itself perhaps inherited
    q << "(select coalesce(p.posicao, p.id) from plataforma.tarefas p where p.id = ";
    q.bind(number(*after), "bigint") << ")";
  } else {
    q << "null";
  }
  q << ") on conflict (tenant_id, importacao_id) do nothing";
  store::execute(s, q);
}

std::optional<Claim> claim(soci::session& s, const std::string& lane, const std::vector<std::string>& handlers,
                           const std::string& holder, std::chrono::seconds lease, int per_tenant) {
  soci::transaction tx(s);
  store::fetch(s, Sql(std::string("select pg_advisory_xact_lock(x'") + kClaimLock + "'::bigint)::text"));
  Sql q("with escolhida as (select t.id from plataforma.tarefas t where t.fila = ");
  q.bind(lane), q << " and t.tipo = any(", q.bind(store::text_array(handlers), "text[]");
  q << ") and (t.estado = 'pendente' or t.prazo < now()) and (select count(*) from plataforma.tarefas r "
       "where r.tenant_id = t.tenant_id and r.fila = t.fila and r.estado = 'executando' and r.prazo >= now()) < ";
  q.bind(std::to_string(per_tenant), "integer");
  q << " order by (select u.turno from plataforma.tarefas_turnos u where u.tenant_id = t.tenant_id and u.fila = "
       "t.fila) nulls first, coalesce(t.posicao, t.id), t.id limit 1 for update of t skip locked) "
       "update plataforma.tarefas t set estado = 'executando', titular = ";
  q.bind(holder), q << ", prazo = now() + make_interval(secs => ", q.bind(number(lease.count()), "integer");
  q << "), tentativas = t.tentativas + 1 from escolhida where t.id = escolhida.id "
       "returning t.id::text, t.tenant_id::text, t.importacao_id::text, t.tipo, t.entrada, t.tentativas::text";
  auto rows = store::fetch(s, q);
  if (rows.empty()) return std::nullopt;  // the transaction rolls back: nothing was written
  const auto& r = rows[0];
  Sql turn("insert into plataforma.tarefas_turnos (tenant_id, fila, turno) values (");
  turn.bind(*r[1], "bigint"), turn << ", ", turn.bind(lane);
  turn << ", nextval('plataforma.tarefas_turno_seq')) on conflict (tenant_id, fila) do update set turno = excluded.turno";
  store::execute(s, turn);
  tx.commit();
  return Claim{std::stoll(*r[0]), std::stoll(*r[1]), std::stoll(*r[2]), r[3].value_or(""), r[4],
               std::stoi(r[5].value_or("1"))};
}

std::vector<std::int64_t> renew(soci::session& s, const std::string& holder, const std::vector<std::int64_t>& ids,
                                std::chrono::seconds lease) {
  if (ids.empty()) return {};
  Sql q("update plataforma.tarefas set prazo = now() + make_interval(secs => ");
  q.bind(number(lease.count()), "integer"), q << ") where estado = 'executando' and titular = ", q.bind(holder);
  q << " and id = any(", q.bind(store::id_array(ids), "bigint[]"), q << ") returning id::text";
  std::vector<std::int64_t> out;
  for (const auto& r : store::fetch(s, q)) out.push_back(std::stoll(r[0].value_or("0")));
  return out;
}

void release(soci::session& s, std::int64_t id, const std::string& holder) {
  Sql q("update plataforma.tarefas set estado = 'pendente', titular = null, prazo = null, "
        "tentativas = greatest(tentativas - 1, 0) where id = ");
  q.bind(number(id), "bigint"), q << " and titular = ", q.bind(holder);
  store::execute(s, q);
}

void retry(soci::session& s, std::int64_t id, const std::string& holder, const std::string& why) {
  Sql q("update plataforma.tarefas set estado = 'pendente', titular = null, prazo = null, motivo = ");
  q.bind(why), q << " where id = ", q.bind(number(id), "bigint"), q << " and titular = ", q.bind(holder);
  store::execute(s, q);
}

void done(soci::session& s, std::int64_t id) {
  Sql q("delete from plataforma.tarefas where id = ");
  q.bind(number(id), "bigint");
  store::execute(s, q);
}

std::optional<std::string> drop(soci::session& s, std::int64_t tenant, std::int64_t job) {
  Sql q("delete from plataforma.tarefas where tenant_id = ");
  q.bind(number(tenant), "bigint"), q << " and importacao_id = ", q.bind(number(job), "bigint");
  q << " returning coalesce(entrada, '')";
  auto entrada = store::fetch_value(s, q);
  if (!entrada || entrada->empty()) return std::nullopt;
  return entrada;
}

}  // namespace cadastre::platform::jobs::queue
