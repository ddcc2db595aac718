// One connection pool per tenant database, created on first use. A request can only
// obtain the pool of the tenant it was authorised for (see the servers' auth layer).
#pragma once

#include <condition_variable>
#include <thread>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "store/identity.hpp"
#include "store/budget.hpp"
#include "store/pool.hpp"

namespace cadastre::store {

class TenantPools {
 public:
  /// `base` supplies size/timeouts for every tenant pool; its dsn is ignored. The pools of
  /// the tenants on one PostgreSQL server (same host and port) share a ConnectionBudget of
  /// `per_server` connections (budget.hpp); a thread closes every pool's idle connections
  /// each second (PoolOptions::idle_timeout).
  TenantPools(PoolOptions base, std::size_t per_server);
  ~TenantPools();
  TenantPools(const TenantPools&) = delete;
  TenantPools& operator=(const TenantPools&) = delete;

  /// The pool of `t` (re-created if the tenant's DSN changed).
  Pool& pool(const Tenant& t);
  /// Stats of every open pool, keyed by tenant slug.
  std::map<std::string, PoolStats> stats() const;
  /// Connections open now to each server ("host:port"), across its tenants' pools.
  std::map<std::string, std::size_t> connections_per_server() const;

 private:
  void sweep();

  PoolOptions base_;
  std::size_t per_server_;
  mutable std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::map<std::int64_t, std::pair<std::string, std::unique_ptr<Pool>>> pools_;  // id → (slug, pool)
  std::map<std::int64_t, std::string> dsns_;
  std::map<std::string, std::shared_ptr<ConnectionBudget>> budgets_;  // server → its budget
  std::thread sweeper_;
};

/// Creates database `dbname` on the server of `server_dsn` if missing (no-op otherwise),
/// CONNECT revoked from PUBLIC: only its owner and the logins granted it connect.
void create_database(const std::string& server_dsn, const std::string& dbname);
/// Drops database `dbname` if it exists (terminating its connections); for tests.
void drop_database(const std::string& server_dsn, const std::string& dbname);

/// Throws Error(invalid_identifier) unless `slug` is a valid, unreserved tenant name.
void check_tenant_slug(const std::string& slug);

/// Creates (if needed) and migrates the database of tenant `slug`, `cad_<slug>` on the
/// server of `server_dsn`, and returns its DSN.
std::string prepare_tenant_database(const std::string& server_dsn, const std::string& slug);

/// Creates (if needed) and migrates a tenant database, registers the tenant and returns it.
/// The tenant database is `cad_<slug>` on the same server as the platform database.
Tenant provision_tenant(Identity& identity, const std::string& platform_dsn, const NewTenant& t);

}  // namespace cadastre::store
