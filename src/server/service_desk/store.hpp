// Database side of /atendimento: every SQL statement of the area. Protocols and inspections
// (lists, create, read, update), the approval audit, and the citizen's side of an
// inspection (its token hash, the public view, the citizen's update). Timestamps render in
// the tenant's time zone. Inspection writes record an audit row in the same transaction
// (tabela "atendimento.vistoria", without token_hash).
#pragma once

#include <optional>
#include <string>

#include "server/service_desk/input.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"

namespace cadastre::server::desk {

/// One page of protocols, the most recent first.
store::PageRows list_protocols(store::Pool& db, const store::Tenant& tenant,
                               const ProtocolFilter& filter);
/// One page of inspections by their reservation's start.
store::PageRows list_inspections(store::Pool& db, const store::Tenant& tenant,
                                 const InspectionFilter& filter);

/// Creates the inspection of reservation `in.agendamento_id` storing only the SHA-256 of
/// `token`; returns the staff JSON with "token" (its one showing: only the hash is kept).
/// No reservation → 404; one already inspected → 409;
/// a photo or protocol that does not exist → 400.
std::string create_inspection(store::Pool& db, const store::Tenant& tenant,
                              const store::Principal& user, const VistoriaInput& in,
                              const std::string& token);
/// The staff JSON of the inspection of reservation `id`; 404 when there is none.
std::string read_inspection(store::Pool& db, const store::Tenant& tenant, const std::string& id);
/// Applies the staff's changes to the inspection of reservation `id`; 404 when there is none.
std::string update_inspection(store::Pool& db, const store::Tenant& tenant,
                              const store::Principal& user, const std::string& id,
                              const VistoriaInput& in);
/// Records an approval decision (atendimento.auditoria) and returns the row.
std::string record_approval(store::Pool& db, const store::Tenant& tenant,
                            const store::Principal& user, const AuditoriaInput& in);

/// The stored token hash of the inspection of reservation `id` (nullopt when none).
std::optional<std::string> token_hash(store::Pool& db, const std::string& id);
/// The inspection as the citizen sees it: status, time, the citizen's own fields.
std::string public_inspection(store::Pool& db, const store::Tenant& tenant, const std::string& id);
/// The citizen's changes, while the inspection is open (409 once concluida or cancelada),
/// audited as `citizen`; returns the citizen's view.
std::string citizen_update(store::Pool& db, const store::Tenant& tenant,
                           const store::Principal& citizen, const std::string& id,
                           const CitizenInput& in);

}  // namespace cadastre::server::desk
