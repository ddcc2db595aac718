// A cap on the connections this process holds on one PostgreSQL server, across the pools of
// every tenant whose database lives there (store::TenantPools keeps one per server). A pool
// that must open a connection takes a place first; when the server's places are all held,
// the budget asks the other pools for a connection that is free at that moment and closes
// it, and only when none is free does the caller wait, until its pool's `wait` (then 503).
// With the pools' idle timeout (pool.hpp), a process holds at most `cap` connections per
// server however many tenants it serves, and none for a tenant nobody uses.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace cadastre::store {

class Pool;

class ConnectionBudget {
 public:
  explicit ConnectionBudget(std::size_t cap) : cap_(cap == 0 ? 1 : cap) {}
  ConnectionBudget(const ConnectionBudget&) = delete;
  ConnectionBudget& operator=(const ConnectionBudget&) = delete;

  /// A place for one more connection of `asking`, reclaiming a free connection of another
  /// pool when there is no room; Error(unavailable) when none comes before `deadline`.
  void acquire(const Pool* asking, std::chrono::steady_clock::time_point deadline);
  /// A connection closed: its place is free again.
  void release() noexcept;

  /// Pools share the budget from construction to destruction (Pool does this itself).
  void attach(Pool* pool);
  void detach(Pool* pool) noexcept;

  std::size_t cap() const noexcept { return cap_; }
  /// Connections open now under this budget.
  std::size_t open() const;

 private:
  const std::size_t cap_;
  mutable std::mutex mutex_;
  std::condition_variable room_;
  std::size_t open_ = 0;
  std::vector<Pool*> pools_;
};

}  // namespace cadastre::store
