// The statements of an all-or-nothing batch (service/batch.hpp runs it): each row runs
// under a savepoint of the caller's transaction, so a failed row is undone on its own and
// the rows after it still run (every row's outcome is known before the whole is decided).
#pragma once

namespace soci {
class session;
}

namespace cadastre::store {

/// Sets the savepoint of the next row.
void savepoint_row(soci::session& s);
/// Keeps the row's work (releases its savepoint).
void release_row(soci::session& s);
/// Undoes the row's work (rolls back to its savepoint), leaving the transaction usable.
void rollback_row(soci::session& s);

}  // namespace cadastre::store
