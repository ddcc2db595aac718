// An HTTP service: the route table, auth schemes, errors in the shared shape, CORS,
// X-Request-Id, JSON access log, /metrics, /openapi.json and /docs, on cpp-httplib tuned
// for throughput (TCP_NODELAY, long keep-alive, sized thread pool, bounded timeouts and
// bodies) or on the server's own connection loop (Engine::direct). Neither is visible here.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "http/http.hpp"
#include "http/metrics.hpp"
#include "http/router.hpp"

namespace cadastre::http {

/// What carries requests to Server::handle().
enum class Engine {
  /// cpp-httplib: multipart bodies, chunked request bodies, response compression.
  httplib,
  /// The server's own loop (listener.hpp): a fraction of the system calls per request, for
  /// services that take small bodies and pass responses on as they are (the gateway).
  direct,
};

struct ServerOptions {
  Engine engine = Engine::httplib;
  std::string host = "127.0.0.1";
  int port = 0;                      ///< 0: any free port (see Server::port())
  /// Worker threads. Both engines serve each connection on one thread for its whole
  /// keep-alive life, so this bounds the connections served at once: size it above the
  /// expected concurrent clients (a proxy in front pools connections). Beyond it, cpp-httplib
  /// queues new connections and the direct engine answers them 503.
  int threads = 64;
  int keep_alive_max = 100000;       ///< requests per keep-alive connection
  /// An idle keep-alive connection releases its thread after this long.
  std::chrono::seconds keep_alive_timeout{5};
  std::chrono::seconds read_timeout{30};
  std::chrono::seconds write_timeout{30};
  std::size_t payload_max = 32 * 1024 * 1024;  ///< largest request body (413 beyond)
  std::vector<std::string> cors_origins = {"*"};  ///< allowed origins; "*" allows any
  bool access_log = true;            ///< one JSON line per request on `log`
  /// Called on every response just before it is sent, including those the server makes
  /// itself (404, 405, CORS preflight, /metrics, /openapi.json, /docs): services add the
  /// headers their contract puts on every answer.
  std::function<void(const Request&, Response&)> finalize;
  std::ostream* log = nullptr;       ///< default std::cerr
};

/// Description of the service for the OpenAPI document.
struct ServiceInfo {
  std::string title, version, description;
  std::string openapi_path = "/openapi.json";
  std::string metrics_prefix = "cadastre";
};

class Server {
 public:
  Server(ServiceInfo info, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Registers an auth scheme before any route that names it.
  void add_auth_scheme(AuthScheme scheme);
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
  /// Stops accepting; in-flight requests finish; serve() returns. Safe from any thread.
  void stop();
  bool running() const noexcept;
  int port() const noexcept { return port_; }
  std::string base_url() const;

  /// Dispatches one request without the network (used by serve() and by tests).
  Response handle(Request& req);

 private:
  bool bind_direct();
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
};

}  // namespace cadastre::http
