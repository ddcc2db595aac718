// The audit trail (auditoria.registro) and layer generations (auditoria.geracao_camada).
// Every write through the API calls record() in the same transaction as the write, so an
// audit row exists exactly when the change does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/identity.hpp"

namespace soci {
class session;
}

namespace cadastre::store {

enum class Operation { insert, update, remove };

/// Records one change. `before`/`after` are JSON texts of the record (nullopt for none).
void record_audit(soci::session& s, std::string_view table, std::string_view record_id, Operation op,
                  const Principal& user, const std::optional<std::string>& before, const std::optional<std::string>& after);

/// Bumps the generation of `layer` (creating it at 1) and returns the new value.
std::int64_t bump_generation(soci::session& s, std::string_view layer);
/// The current generation of `layer`: 0 until the first write, which makes it 1.
std::int64_t generation(soci::session& s, std::string_view layer);

}  // namespace cadastre::store
