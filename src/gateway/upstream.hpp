// HTTP calls to destinations over kept-alive connections: one pool of cpp-httplib clients
// per destination host (scheme://host:port). A client carries one connection and serves one
// call at a time, so a call leases a client and gives it back when done; idle clients past
// `idle` are closed, and at most `max_idle_per_host` are kept per host.
//
// Bodies are read with a content receiver straight into the response buffer, bounded by
// `max_response_bytes`. (cadastre::http::Response holds the body as one string, so the
// gateway cannot yet stream a body to its caller while it is still arriving.)
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gateway/config.hpp"
#include "gateway/headers.hpp"

namespace httplib {
class Client;
}

namespace cadastre::gateway {

struct UpstreamRequest {
  std::string method = "GET";
  std::string origin;  ///< "http://127.0.0.1:8080"
  std::string target;  ///< encoded "/path?query"
  HeaderList headers;
  std::string body;          ///< empty for GET and HEAD
  std::string content_type;  ///< of `body`
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
  std::string body;
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
  struct Idle {
    std::unique_ptr<httplib::Client> client;
    std::chrono::steady_clock::time_point since;
  };
  struct Host {
    std::vector<Idle> idle;
    std::uint64_t opened = 0, reused = 0;
  };
  std::unique_ptr<httplib::Client> lease(const std::string& origin, bool& reused);
  void give_back(const std::string& origin, std::unique_ptr<httplib::Client> client);
  std::unique_ptr<httplib::Client> make_client(const std::string& origin) const;
  UpstreamResult send_once(httplib::Client& client, const UpstreamRequest& req, bool& got_bytes);

  Timeouts timeouts_;
  UpstreamLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, Host, std::less<>> hosts_;
};

}  // namespace cadastre::gateway
