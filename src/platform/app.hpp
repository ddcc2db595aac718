// cadastre-platform assembled: the identity store (sessions, accounts, licenses), the
// tenants' pools, the mailer, the live event bus, the HTTP server with its auth scheme and
// every area. main() and the integration tests both build it. See docs/platform.md.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cadastre/limits.hpp"
#include "directory/options.hpp"
#include "http/server.hpp"
#include "jwt/jwt.hpp"
#include "mail/smtp.hpp"
#include "outbound/fetch.hpp"
#include "service/bulkhead.hpp"
#include "service/events.hpp"
#include "service/scope.hpp"
#include "service/tenancy.hpp"
#include "store/catalog.hpp"
#include "store/identity.hpp"
#include "store/events.hpp"
#include "store/pool.hpp"
#include "store/secret_checks.hpp"
#include "store/tenants.hpp"

namespace cadastre::platform {
namespace guard {
class Memory;
}

/// What an upload may declare before anything of it is decoded (cadastre/limits.hpp;
/// docs/operations.md, "Limits", lists each flag).
struct DecodeLimits {
  /// Shapefile zips and KMZs: the declared uncompressed total (--max-expanded-mb) and ratio.
  limits::ArchiveLimits archive;
  /// A KML is parsed whole into memory (about twice its size): its own ceiling (--max-kml-mb).
  std::uint64_t max_kml = 64 * limits::kMiB;
  /// Vector imports: features, fields, declared attribute bytes (--max-attribute-mb) and
  /// vertices per geometry (--max-vertices).
  limits::TableLimits table;
  /// GeoTIFFs (--max-raster-mp, --max-raster-decoded-mb).
  limits::RasterLimits raster;
  /// Photos and other images made into thumbnails (--max-photo-mp).
  limits::RasterLimits image{.max_side = 20000, .max_bands = 4, .max_pixels = 50'000'000,
                             .max_decoded = 200 * limits::kMiB, .max_ratio = 1e9, .ratio_floor = 0};
};

/// The job runner's workers and each job's budget (platform/jobs/jobs.hpp, Budget).
struct JobBudget {
  int workers = 2;
  int per_tenant = 1;
  std::chrono::seconds wall{1800};
  std::chrono::seconds cpu{900};
  std::chrono::seconds lease{30};  ///< a claimed job's lease (jobs.hpp), renewed while it runs
  int attempts = 3;                ///< claims or unexpected failures before a job ends falhou
};

/// What a self-service account starts with (POST /nova-conta): a trial license.
struct TrialOptions {
  int days = 30;
  int max_users = 5;
  int max_storage_mb = 1024;
  /// New accounts' tenants get databases (cad_<slug>, created when the account is
  /// confirmed) on this server; empty: the platform database's server.
  std::string tenant_server_dsn;
};

struct AppOptions {
  std::string platform_dsn;  ///< identity store (platform database)
  http::ServerOptions http;
  store::PoolOptions pool;  ///< size and timeouts of every pool (dsn ignored)
  /// The tenant connections this process may hold on one PostgreSQL server, across all its
  /// tenants there (--connections-per-server; store/budget.hpp).
  std::size_t connections_per_server = 64;
  std::chrono::milliseconds token_ttl{5000};
  /// How long a read may use the guard's answer for the same caller and record
  /// (guard/memory.hpp; at most 1 s). 0 asks the database at every request.
  std::chrono::milliseconds guard_ttl{0};
  store::SessionLimits sessions;
  store::SecretCheckLimits secret_checks;  ///< failed password checks (store/secret_checks.hpp)
  DecodeLimits decode;
  JobBudget jobs;
  TrialOptions trial;
  mail::SmtpOptions smtp;  ///< empty url: e-mail routes answer 503
  directory::LdapOptions ldap;  ///< directory of POST /login/LDAP (empty uri: 503)
  /// The OpenID Connect provider whose id_tokens POST /login/oAuth accepts (its key, `iss`
  /// and `aud`, all required); no key: 503.
  jwt::JwtOptions oidc;
  /// The address users reach the platform at, for links in e-mails
  /// ("https://cadastro.exemplo.gov.br"); default: the server's own base URL.
  std::string public_url;
  /// The page of the web client where a password reset link leads (the token is added as
  /// ?token=); the page then calls POST /recuperarsenha with the token and the new
  /// password. Default: <public_url>/redefinir-senha.
  std::string reset_page_url;
  std::chrono::minutes one_time_token_ttl{60};
  /// Internal services of the proxy routes: "app-backend", "api-r", "dbrest" → base URL.
  std::map<std::string, std::string> services;
  outbound::Policy outbound;  ///< /proxy, /proxyR, /proxy-v2 calls to outside servers
  /// A municipality's own authentication service for /proxy-v2/<cidade>/auth: label → URL
  /// (called under `outbound`).
  std::map<std::string, std::string> city_auth;
  /// The platform's file store root: each tenant's files live under
  /// <files_dir>/<tenant slug>/... (a layer's under camadas/<id>/). Empty: no file store
  /// (routes that need a file answer 503). Tests set it to a temporary directory.
  std::string files_dir;
  /// The key of the presigned links to stored files (GET /arquivos/fotos/presigned-url,
  /// HMAC-SHA256). Empty: a random key for this process (links die with it; instances
  /// behind one balancer must share a key).
  std::string files_secret;
  /// The largest upload of the files and photos routes (413 above it, before the body is read).
  std::size_t files_max_bytes = 20u << 20;
  /// The memory for /vt's and /svt's rendered tiles (platform/tiles/cache.hpp); 0: none kept.
  std::size_t tile_cache_bytes = 64u << 20;
  /// Municipalities (tenant slugs) with their own routes /zonas/<cidade>,
  /// /observacoes/<cidade> and /consulta/<cidade> (--city-routes campinas,valinhos); each
  /// answers only its own tenant's users, any other city is 404.
  std::vector<std::string> city_routes;
  std::string version = "0.1.0";
  std::string build = "dev";  ///< build identifier shown by /versao
};

class App {
 public:
  explicit App(AppOptions options);
  ~App();

