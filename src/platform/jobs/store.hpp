// The SQL of the jobs (projeto.importacoes, tenant migration 0024). Internal to the runner.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/jobs/jobs.hpp"

namespace cadastre::platform::jobs::sql {

/// Ends every open job whose holding backend is gone (its process died): falhou, or
/// cancelada when its cancellation had been asked.
void recover(soci::session& s);
/// Inserts a pendente job held by this session's backend, or returns the user's earlier job
/// of the same tipo and codigo (novo false).
Submitted insert(soci::session& s, std::int64_t user, const Job& job);
/// pendente → executando, held by this session's backend; false when the job is gone.
bool start(soci::session& s, std::int64_t id);
/// Stores the progress; true when the job's cancellation was asked (by any process).
bool progress(soci::session& s, std::int64_t id, double percent, const Counts& c);
/// The final row: concluida (message empty), falhou or cancelada.
struct Final {
  std::string estado;
  Counts counts;
  std::string erros = "[]", camadas = "[]";
  std::optional<std::int64_t> camada;
  std::optional<std::string> mensagem;
};
void finish(soci::session& s, std::int64_t id, const Final& f);
/// The concluida row, written only when no cancellation was asked; false otherwise. Its
/// row lock (held until the work's commit) makes a later cancellation wait and find the
/// job concluida.
bool complete(soci::session& s, std::int64_t id, const Final& f);
/// falhou with `mensagem`, for a queued job the process will not run (still pendente).
void abandon(soci::session& s, std::int64_t id, const std::string& mensagem);
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
