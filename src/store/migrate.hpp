// Versioned SQL migrations (db/migrations/<set>/NNNN_name.sql), embedded in the binary.
//
// Each database records what it has applied in public.cadastre_migrations (set, version,
// SHA-256 of the text). Applying is idempotent; a changed text of an applied migration is
// an error, never silently re-run. Concurrent migrators serialise on an advisory lock.
#pragma once

#include <string>
#include <string_view>
#include <vector>

typedef struct pg_conn PGconn;

namespace cadastre::store {

struct Migration {
  std::string_view set;   ///< "platform" or "tenant"
  std::string_view name;  ///< e.g. "0001_identity"
  std::string_view sql;
};

/// All embedded migrations, ordered by set then name.
const std::vector<Migration>& embedded_migrations();

/// Applies the pending migrations of `set` to the database behind `conn`, each in its
/// own transaction; with `until`, only those up to the one of that name (a database kept
/// at an earlier schema: upgrades are tested from it). Returns the names applied (empty
/// when up to date).
std::vector<std::string> migrate(PGconn* conn, std::string_view set, std::string_view until = {});

/// Opens a libpq connection or throws Error(unavailable) with libpq's message.
PGconn* connect_or_throw(const std::string& dsn);

/// Runs SQL text (may hold several statements, no parameters); throws Error on failure.
void exec_sql(PGconn* conn, const std::string& sql);

}  // namespace cadastre::store
