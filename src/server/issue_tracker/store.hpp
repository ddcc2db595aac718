// The issue tracker's storage: atendimento.issue_externo (the issues, stored before they
// are posted) and the references an issue may point at (cadastro.lote, a layer's record,
// midia.arquivo).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/issue_tracker/input.hpp"
#include "service/scope.hpp"

namespace soci {
class session;
}

namespace cadastre::server::tracker {

/// 404 naming the field when the lot, the record of `layer` (when set: the caller's
/// readable layer of in.camada) or an attachment does not exist.
void check_references(soci::session& s, const IssueInput& in, const service::LayerRef& layer);

/// Stores a new pending issue with reference "cadastre-<slug>-<uuid>" and the JSON the
/// tracker will receive (`payload`); returns its id.
std::int64_t insert_issue(soci::session& s, const IssueInput& in, const std::string& payload,
                          const std::string& tenant_slug, const std::string& created_by);

/// Pending issues stored before `before`, oldest first, at most `limit`.
std::vector<std::int64_t> pending_before(soci::session& s, std::int64_t before, int limit);

/// An issue as locked for delivery.
struct StoredIssue {
  std::string status;     ///< pendente, enviado or falhou
  std::string referencia;
  std::string payload;    ///< dados plus "referencia"
  std::string id_externo, link, ultimo_erro;
};
/// Locks issue `id` (for update; `wait_for_lock` false: skip a locked row) in the caller's
/// transaction. nullopt when it does not exist or another transaction holds it.
std::optional<StoredIssue> lock_issue(soci::session& s, std::int64_t id, bool wait_for_lock);

/// Records one delivery attempt of issue `id`: its new status ("enviado" with the
/// tracker's id and link, else "pendente" or "falhou" with the error).
void record_attempt(soci::session& s, std::int64_t id, const std::string& status, const std::string& id_externo,
                    const std::string& link, const std::string& erro);

}  // namespace cadastre::server::tracker
