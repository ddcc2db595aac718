// Digital proofs: every statement on provas.prova_digital (db/migrations/tenant/
// 0013_provas_digitais.sql). Records are answered as JSON objects (to_jsonb of the row).
// Writes check that the unit named by numero_cadastro exists (422 otherwise) and record
// an audit row (tabela "provas.prova_digital") in the caller's transaction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/provas/input.hpp"
#include "store/identity.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::provas {

/// A page of the proofs matching the filters, by id.
store::PageRows list(soci::session& s, const ListQuery& q);

/// The proofs of unit `numero_cadastro`, most recent first (total 0 when none).
store::PageRows by_unit(soci::session& s, const std::string& numero_cadastro);

/// Inserts a proof (own transaction); returns the record.
std::string create(soci::session& s, const std::vector<ProvaField>& fields, const store::Principal& auditor);
/// Changes the fields given of proof `id` (own transaction; 404 when it does not exist);
/// returns the record after.
std::string update(soci::session& s, const std::string& id, const std::vector<ProvaField>& fields,
                   const store::Principal& auditor);
/// Deletes proof `id` (own transaction; 404 when it does not exist); returns the record removed.
std::string remove(soci::session& s, const std::string& id, const store::Principal& auditor);

}  // namespace cadastre::server::provas
