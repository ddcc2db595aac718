// The SQL of the jobs (projeto.importacoes, tenant migration 0024). Internal to the runner.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/jobs/jobs.hpp"

namespace cadastre::platform::jobs::sql {

/// Marks falhou every open job whose holding backend is gone (its process died).
void recover(soci::session& s);
/// Inserts a pendente job held by this session's backend, or returns the user's earlier job
/// of the same tipo and codigo (novo false).
Submitted insert(soci::session& s, std::int64_t user, const Job& job);
/// pendente → executando, held by this session's backend; false when the job is gone.
bool start(soci::session& s, std::int64_t id);
void progress(soci::session& s, std::int64_t id, double percent, const Counts& c);
/// The final row: concluida (message empty) or falhou.
struct Final {
  std::string estado;
  Counts counts;
  std::string erros = "[]", camadas = "[]";
  std::optional<std::int64_t> camada;
  std::optional<std::string> mensagem;
};
void finish(soci::session& s, std::int64_t id, const Final& f);
/// The job's JSON when user created it.
std::optional<std::string> one(soci::session& s, std::int64_t id, std::int64_t user);
store::PageRows page(soci::session& s, std::int64_t user, const std::vector<std::string>& tipos, const Page& pg);
/// The job's estado when user created it.
std::optional<std::string> state_of(soci::session& s, std::int64_t id, std::int64_t user);
void hide(soci::session& s, std::int64_t id);

}  // namespace cadastre::platform::jobs::sql
