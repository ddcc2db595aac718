// An HTTP service: the route table, auth schemes, errors in the shared shape, CORS,
// X-Request-Id, JSON access log, /metrics, /openapi.json and /docs, served by the engine of
// listener.hpp (Boost.Beast), which stays invisible here.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "http/http.hpp"
#include "http/listener.hpp"
#include "http/metrics.hpp"
#include "http/router.hpp"

namespace cadastre::http {

/// The engine's limits (listener.hpp) and what the service adds on top.
struct ServerOptions : ListenerOptions {
  std::vector<std::string> cors_origins = {"*"};  ///< allowed origins; "*" allows any
  bool access_log = true;            ///< one JSON line per request on `log`
  /// Called on every response just before it is sent, including those the server makes
  /// itself (404, 405, CORS preflight, /metrics, /openapi.json, /docs, and the engine's
  /// refusals): services add the headers their contract puts on every answer.
  std::function<void(const Request&, Response&)> finalize;
  std::ostream* log = nullptr;       ///< default std::cerr
  /// After a stop signal, how long the service keeps serving with its readiness at 503
  /// before it stops accepting (cli::serve_until_signal; --drain-seconds): long enough for
  /// a load balancer's health checks to take the instance out.
  std::chrono::seconds drain{3};
  /// After the drain, how long requests in flight may take to finish
  /// (cli::serve_until_signal; --stop-grace-seconds); past it the process exits anyway,
  /// and its running jobs go to another instance when their leases expire.
  std::chrono::seconds stop_grace{30};
};

/// Description of the service for the OpenAPI document.
struct ServiceInfo {
  std::string title, version, description;
  std::string openapi_path = "/openapi.json";
  std::string metrics_prefix = "cadastre";
  /// Named schemas (name, JSON Schema text) the routes' body and answer schemas $ref as
  /// "#/components/schemas/<name>". "Erro" (the shared error shape) is always there.
  std::vector<std::pair<std::string, std::string>> schemas = {};
};

class Server {
 public:
  Server(ServiceInfo info, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Registers an auth scheme before any route that names it.
  void add_auth_scheme(AuthScheme scheme);
  /// The hook of a registered scheme, for a scheme that accepts another's credential as one
  /// of its forms (std::invalid_argument when none is registered under `name`).
  AuthHook auth_hook(std::string_view name) const;
  /// Registers a route; throws std::invalid_argument for unknown auth schemes or duplicates.
  void add(Route route);

  Metrics& metrics() noexcept { return metrics_; }
  const Router& router() const noexcept { return router_; }
  /// The OpenAPI 3.0 document of every registered route.
  std::string openapi() const;

  /// Binds (options.port, or a free port when 0). Returns false when binding fails.
  bool bind();
  /// Serves until stop(); call bind() first.
  void serve();
  /// Binds and serves on a background thread of its own (the services' in-process use:
  /// tests, benchmarks); false when binding fails or serving did not begin.
  bool start();
  /// Stops accepting; in-flight requests finish; serve() returns, and the thread of start()
  /// is joined. Safe from any thread.
  void stop();
  /// The first step of a graceful stop (a rolling restart): the service goes on serving,
  /// but its readiness probe answers 503 from now on, so a load balancer sends it nothing
  /// new before stop(), and every answer closes its connection, so none of the balancer's
  /// pooled connections is idle here when stop() comes. Safe from any thread.
  void drain() noexcept;
  bool draining() const noexcept { return draining_; }
  bool running() const noexcept;
  int port() const noexcept { return port_; }
  /// Connections open right now (0 when not serving): for tests and metrics.
  int open_connections() const noexcept;
  std::string base_url() const;

  /// Dispatches one request without the network (used by serve() and by tests).
  Response handle(Request& req);

 private:
  /// One line on the log stream (options.log, else std::cerr), whole even from many threads.
  void write_log(const std::string& line);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  ServiceInfo info_;
  ServerOptions options_;
  Router router_;
  std::vector<AuthScheme> schemes_;
  Metrics metrics_;
  int port_ = 0;
  std::atomic<bool> draining_{false};
};

}  // namespace cadastre::http
