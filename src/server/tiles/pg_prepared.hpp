// Named prepared statements run through libpq on a pooled SOCI session, for results SOCI
// cannot return as they are: bytea in binary form (SOCI only reads the hex text form,
// twice the size plus a decode). Statements stay prepared on the connection for its
// lifetime, so hot reads such as vector tiles are parsed and planned once per connection.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace cadastre::server {

/// One row of a binary-format result: each column's raw bytes (nullopt for NULL).
using BinaryRow = std::vector<std::optional<std::string>>;

/// Runs `sql` (parameters $1..$n, passed as text) as the prepared statement named after
/// its digest, preparing it on this connection when it is not yet, and returns the rows in
/// binary format. Failures throw soci::postgresql_soci_error with PostgreSQL's SQLSTATE,
/// so store::Pool::run translates them (and retries a stale connection) like any other.
std::vector<BinaryRow> run_prepared_binary(soci::session& s, const std::string& sql,
                                           const std::vector<std::string>& params);

}  // namespace cadastre::server
