// Moving a project to another tenant's database (GET /projetos/transferir), all or nothing
// across the two databases by two-phase commit:
//
//   1. origin: export the project, delete it, audit; PREPARE TRANSACTION <gid>_o_...
//   2. target: insert the copy (new ids), audit; PREPARE TRANSACTION <gid>_d_...
//      (a failure here rolls back the prepared origin: nothing changed anywhere)
//   3. COMMIT PREPARED on the target, then on the origin.
//
// The decision is the target's commit: once the target holds the project (its audit row
// carries the gid's token), the origin must commit too; until then, both roll back. So a
// crash between the steps leaves prepared transactions that recover_orphans() resolves
// without guessing: a target's leftover is rolled back (the origin cannot have committed
// before it), an origin's leftover is committed when the target's audit row exists and
// rolled back otherwise. Gids start with kGidPrefix and carry both tenants' ids.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platform/common/files.hpp"
#include "service/caller.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::projects {

inline constexpr std::string_view kGidPrefix = "cadastre_transf_";

/// The pool of a tenant by id (nullptr when it is unknown).
using PoolOf = std::function<store::Pool*(std::int64_t tenant_id)>;

struct Transferred {
  std::int64_t id = 0;  ///< the project's id in the target's database
  std::string token;    ///< the transfer's token, in both audit rows
};

using Log = std::function<void(const std::string&)>;

/// Moves project `id` of the caller's tenant to `target` (its pool `target_pool`), owned
/// there by `owner` (a user of the target, checked by the caller). Shares and per-layer
/// rights stay behind (their users belong to the origin); the history comes along, and the
/// layers' files move to the target's directory of `files` (copied before the target
/// prepares, the origin's erased once both committed). A
/// failure of the target's database that is not the caller's (a 4xx) is logged in short
/// on `log` and answered as an internal error: the database's own message would carry
/// the whole exported project.
Transferred transfer(const service::Caller& scope, std::int64_t id, const store::Tenant& target,
                     store::Pool& target_pool, std::int64_t owner, const PoolOf& pool_of,
                     const common::FileStore& files, const Log& log);

/// Resolves the transfers' prepared transactions left by a crash that PostgreSQL server of
/// `any` shows (pg_prepared_xacts lists every database of the server), older than
/// `min_age` (younger ones may belong to a transfer still running in another process).
/// Returns how many it resolved. `log` receives one line per decision.
int recover_orphans(store::Pool& any, const PoolOf& pool_of, std::chrono::seconds min_age, const Log& log);

/// recover_orphans on every PostgreSQL server: the platform's (`platform`, whose DSN is
/// `platform_dsn`) and each other server an active tenant of `tenants` lives on, through
/// that tenant's pool. A server that does not answer is logged and left to the next start
/// or transfer. Returns how many it resolved.
int recover_orphans_everywhere(store::Pool& platform, const std::string& platform_dsn,
                               const std::vector<store::Tenant>& tenants, const PoolOf& pool_of,
                               std::chrono::seconds min_age, const Log& log);

}  // namespace cadastre::platform::projects
