// The SQL of the jobs: see store.hpp and jobs.hpp.
#include "platform/jobs/store.hpp"

#include <fmt/format.h>

#include <map>

#include "store/sql.hpp"

namespace cadastre::platform::jobs::sql {
namespace {

using store::Sql;

std::string text(std::int64_t v) { return std::to_string(v); }

std::string counts_json(const Counts& c) {
  return fmt::format(R"({{"lidas":{},"importadas":{},"reparadas":{},"recusadas":{}}})", c.lidas, c.importadas,
                     c.reparadas, c.recusadas);
}

constexpr const char* kJson =
    "jsonb_build_object('idImportacao', i.id, 'tipo', i.tipo, 'estado', i.estado, 'progresso', i.progresso, "
    "'contagens', i.contagens, 'erros', i.erros, 'mensagem', i.mensagem, 'idProjeto', i.projeto_id, "
    "'idCamada', i.camada_id, 'camadas', i.camadas, 'codigo', i.codigo, 'parametros', i.parametros, "
    "'oculta', i.oculta, 'cancelamentoPedido', i.cancelamento_pedido, 'criadoPor', i.criado_por, "
    "'criadoEm', i.criado_em, 'atualizadoEm', i.atualizado_em)";

const std::map<std::string, std::string> kOrder = {
    {"id", "i.id"}, {"criadoEm", "i.criado_em"}, {"estado", "i.estado"}, {"tipo", "i.tipo"}};

}  // namespace

Submitted insert(soci::session& s, std::int64_t user, const Job& job, std::optional<std::int64_t> after) {
  Sql q("insert into projeto.importacoes (tipo, codigo, projeto_id, parametros, criado_por, apos) values (");
  q.bind(job.tipo), q << ", ", q.bind(job.codigo), q << ", ";
  q.bind(job.projeto ? std::optional(text(*job.projeto)) : std::nullopt, "bigint"), q << ", ";
  q.bind(job.parametros, "jsonb"), q << ", ", q.bind(text(user), "bigint"), q << ", ";
  q.bind(after ? std::optional(text(*after)) : std::nullopt, "bigint");
  q << ") on conflict (criado_por, tipo, codigo) where codigo is not null do nothing returning id";
  if (auto id = store::fetch_value(s, q)) return {std::stoll(*id), true};
  Sql old("select id from projeto.importacoes where criado_por = ");
  old.bind(text(user), "bigint"), old << " and tipo = ", old.bind(job.tipo), old << " and codigo = ";
  old.bind(job.codigo);
  return {std::stoll(store::fetch_value(s, old).value_or("0")), false};
}

std::vector<Follower> followers(soci::session& s, std::int64_t id) {
  Sql q("select id::text, tipo from projeto.importacoes where estado = 'pendente' and apos = ");
  q.bind(text(id), "bigint"), q << " order by id";
  std::vector<Follower> out;
  for (const auto& r : store::fetch(s, q)) out.push_back({std::stoll(r[0].value_or("0")), r[1].value_or("")});
  return out;
}

std::optional<Started> start(soci::session& s, std::int64_t id, int attempt) {
  // A job taken over starts again from nothing: its progress and counts too.
  Sql q("update projeto.importacoes set estado = 'executando', tentativa = ");
  q.bind(std::to_string(attempt), "integer");
  q << ", progresso = 0, contagens = '{}', erros = '[]', atualizado_em = now() "
       "where estado in ('pendente', 'executando') and id = ";
  q.bind(text(id), "bigint");
  q << " returning criado_por::text, parametros::text, cancelamento_pedido::text";
  auto rows = store::fetch(s, q);
  if (rows.empty()) return std::nullopt;
  return Started{std::stoll(rows[0][0].value_or("0")), rows[0][1].value_or("{}"), rows[0][2].value_or("") == "true"};
}

std::optional<bool> progress(soci::session& s, std::int64_t id, int attempt, double percent, const Counts& c) {
  Sql q("update projeto.importacoes set progresso = ");
  q.bind(fmt::format("{:.2f}", percent), "numeric"), q << ", contagens = ", q.bind(counts_json(c), "jsonb");
  q << ", atualizado_em = now() where estado = 'executando' and id = ", q.bind(text(id), "bigint");
  q << " and tentativa = ", q.bind(std::to_string(attempt), "integer");
  q << " returning cancelamento_pedido::text";
  auto asked = store::fetch_value(s, q);
  if (!asked) return std::nullopt;
  return *asked == "true";
}

namespace {

Sql final_update(std::int64_t id, int attempt, const Final& f) {
  Sql q("update projeto.importacoes set estado = ");
  q.bind(f.estado), q << ", progresso = case when ", q.bind(f.estado), q << " = 'concluida' then 100 else progresso end";
  q << ", contagens = ", q.bind(counts_json(f.counts), "jsonb"), q << ", erros = ", q.bind(f.erros, "jsonb");
  q << ", camadas = ", q.bind(f.camadas, "jsonb"), q << ", camada_id = ";
  q.bind(f.camada ? std::optional(text(*f.camada)) : std::nullopt, "bigint");
  q << ", mensagem = ", q.bind(f.mensagem), q << ", atualizado_em = now() where id = ";
  q.bind(text(id), "bigint");
  q << " and estado in ('pendente', 'executando')";
  if (attempt > 0) q << " and tentativa = ", q.bind(std::to_string(attempt), "integer");
  return q;
}

}  // namespace

void finish(soci::session& s, std::int64_t id, int attempt, const Final& f) {
  store::execute(s, final_update(id, attempt, f));
}

bool complete(soci::session& s, std::int64_t id, int attempt, const Final& f) {
  Sql q = final_update(id, attempt, f);
  q << " and not cancelamento_pedido";
  return store::execute(s, q) == 1;
}

void requeue(soci::session& s, std::int64_t id, int attempt, const std::string& mensagem) {
  Sql q("update projeto.importacoes set estado = 'pendente', progresso = 0, atualizado_em = now(), mensagem = ");
  q.bind(mensagem), q << " where estado = 'executando' and id = ", q.bind(text(id), "bigint");
  q << " and tentativa = ", q.bind(std::to_string(attempt), "integer");
  store::execute(s, q);
}

std::optional<std::string> cancel(soci::session& s, std::int64_t id, Creator user) {
  // One statement, so a worker starting the job at the same moment either finds it
  // cancelada (and skips it) or has made it executando (and this asks it to stop).
  Sql q("update projeto.importacoes set cancelamento_pedido = true, atualizado_em = now(), "
        "estado = case when estado = 'pendente' then 'cancelada' else estado end, "
        "mensagem = case when estado = 'pendente' then 'cancelada a pedido do usuário antes de começar' "
        "else mensagem end where estado in ('pendente', 'executando') and id = ");
  q.bind(text(id), "bigint");
  if (user) q << " and criado_por = ", q.bind(text(*user), "bigint");
  q << " returning estado";
  return store::fetch_value(s, q);
}

std::optional<std::string> one(soci::session& s, std::int64_t id, Creator user, std::string_view tipo) {
  Sql q(std::string("select ") + kJson + "::text from projeto.importacoes i where i.id = ");
  q.bind(text(id), "bigint");
  if (user) q << " and i.criado_por = ", q.bind(text(*user), "bigint");
  if (!tipo.empty()) q << " and i.tipo = ", q.bind(std::string(tipo));
  return store::fetch_value(s, q);
}

store::PageRows page(soci::session& s, std::int64_t user, const std::vector<std::string>& tipos, const Page& pg) {
  auto where = [&](Sql& q) {
    q << " from projeto.importacoes i where not i.oculta and i.criado_por = ", q.bind(text(user), "bigint");
    if (!tipos.empty()) {
      q << " and i.tipo in (";
      for (std::size_t k = 0; k < tipos.size(); ++k) q << (k ? ", " : ""), q.bind(tipos[k]);
      q << ")";
    }
  };
  Sql q("select (select count(*)");
  where(q);
  q << ")::text, coalesce(json_agg(x.j), '[]')::text from (select " << kJson << " as j";
  where(q);
  auto col = kOrder.find(pg.order_by);
  q << " order by " << (col == kOrder.end() ? "i.id" : col->second) << (pg.descending ? " desc" : " asc") << ", i.id";
  store::append_page(q, pg.paging);
  q << ") x";
  return store::fetch_page(s, q);
}

std::optional<std::string> state_of(soci::session& s, std::int64_t id, Creator user) {
  Sql q("select estado from projeto.importacoes where id = ");
  q.bind(text(id), "bigint");
  if (user) q << " and criado_por = ", q.bind(text(*user), "bigint");
  return store::fetch_value(s, q);
}

std::optional<Status> status(soci::session& s, std::int64_t id, Creator user) {
  Sql q("select tipo, estado, coalesce(mensagem, ''), camada_id::text from projeto.importacoes where id = ");
  q.bind(text(id), "bigint");
  if (user) q << " and criado_por = ", q.bind(text(*user), "bigint");
  auto rows = store::fetch(s, q);
  if (rows.empty()) return std::nullopt;
  Status out{rows[0][0].value_or(""), rows[0][1].value_or(""), std::nullopt, std::nullopt};
  if (!rows[0][2].value_or("").empty()) out.mensagem = rows[0][2];
  if (rows[0][3]) out.camada = std::stoll(*rows[0][3]);
  return out;
}

std::optional<std::int64_t> creator_of(soci::session& s, std::int64_t id) {
  Sql q("select criado_por::text from projeto.importacoes where id = ");
  q.bind(text(id), "bigint");
  auto v = store::fetch_value(s, q);
  if (!v) return std::nullopt;
  return std::stoll(*v);
}

void hide(soci::session& s, std::int64_t id) {
  Sql q("update projeto.importacoes set oculta = true, atualizado_em = now() where id = ");
  q.bind(text(id), "bigint");
  store::execute(s, q);
}

}  // namespace cadastre::platform::jobs::sql