  http::Server& server() noexcept { return *server_; }
  store::Pool& platform() noexcept { return *platform_; }
  store::Identity& identity() noexcept { return *identity_; }
  /// The throttle of every route that checks a password or another secret (shared by all
  /// instances of both services through the platform database).
  store::SecretChecks& secret_checks() noexcept { return *secret_checks_; }
  /// The expensive reads of each tenant (searches, thematic maps, attribute queries, value
  /// searches) share a quarter of its pool in this process (service/bulkhead.hpp).
  service::Bulkhead& heavy_reads() noexcept { return *heavy_reads_; }
  store::TenantPools& tenants() noexcept { return *tenants_; }
  /// The guard's answers kept for reads (guard/memory.hpp).
  const std::shared_ptr<guard::Memory>& guard_memory() noexcept { return guard_memory_; }
  const service::Tenancy& tenancy() const noexcept { return *tenancy_; }
  /// This process's sockets' subscriptions: the events every instance publishes
  /// (store::publish_event) reach them through the follower.
  service::EventBus& events() noexcept { return events_; }
  /// True while events published anywhere reach this process (store/events.hpp).
  bool events_listening() const noexcept { return follower_->listening(); }
  /// The id of the last event this process delivered (plataforma.eventos).
  std::int64_t events_delivered() const noexcept { return follower_->last(); }
  const mail::Mailer& mailer() const noexcept { return *mailer_; }
  const AppOptions& options() const noexcept { return options_; }
  /// options().public_url, or the server's own base URL once bound.
  std::string public_url() const;

  /// Binds and serves on a background thread (tests); stop() joins it.
  bool start();
  void stop();

 private:
  // An event from the follower: revocations leave identity_'s cache, then the event goes
  // to its sessions' subscriptions in this process.
  void deliver(const store::LoggedEvent& e);

  AppOptions options_;
  std::unique_ptr<store::Pool> platform_;
  std::unique_ptr<store::Identity> identity_;
  std::unique_ptr<store::SecretChecks> secret_checks_;
  std::unique_ptr<service::Bulkhead> heavy_reads_;
  std::unique_ptr<store::TenantPools> tenants_;
  store::CatalogCache catalogs_;
  std::unique_ptr<service::Tenancy> tenancy_;
  std::shared_ptr<guard::Memory> guard_memory_;  ///< shared with the requests that mark a write's end
  service::EventBus events_;
  std::unique_ptr<store::EventFollower> follower_;  ///< every instance's events → events_ (and revocations → identity_)
  std::unique_ptr<mail::Mailer> mailer_;
  std::unique_ptr<http::Server> server_;
};

// The auth scheme and the areas: each adds its section of the spec to the server.
void add_auth_scheme(App& app);
void add_system_routes(App& app);
void add_session_routes(App& app);
void add_account_routes(App& app);
void add_profile_routes(App& app);
void add_user_routes(App& app);
void add_company_routes(App& app);
void add_license_routes(App& app);
void add_tenant_routes(App& app);
void add_provider_routes(App& app);
void add_proxy_routes(App& app);
void add_live_routes(App& app);
// Projects, layers, forms, fields, values (the tenant's database, schema projeto).
void add_project_routes(App& app);
void add_additional_layer_routes(App& app);
void add_layer_routes(App& app);
void add_layer_style_routes(App& app);
void add_layer_user_routes(App& app);
void add_form_routes(App& app);
void add_field_routes(App& app);
void add_value_routes(App& app);
void add_geometry_routes(App& app);
void add_permission_routes(App& app);
// Search and thematic maps over projects; geography (references, IBGE tables, CEPs,
// zoning, per-city routes) and overlay analyses.
void add_search_routes(App& app);
void add_geography_routes(App& app);
// Files and photos of projects, layers, geometries; company logos and user photos; templates.
void add_file_routes(App& app);
// Vector tiles of the layers (/vt, /vt2, /svt, /especifico/vector-tiles).
void add_tile_routes(App& app);
// Issue #17: imports, rasters, WMS, geostatistics, mass appraisal.
void add_import_routes(App& app);
void add_raster_routes(App& app);
void add_wms_routes(App& app);
void add_geostatistics_routes(App& app);
void add_mass_appraisal_routes(App& app);
// Issue #18: contracting, audit, ombudsman, wiki map, custom maps, reports.
void add_contracting_routes(App& app);
void add_audit_routes(App& app);
void add_ombudsman_routes(App& app);
void add_wikimap_routes(App& app);
void add_custom_map_routes(App& app);
void add_layer_report_routes(App& app);
void add_city_report_routes(App& app);

}  // namespace cadastre::platform
