// libpq keyword/value connection strings ("host=... port=... dbname=...").
#pragma once

#include <string>
#include <string_view>

namespace cadastre::store {

/// Returns `dsn` with its dbname replaced (or added).
std::string dsn_with(std::string_view dsn, std::string_view key, std::string_view value);
/// The value of `key` in `dsn`, or empty.
std::string dsn_get(std::string_view dsn, std::string_view key);
/// The PostgreSQL server a DSN names, "host:port" (defaults: localhost, 5432): what the
/// connection budgets and the recovery of prepared transactions count by.
std::string server_of(std::string_view dsn);
/// Quotes a value for a libpq connection string when needed.
std::string dsn_quote(std::string_view value);

}  // namespace cadastre::store
