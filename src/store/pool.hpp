// A bounded pool of PostgreSQL sessions (SOCI) for one database.
//
// Connections open lazily and are re-opened when libpq reports them broken, so the pool
// recovers by itself when PostgreSQL comes back after an outage. A connection free for
// longer than `idle_timeout` is closed by close_idle() (TenantPools sweeps its pools every
// second), so a tenant nobody uses holds none; a pool may share a ConnectionBudget
// (budget.hpp) with the other pools of its PostgreSQL server. Waiting for a free
// connection is bounded: past `wait` the caller gets Error(errc::unavailable), which the
// servers answer with 503 + Retry-After instead of hanging.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/error.hpp"

namespace soci {
class session;
class soci_error;
}
typedef struct pg_conn PGconn;

namespace cadastre::store {

class ConnectionBudget;

struct PoolOptions {
  std::string dsn;                                     ///< libpq connection string
  std::size_t size = 8;                                ///< connections at most
  std::chrono::milliseconds wait{2000};                ///< longest wait for a free connection
  std::chrono::milliseconds statement_timeout{15000};  ///< per statement, server side
  std::chrono::seconds connect_timeout{3};
  std::string application_name = "libcadastre";
  std::chrono::seconds idle_timeout{60};               ///< a free connection unused this long is closed
  std::shared_ptr<ConnectionBudget> budget;            ///< the server's cap across pools; null: none
};

struct PoolStats {
  std::size_t size = 0, open = 0, in_use = 0, waiting = 0;
  std::uint64_t leases = 0, timeouts = 0, reconnects = 0, failures = 0;
};

class Pool {
 public:
  explicit Pool(PoolOptions options);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  /// Exclusive use of one session until destroyed.
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    soci::session& operator*() const noexcept { return *session_; }
    soci::session* operator->() const noexcept { return session_; }
    /// True when the connection was opened for this lease (not reused).
    bool fresh() const noexcept { return fresh_; }

   private:
    friend class Pool;
    Lease(Pool* pool, std::size_t slot, soci::session* s, bool fresh) noexcept
        : pool_(pool), slot_(slot), session_(s), fresh_(fresh) {}
    Pool* pool_;
    std::size_t slot_;
    soci::session* session_;
    bool fresh_;
  };

  /// Waits up to options.wait for a session; Error(unavailable) when none comes or the
  /// database cannot be reached.
  Lease lease();

  /// Runs `fn(session)` on a leased session, translating database errors into
  /// cadastre::Error (unique/foreign-key violations → conflict, bad input → 400s, lost
  /// connection or timeout → unavailable); any other database error propagates as the
  /// soci_error itself (see database_error()). When a reused connection turns out to be
  /// broken (PostgreSQL restarted), it is reopened and `fn` runs once more: `fn` must
  /// therefore be safe to repeat, which holds for reads and for writes done in one
  /// transaction that did not commit.
  void run(const std::function<void(soci::session&)>& fn);

  /// Like run(), returning fn's value.
  template <class F>
  auto with(F&& fn) -> decltype(fn(std::declval<soci::session&>())) {
    using R = decltype(fn(std::declval<soci::session&>()));
    if constexpr (std::is_void_v<R>) {
      run(fn);
    } else {
      R result{};
      run([&](soci::session& s) { result = fn(s); });
      return result;
    }
  }

  PoolStats stats() const;
  const PoolOptions& options() const noexcept { return options_; }

  /// Closes the connections free for longer than options().idle_timeout; how many.
  std::size_t close_idle();
  /// Closes one connection that is free now, however recent (the budget takes its place
  /// for another pool); false when none is. Does not call the budget: the budget calls it.
  bool close_one_free();

 private:
  void release(std::size_t slot) noexcept;
  std::unique_ptr<soci::session> open();

  PoolOptions options_;
  std::string connect_string_;
  mutable std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<soci::session>> sessions_;
  std::vector<std::chrono::steady_clock::time_point> freed_at_;  // per slot: when it was last released
  std::vector<std::size_t> free_;
  std::size_t waiting_ = 0;
  PoolStats counters_;
};

/// The libpq connection behind a session (for COPY and other libpq-only features).
PGconn* native_connection(soci::session& s) noexcept;

/// True when libpq reports the session's connection as broken.
bool connection_broken(soci::session& s) noexcept;

/// The catalog error for a database error the request caused or that may pass (unique or
/// foreign-key violation → 409, check violation or bad value → 400, lost connection or
/// time-out → 503, ...), in a message of our own: PostgreSQL's text never reaches a client.
/// nullopt for any other error, an internal failure: callers rethrow the soci_error, which
/// the server logs with the request id before it answers the generic 500 body.
std::optional<Error> database_error(const soci::soci_error& e);

/// Runs `fn` inside a transaction on `s`: commits when fn returns, rolls back when it throws.
void in_transaction(soci::session& s, const std::function<void()>& fn);

/// "ok" when `pool` answers a trivial query; otherwise why not (the catalog message of a
/// translated error, "falha" for any other failure, whose text is for the log only). The
/// health probes of every service use it.
std::string ping(Pool& pool);

}  // namespace cadastre::store
