// The one all-or-nothing batch runner: every row of a batch is written in one transaction,
// each under a savepoint (store/batch.hpp), so every row's outcome is known; when any row
// fails the whole batch is rolled back. Areas render the outcome in their own answer.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/error.hpp"
#include "store/pool.hpp"

namespace cadastre::service {

struct RowOutcome {
  std::string id;              ///< what the row's writer returned (e.g. the record id)
  std::optional<Error> error;  ///< why the row failed
};

struct BatchOutcome {
  std::vector<RowOutcome> rows;            ///< one per row, in order
  std::optional<std::size_t> first_error;  ///< the first failed row: nothing was kept
  bool committed() const noexcept { return !first_error; }
  /// The first failed row's error (only when !committed()).
  const Error& error() const { return *rows.at(*first_error).error; }
};

/// Writes row `index` in the batch's transaction; returns the row's id. Throws Error (or a
/// database error store::database_error() translates) when the row cannot be written.
using RowWriter = std::function<std::string(soci::session& s, std::size_t index)>;

/// Runs `write` for rows 0..count-1 in one transaction on `db`, each under a savepoint, and
/// commits only when every row succeeded. A row's Error or translated database error is
/// that row's outcome; any other failure is not the row's and propagates (the whole batch
/// fails, nothing is kept).
BatchOutcome run_batch(store::Pool& db, std::size_t count, const RowWriter& write);

}  // namespace cadastre::service
