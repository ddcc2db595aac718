// HTTP calls to destinations over kept-alive connections: a pool of idle connections per
// destination host (scheme://host:port). A call leases a connection, writes the request,
// reads the response head and then either the whole body (small bodies, and callers that
// need it whole) or only its start: the rest is read on demand by a BodyStream while the
// caller writes it on, so a large answer crosses the gateway without being held in memory.
// A connection goes back to the pool once its response was read completely.
//
// The client is our own (plain sockets, wire.hpp): cpp-httplib's client cannot hand back a
// response before its body is read, and it polls before every read. Destinations are
// HTTP or HTTPS (OpenSSL, verified against the system's CAs plus upstream.ca_file).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gateway/config.hpp"
#include "gateway/headers.hpp"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace cadastre::gateway {

struct UpstreamRequest {
  std::string method = "GET";
  std::string origin;  ///< "http://127.0.0.1:8080"
  std::string target;  ///< encoded "/path?query"
  HeaderList headers;
  std::string body;          ///< empty for GET and HEAD
  std::string content_type;  ///< of `body`
  /// Bodies over UpstreamLimits::inline_body_bytes come back as a BodyStream instead of
  /// being read whole (the forwarder); other callers always get the whole body.
  bool stream_large_body = false;
};

class UpstreamConnection;
class UpstreamPool;

/// The unread rest of a response body, still on its connection.
class BodyStream {
 public:
  using Write = std::function<bool(const char* data, std::size_t size)>;
  ~BodyStream();
  BodyStream(const BodyStream&) = delete;
  BodyStream& operator=(const BodyStream&) = delete;

  /// Reads the rest of the body and passes it to `write` piece by piece. False when the
  /// destination broke off or timed out, the body passed max_response_bytes, or `write`
  /// returned false (the caller left); the connection is then closed, not reused.
  bool pump(const Write& write);

 private:
  friend class UpstreamPool;
  struct State;
  explicit BodyStream(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

struct UpstreamResult {
  enum class Outcome {
    ok,              ///< an HTTP response arrived (any status)
    connect_failed,  ///< nothing listening, refused, DNS or TLS failure → 502
    timeout,         ///< connect or read time-out → 504
    failed,          ///< the connection broke mid-way → 502
    too_large,       ///< the body exceeded max_response_bytes → 502
  };
  Outcome outcome = Outcome::failed;
  int status = 0;
  HeaderList headers;
  std::string body;    ///< the whole body, or its first part when `rest` is set
  std::shared_ptr<BodyStream> rest;             ///< the remainder of a streamed body
  std::optional<std::uint64_t> content_length;  ///< the whole body's length, when announced
  std::string detail;  ///< what went wrong (for logs; never shown to callers)
  std::chrono::microseconds elapsed{0};
};

class UpstreamPool {
 public:
  UpstreamPool(Timeouts timeouts, UpstreamLimits limits);
  ~UpstreamPool();
  UpstreamPool(const UpstreamPool&) = delete;
  UpstreamPool& operator=(const UpstreamPool&) = delete;

  /// Performs the call. A GET or HEAD that fails on a reused connection before any response
  /// byte arrived (the destination closed it while idle) is retried once on a new one.
  UpstreamResult send(const UpstreamRequest& req);

  /// One call with a short time-out, outside the pool (health probes).
  UpstreamResult probe(const std::string& url, std::chrono::milliseconds timeout);

  struct HostStats {
    std::size_t idle = 0;
    std::uint64_t opened = 0, reused = 0;
  };
  std::map<std::string, HostStats> stats() const;

  const Timeouts& timeouts() const noexcept { return timeouts_; }

 private:
  friend class BodyStream;
  struct Idle {
    std::unique_ptr<UpstreamConnection> connection;
    std::chrono::steady_clock::time_point since;
  };
  struct Host {
    std::vector<Idle> idle;
    std::uint64_t opened = 0, reused = 0;
  };
  /// An idle connection for `origin`, or null. It is checked for a close by the
  /// destination unless it was used within kTrustedIdle and the request can be retried.
  std::unique_ptr<UpstreamConnection> lease(const std::string& origin, bool retryable, bool& reused);
  static constexpr std::chrono::milliseconds kTrustedIdle{1000};
  void give_back(const std::string& origin, std::unique_ptr<UpstreamConnection> connection);
  UpstreamResult exchange(std::unique_ptr<UpstreamConnection>& conn, const UpstreamRequest& req, const Timeouts& t,
                          bool& got_bytes);

  Timeouts timeouts_;
  UpstreamLimits limits_;
  ssl_ctx_st* tls_context();  ///< built on first use (or at start-up with upstream.ca_file)
  std::once_flag tls_once_;
  std::shared_ptr<ssl_ctx_st> tls_;  ///< client context shared by every https connection
  mutable std::mutex mutex_;
  std::map<std::string, Host, std::less<>> hosts_;
};

}  // namespace cadastre::gateway
