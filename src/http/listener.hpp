// The server's own HTTP/1.1 connection loop (ServerOptions::engine = Engine::direct): one
// thread per connection for its keep-alive life, blocking reads with socket time-outs, and
// one write per response (head and body together). Per request it costs one read and one
// write system call where cpp-httplib adds a poll() before every read and write plus two
// address lookups, which is most of what a proxy spends (docs/decisions/0007).
//
// Request bodies need a Content-Length (a transfer-coded body gets 411); multipart parsing
// and response compression are left to the cpp-httplib engine.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "cadastre/error.hpp"
#include "http/http.hpp"

namespace cadastre::http {

struct ListenerOptions {
  std::string host = "127.0.0.1";
  int port = 0;                 ///< 0: any free port
  int max_connections = 1024;   ///< beyond it a new connection gets 503 and is closed
  int keep_alive_max = 100000;  ///< requests per connection
  std::chrono::seconds keep_alive_timeout{5};
  std::chrono::seconds read_timeout{30};
  std::chrono::seconds write_timeout{30};
  std::size_t payload_max = 32 * 1024 * 1024;
};

class Listener {
 public:
  /// Answers one request (Server::handle).
  using Handle = std::function<Response(Request&)>;
  /// Answers what the loop refuses itself (malformed request, body too large, capacity),
  /// so that those answers get the service's headers (and a log line) too.
  using Refuse = std::function<Response(int status, errc code, const std::string& message,
                                        const std::string& remote_addr)>;

  Listener(ListenerOptions options, Handle handle, Refuse refuse);
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  /// Binds and listens; false when the address cannot be bound.
  bool bind();
  /// Accepts connections until stop(), then waits for every connection to end.
  void serve();
  /// Stops accepting, closes idle connections; requests in progress are answered.
  void stop();
  bool running() const noexcept;
  int port() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadastre::http
