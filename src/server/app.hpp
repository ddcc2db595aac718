// cadastre-server assembled: identity store, per-tenant pools, the HTTP server with its
// auth schemes and every route module. main() and the integration tests both build it.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "http/server.hpp"
#include "directory/options.hpp"
#include "service/scope.hpp"
#include "service/tenancy.hpp"
#include "store/catalog.hpp"
#include "store/identity.hpp"
#include "store/events.hpp"
#include "store/pool.hpp"
#include "store/secret_checks.hpp"
#include "store/tenants.hpp"

namespace cadastre::server {

/// File storage of /midia (the file store under `root`, see server/media/files.hpp).
/// http.payload_max must admit the base64 form of max_bytes (4/3 of it plus the JSON
/// around): cadastre-server's main() raises it accordingly.
struct MediaOptions {
  std::string root = "var/midia";  ///< storage root (created when missing)
  std::size_t max_bytes = std::size_t{25}
                          << 20;  ///< largest file of the credentialed routes (413 beyond)
  std::size_t public_max_bytes = std::size_t{5}
                                 << 20;  ///< largest file of POST /midia/storage (no credential)
  /// Accepted extensions (lowercase, leading dot); each is checked against the content.
  std::vector<std::string> extensions = {".png",  ".jpg", ".jpeg", ".gif", ".webp", ".tif",
                                         ".tiff", ".pdf", ".mp4",  ".txt", ".csv",  ".json"};
};

struct AppOptions {
  std::string platform_dsn;  ///< identity store (platform database)
  http::ServerOptions http;
  store::PoolOptions pool;  ///< size and timeouts of every pool (dsn ignored)
  /// The tenant connections this process may hold on one PostgreSQL server, across all its
  /// tenants there (--connections-per-server; store/budget.hpp).
  std::size_t connections_per_server = 64;
  std::chrono::milliseconds token_ttl{5000};
  store::SecretCheckLimits secret_checks;  ///< failed password checks (store/secret_checks.hpp)
  directory::LdapOptions ldap;  ///< directory for POST /ldap/login/ (empty uri: disabled)
  MediaOptions media;
};

/// What the main bearer scheme establishes for a request (service/scope.hpp).
using Context = service::Scope;
/// The scope of an authenticated request (500 when the route had no bearer auth).
inline const Context& context(const http::Request& req) { return service::scope(req); }

class ValuationProfiles;  // server/valuation/profiles.hpp: the tenants' valuation profiles
std::shared_ptr<ValuationProfiles> make_valuation_profiles();

class App {
 public:
  explicit App(AppOptions options);
  ~App();

  http::Server& server() noexcept { return *server_; }
  store::Identity& identity() noexcept { return *identity_; }
  /// The throttle of every route that checks a password or another secret (shared by all
  /// instances of both services through the platform database).
  store::SecretChecks& secret_checks() noexcept { return *secret_checks_; }
  store::TenantPools& tenants() noexcept { return *tenants_; }
  store::CatalogCache& catalogs() noexcept { return catalogs_; }
  /// slug → active tenant → pool → Scope, for the auth schemes.
  const service::Tenancy& tenancy() const noexcept { return *tenancy_; }
  const AppOptions& options() const noexcept { return options_; }
  /// True while sessions revoked elsewhere reach this process at once (store/events.hpp).
  bool events_listening() const noexcept { return events_->listening(); }
  ValuationProfiles& valuation_profiles() noexcept { return *valuation_profiles_; }

  /// Binds and serves on a background thread (tests); stop() joins it.
  bool start();
  void stop();

 private:
  AppOptions options_;
  std::unique_ptr<store::Pool> platform_;
  std::unique_ptr<store::Identity> identity_;
  std::unique_ptr<store::SecretChecks> secret_checks_;
  std::unique_ptr<store::EventFollower> events_;  ///< sessions revoked elsewhere leave identity_'s cache
  std::unique_ptr<store::TenantPools> tenants_;
  store::CatalogCache catalogs_;
  std::unique_ptr<service::Tenancy> tenancy_;
  std::shared_ptr<ValuationProfiles> valuation_profiles_ = make_valuation_profiles();
  std::unique_ptr<http::Server> server_;
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
void add_explorer_routes(App& app);
void add_dbrest_routes(App& app);
void add_mapoteca_routes(App& app);
void add_viewer360_routes(App& app);
void add_characterization_routes(App& app);
void add_mobile_routes(App& app);
void add_media_routes(App& app);
void add_service_desk_routes(App& app);
void add_ldap_routes(App& app);
void add_integracao_routes(App& app);
void add_issue_tracker_routes(App& app);
void add_valuation_routes(App& app);
void add_portal_routes(App& app);
void add_provas_routes(App& app);

}  // namespace cadastre::server
