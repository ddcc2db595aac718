// Statements through libpq (store::fetch, fetch_value and execute of sql.hpp run here),
// prepared per pooled connection where one plan serves their values (decision 0028): the
// hot reads (tiles, a page, a record's detail, the guard's checks) are parsed and planned
// once per connection. Binary results bring bytea as bytes, not as hex text.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace soci {
class session;
}

namespace cadastre::store {

/// How many statements a connection keeps prepared, the least recently used deallocated
/// first: many are generated per layer (their ids written in), and each holds a parse tree
/// and, once generic, a plan in its backend.
inline constexpr std::size_t kMaxPreparedPerConnection = 128;

/// Short hex digest of a text (FNV-1a 64, not collision-resistant): versions ETags and names
/// cursors. Prepared statements are known by their whole text (prepared.cpp).
std::string digest(std::string_view text);

/// One row of a binary-format result: each column's raw bytes (nullopt for NULL).
using BinaryRow = std::vector<std::optional<std::string>>;

/// Runs `sql` (parameters $1..$n, passed as text) as a prepared statement, preparing it on
/// this connection when it is not yet, and returns the rows in
/// binary format (SOCI only reads bytea's hex text form, twice the size plus a decode).
/// Statements stay prepared on the connection for its lifetime, so hot reads are parsed
/// and planned once per connection. Failures throw soci::postgresql_soci_error with
/// PostgreSQL's SQLSTATE, so store::Pool::run translates them (and retries a stale
/// connection) like any other.
std::vector<BinaryRow> run_prepared_binary(soci::session& s, const std::string& sql,
                                           const std::vector<std::string>& params);

class Sql;

/// A result's text read in place: each value a view into libpq's result, valid while this
/// lives. For reads of many rows (a field's every value), where copying each value into a
/// row of its own would cost more than reading it.
class TextRows {
 public:
  std::size_t size() const noexcept { return rows_; }
  /// Column `col` of row `row` as PostgreSQL's text output; nullopt for NULL.
  std::optional<std::string_view> at(std::size_t row, std::size_t col) const noexcept;

 private:
  explicit TextRows(PGresult* result);
  friend TextRows fetch_text(soci::session& s, const Sql& q);
  friend void fetch_text_batches(soci::session& s, const Sql& q, std::size_t batch,
                                 const std::function<void(const TextRows&)>& fn);
  std::shared_ptr<const PGresult> result_;
  std::size_t rows_ = 0;
};

/// Runs `q` as store::fetch does and returns its rows as PostgreSQL's text output, without
/// store::fetch's reading of booleans and numerics and without a copy of each value.
TextRows fetch_text(soci::session& s, const Sql& q);

/// Runs `q` (a select) through a cursor of the open transaction, `batch` rows at a time,
/// handing each batch to `fn` while PostgreSQL reads the next: the caller's work on the
/// rows overlaps the database's. `fn` runs on a thread of its own (in_order_worker.hpp),
/// one batch at a time and in order, and must not use the session; what it throws is
/// rethrown here. For reads of many rows worked on one by one (the conversion's every
/// value). Outside a transaction it throws std::logic_error.
void fetch_text_batches(soci::session& s, const Sql& q, std::size_t batch,
                        const std::function<void(const TextRows&)>& fn);

/// A connection about to close (store::Pool calls it): its statements go with it, and so
/// does its entry in the registry of what each connection has prepared, which would
/// otherwise keep one per connection ever opened.
void forget_prepared(PGconn* c) noexcept;
/// How many connections the registry knows (at most the open ones that ran a prepared
/// statement).
std::size_t prepared_connections() noexcept;

}  // namespace cadastre::store
