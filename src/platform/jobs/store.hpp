// The SQL of the jobs in their tenant's database (projeto.importacoes, tenant migrations
// 0024, 0029, 0034, 0038), and of their place in the queue in the platform's (plataforma.tarefas,
// platform migration 0013: namespace queue). Internal to the runner.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/jobs/jobs.hpp"

namespace cadastre::platform::jobs::sql {

/// Inserts a pendente job, or returns the user's earlier job of the same tipo and codigo
/// (novo false). `after`: the job that queues it once committed (Context::follow).
Submitted insert(soci::session& s, std::int64_t user, const Job& job, std::optional<std::int64_t> after = {});
/// A job another one left to follow it: its id and handler (its tipo).
struct Follower {
  std::int64_t id = 0;
  std::string handler;
};
/// The pendente followers of job `id` (tenant migration 0038's `apos`).
std::vector<Follower> followers(soci::session& s, std::int64_t id);
/// What a claim finds of its job.
struct Started {
  std::int64_t user = 0;
  std::string parametros;
  bool cancel_asked = false;  ///< asked while an earlier attempt ran
};
/// pendente (or executando by an earlier attempt, taken over) → executando by `attempt`;
/// nullopt when the job has ended or is gone.
std::optional<Started> start(soci::session& s, std::int64_t id, int attempt);
/// Stores the progress of `attempt`: true when the job's cancellation was asked (by any
/// process), nullopt when the job is no longer this attempt's (taken over, or ended).
std::optional<bool> progress(soci::session& s, std::int64_t id, int attempt, double percent, const Counts& c);
/// The final row: concluida (message empty), falhou or cancelada.
struct Final {
  std::string estado;
  Counts counts;
  std::string erros = "[]", camadas = "[]";
  std::optional<std::int64_t> camada;
  std::optional<std::string> mensagem;
};
/// The final row of an open job, written by `attempt` (nothing when another attempt holds
/// it). `attempt` 0: whatever attempt holds it (a job that ran out of attempts).
void finish(soci::session& s, std::int64_t id, int attempt, const Final& f);
/// The concluida row, written only by the current attempt and when no cancellation was
/// asked; false otherwise. Its row lock (held until the work's commit) makes a later
/// cancellation wait and find the job concluida.
bool complete(soci::session& s, std::int64_t id, int attempt, const Final& f);
/// executando by `attempt` → pendente again (another attempt will run it), with `mensagem`.
void requeue(soci::session& s, std::int64_t id, int attempt, const std::string& mensagem);
/// Whose jobs a call may touch: one creator's, or (a tenant administrator) any.
using Creator = std::optional<std::int64_t>;
/// Cancels the job (of `user`, or any when nullopt): pendente → cancelada (returns
/// "cancelada"); executando → the cancellation asked (returns "executando"). nullopt when
/// there is no such open job.
std::optional<std::string> cancel(soci::session& s, std::int64_t id, Creator user);
/// The job's JSON when `user` created it (any creator when nullopt) and, when `tipo` is
/// given, it is of that tipo.
std::optional<std::string> one(soci::session& s, std::int64_t id, Creator user, std::string_view tipo = {});
store::PageRows page(soci::session& s, std::int64_t user, const std::vector<std::string>& tipos, const Page& pg);
/// The job's estado when `user` created it (any creator when nullopt).
std::optional<std::string> state_of(soci::session& s, std::int64_t id, Creator user);
/// The job's estado and message when `user` created it (any creator when nullopt).
std::optional<Status> status(soci::session& s, std::int64_t id, Creator user);
/// Who created the job (nullopt: no such job).
std::optional<std::int64_t> creator_of(soci::session& s, std::int64_t id);
void hide(soci::session& s, std::int64_t id);

}  // namespace cadastre::platform::jobs::sql

namespace cadastre::platform::jobs::queue {

/// A job's place in the queue, as claimed.
struct Claim {
  std::int64_t id = 0, tenant_id = 0, job = 0;
  std::string handler;
  std::optional<std::string> entrada;
  int attempt = 0;  ///< claims so far, this one included
};

/// Queues job `job` of tenant `tenant` on `lane`. `after`: the queue row (Claim::id) of the
/// job it follows, still queued; it then takes that job's place in the tenant's line, ahead
/// of the jobs queued after it (platform migration 0014).
void add(soci::session& s, std::int64_t tenant, std::int64_t job, const std::string& lane, const std::string& handler,
         const std::optional<std::string>& entrada, std::optional<std::int64_t> after = {});
/// Claims the oldest job of `lane` (by its place: its own, or its predecessor's for a
/// follower) whose handler is among `handlers`, pendente or with an
/// expired lease, of a tenant running fewer than `per_tenant` jobs of the lane, the tenant
/// served longest ago first (plataforma.tarefas_turnos): held by `holder` for `lease`. One claimer at a time (an advisory lock), so the cap holds across
/// instances; rows another statement holds are skipped (SKIP LOCKED).
std::optional<Claim> claim(soci::session& s, const std::string& lane, const std::vector<std::string>& handlers,
                           const std::string& holder, std::chrono::seconds lease, int per_tenant);
/// Renews `holder`'s leases of `ids`; returns those still held by it.
std::vector<std::int64_t> renew(soci::session& s, const std::string& holder, const std::vector<std::int64_t>& ids,
                                std::chrono::seconds lease);
/// Back to pendente for another instance, the claim not counted (a runner stopping).
void release(soci::session& s, std::int64_t id, const std::string& holder);
/// Back to pendente after an unexpected failure, the claim counted.
void retry(soci::session& s, std::int64_t id, const std::string& holder, const std::string& why);
/// The job ended: its row goes.
void done(soci::session& s, std::int64_t id);
/// The queued place of job `job` of `tenant` goes (cancelled while pendente); its entrada.
std::optional<std::string> drop(soci::session& s, std::int64_t tenant, std::int64_t job);

}  // namespace cadastre::platform::jobs::queue
