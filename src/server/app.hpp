// cadastre-server assembled: identity store, per-tenant pools, the HTTP server with its
// auth schemes and every route module. main() and the integration tests both build it.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "http/server.hpp"
#include "store/catalog.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/tenants.hpp"

namespace cadastre::server {

struct AppOptions {
  std::string platform_dsn;        ///< identity store (platform database)
  http::ServerOptions http;
  store::PoolOptions pool;         ///< size and timeouts of every pool (dsn ignored)
  std::chrono::milliseconds token_ttl{5000};
};

/// What the main bearer scheme establishes for a request (in Request::auth).
struct Context {
  store::Principal user;
  store::Tenant tenant;        ///< the tenant of {municipio}, or the user's own
  store::Pool* db = nullptr;   ///< that tenant's database pool
};

/// The context of an authenticated request (throws if the route had no main bearer auth).
const Context& context(const http::Request& req);

class App {
 public:
  explicit App(AppOptions options);
  ~App();

  http::Server& server() noexcept { return *server_; }
  store::Identity& identity() noexcept { return *identity_; }
  store::TenantPools& tenants() noexcept { return *tenants_; }
  store::CatalogCache& catalogs() noexcept { return catalogs_; }
  const AppOptions& options() const noexcept { return options_; }

  /// Binds and serves on a background thread (tests); stop() joins it.
  bool start();
  void stop();

 private:
  AppOptions options_;
  std::unique_ptr<store::Pool> platform_;
  std::unique_ptr<store::Identity> identity_;
  std::unique_ptr<store::TenantPools> tenants_;
  store::CatalogCache catalogs_;
  std::unique_ptr<http::Server> server_;
  std::thread thread_;
};

// Route modules: each adds its section of the spec to the server.
void add_auth_schemes(App& app);
void add_health_routes(App& app);
void add_user_routes(App& app);
void add_layer_routes(App& app);
void add_tile_routes(App& app);
void add_crud_routes(App& app);
void add_domain_routes(App& app);
void add_geo_routes(App& app);
void add_scheduling_routes(App& app);

}  // namespace cadastre::server
