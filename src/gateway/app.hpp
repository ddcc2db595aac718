// cadastre-gateway assembled: identity store, breakers, upstream pool, provider tokens and
// the HTTP server with the gateway auth scheme and every route module. main() and the
// integration tests both build it.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "gateway/auth.hpp"
#include "gateway/breakers.hpp"
#include "gateway/config.hpp"
#include "gateway/forward.hpp"
#include "store/intranet_users.hpp"
#include "gateway/jwt.hpp"
#include "gateway/provider_token.hpp"
#include "gateway/upstream.hpp"
#include "http/server.hpp"
#include "store/identity.hpp"
#include "store/events.hpp"
#include "store/pool.hpp"

namespace cadastre::gateway {

inline constexpr const char* kVersion = "0.1.0";

struct AppOptions {
  Config config;
  http::ServerOptions http;
  store::PoolOptions pool;  ///< identity-store pool size and time-outs (dsn: config.platform_dsn)
};

class App {
 public:
  explicit App(AppOptions options);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  http::Server& server() noexcept { return *server_; }
  store::Identity& identity() noexcept { return *identity_; }
  Breakers& breakers() noexcept { return *breakers_; }
  UpstreamPool& upstream() noexcept { return *upstream_; }
  Authenticator& authenticator() noexcept { return *auth_; }
  /// True while sessions revoked elsewhere reach this process at once (store/events.hpp).
  bool events_listening() const noexcept { return events_->listening(); }
  Forwarder& forwarder() noexcept { return *forwarder_; }
  const Config& config() const noexcept { return options_.config; }
  /// The token source of an authenticated provider, or nullptr.
  ProviderToken* provider_token(std::string_view label);
  std::chrono::steady_clock::time_point started() const noexcept { return started_; }
  /// Writes one line to the service log (the access log's stream).
  void log(const std::string& line);

  /// Binds and serves on a background thread (tests); stop() joins it.
  bool start();
  void stop();

 private:
  AppOptions options_;
  std::chrono::steady_clock::time_point started_;
  std::mutex log_mutex_;
  std::unique_ptr<store::Pool> platform_;
  std::unique_ptr<store::Identity> identity_;
  std::unique_ptr<store::IntranetUsers> intranet_;
  std::unique_ptr<JwtVerifier> jwt_;
  std::unique_ptr<Breakers> breakers_;
  std::unique_ptr<UpstreamPool> upstream_;
  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<store::EventFollower> events_;  ///< revoked sessions leave auth_'s cache
  std::unique_ptr<Forwarder> forwarder_;
  std::map<std::string, std::unique_ptr<ProviderToken>, std::less<>> provider_tokens_;
  std::unique_ptr<http::Server> server_;
};

// Route modules: each adds its section of the spec to the server.
void add_auth_scheme(App& app);
void add_health_routes(App& app);
void add_tenant_routes(App& app);
void add_provider_routes(App& app);
/// Per-breaker, per-host and provider-token figures on /metrics.
void add_gateway_metrics(App& app);

/// The breaker host label of the identity store ("host:port/dbname" of its DSN).
std::string identity_store_label(const std::string& dsn);

}  // namespace cadastre::gateway
