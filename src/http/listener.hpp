// The HTTP/1.1 engine of every service (Boost.Beast over Asio; docs/decisions/0008).
//
// `threads` event loops, one per thread, share the connections: each reads its connections'
// requests with Beast's parser, runs the route and writes the answer, all on its own thread
// (no hand-off); a loop of its own accepts. Reading and waiting are asynchronous, so a
// connection costs a socket and a buffer, never a thread, while it waits for its client; a
// thread is held only while a complete request is handled (handlers block on the database
// or a destination). Limits, each with a flag:
//
// - the head must arrive whole within `head_timeout` of its first byte, and the body at
//   `min_rate` bytes/s on average after a grace of `body_timeout` (a trickle of one byte
//   every few seconds is cut off, however often it sends) → 408;
// - an idle keep-alive connection closes after `keep_alive_timeout`;
// - head bytes over `header_max_bytes` or fields over `header_max_fields` → 431;
// - a body over `payload_max`, by Content-Length or by the chunked total → 413, before a
//   byte past the limit is read;
// - beyond `max_connections` open connections, the next `reserved_connections` may only
//   ask for `reserved_path` (liveness) within one second, others get 503 + Retry-After;
//   beyond both, a connection gets 503 at once;
// - the listen backlog is the system's maximum (net.core.somaxconn).
//
// Pipelined requests are answered in order. Request bodies may be chunked; multipart
// bodies are split into Request::files; answers are gzip-compressed when `compress` is set
// and the caller accepts it.
//
// A handler's Response::upgrade turns its connection into a WebSocket (Beast's websocket
// stream; http/websocket.hpp) on the same loop: it still costs no thread while open, counts
// in open_connections() and max_connections, and closes with 1001 on stop().
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "cadastre/error.hpp"
#include "http/http.hpp"

namespace cadastre::http {

struct ListenerOptions {
  std::string host = "127.0.0.1";
  int port = 0;                   ///< 0: any free port
  /// Event loops, one thread each. They also run the handlers, which block on the database
  /// or a destination: this is the number of requests handled at once.
  int threads = 64;
  int max_connections = 4096;     ///< open connections served normally
  int reserved_connections = 64;  ///< further connections that may only ask for reserved_path
  std::string reserved_path = "/health-check/liveness";
  int keep_alive_max = 100000;  ///< requests per connection
  std::chrono::seconds keep_alive_timeout{5};
  std::chrono::seconds head_timeout{10};
  std::chrono::seconds body_timeout{10};   ///< grace before min_rate applies to a body
  std::size_t min_rate = 8 * 1024;         ///< bytes/s a body must keep up, in and out
  std::chrono::seconds write_timeout{30};  ///< grace before min_rate applies to an answer
  std::size_t header_max_bytes = 64 * 1024;
  std::size_t header_max_fields = 100;
  std::size_t payload_max = 32 * 1024 * 1024;
  bool compress = true;   ///< gzip answers of compressible types when the caller accepts it
  bool multipart = true;  ///< split multipart/form-data bodies into Request::files
  // WebSockets (Response::upgrade, http/websocket.hpp):
  std::size_t websocket_message_max = 64 * 1024;  ///< a larger incoming message: close 1009
  /// What a slow reader may leave queued, in bytes and in messages; one more: close 1013.
  std::size_t websocket_queue_bytes = 1024 * 1024;
  std::size_t websocket_queue_messages = 256;
  /// A peer silent this long is taken for dead and dropped; the engine pings it (a control
  /// frame, which any live client answers) after half of it.
  std::chrono::seconds websocket_idle_timeout{60};
  /// Reverse proxies whose X-Forwarded-For names the client (addresses or networks,
  /// --trusted-proxies): Request::remote_addr is then the client's, see forwarded.hpp.
  /// Empty: the peer's address, whatever the request says.
  std::vector<std::string> trusted_proxies;
};

class Listener {
 public:
  /// Answers one request (Server::handle).
  using Handle = std::function<Response(Request&)>;
  /// Answers what the engine refuses itself (malformed request, limits, capacity), so that
  /// those answers get the service's headers (and a log line) too.
  using Refuse = std::function<Response(int status, errc code, const std::string& message,
                                        const std::string& remote_addr)>;

  /// The largest body the request `method` `path` (decoded, no query) may send; 0 when
  /// only payload_max applies. Asked once the head is in, so a larger Content-Length is
  /// refused with 413 before any of the body is read.
  using BodyLimit = std::function<std::size_t(std::string_view method, std::string_view path)>;

  Listener(ListenerOptions options, Handle handle, Refuse refuse, BodyLimit body_limit = {});
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  /// Binds and listens; false when the address cannot be bound.
  bool bind();
  /// Serves until stop(), then waits for every connection to end.
  void serve();
  /// From now on every answer says Connection: close (a rolling restart's drain: a load
  /// balancer's pooled connections to this instance end one request at a time, so none is
  /// idle here when stop() closes the idle ones). Safe from any thread.
  void drain() noexcept;
  /// Stops accepting and closes connections that wait for a request; requests being
  /// handled are answered (with Connection: close); WebSockets close with 1001 (a client
  /// that does not answer the close is cut off after a second). Safe from any thread.
  void stop();
  bool running() const noexcept;
  int port() const noexcept;
  /// Connections open now (for /metrics and tests).
  int open_connections() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadastre::http
