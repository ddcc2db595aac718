// The gateway under test: a real identity store (the shared test::Stack with tenants alfa
// and beta), real loopback destinations, and cadastre-gateway running in-process.
#pragma once

#include <httplib.h>
#include <simdjson.h>

#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "gateway/app.hpp"
#include "support/harness.hpp"
#include "upstream.hpp"

namespace cadastre::test {

/// One identity store for the whole test binary (tenants alfa and beta, a user each).
Stack& shared_stack();
std::int64_t tenant_id(const std::string& slug);

/// Destinations of a gateway: REST, tiles and the platform, each its own server.
struct Destinations {
  Upstream rest, tiles, platform;
};

/// A configuration pointing at `d` with small time-outs and the default breakers.
gateway::Config config_for(const Destinations& d);

/// Breaker settings small enough for tests: window 4, 4 calls, 50%, `wait_ms` open,
/// 2 trials, 2 s maximum half-open.
gateway::BreakerPolicy quick_breaker(int wait_ms = 150);

class Gateway {
 public:
  /// `adjust` may change the HTTP options (limits, time-outs) before the gateway starts.
  explicit Gateway(gateway::Config cfg, store::PoolOptions pool = {},
                   const std::function<void(http::ServerOptions&)>& adjust = {});
  ~Gateway();
  gateway::App& app() { return *app_; }
  httplib::Client client() const;
  /// What the gateway logged (upstream failures, token errors).
  std::string log() const { return log_.str(); }

 private:
  std::ostringstream log_;
  std::unique_ptr<gateway::App> app_;
};

/// `h` plus the headers in `more`.
/// The bearer of the shared stack's tenant "alfa" user.
inline httplib::Headers alfa_auth() { return Stack::bearer(shared_stack().user("alfa").token); }

inline httplib::Headers with(httplib::Headers h, std::initializer_list<std::pair<const std::string, std::string>> more) {
  for (const auto& kv : more) h.insert(kv);
  return h;
}

/// `codigo` of an error body.
std::string codigo(const std::string& body);
/// The state of breaker `name` for destination `host` in /health/detailed ("" if absent).
std::string breaker_state(httplib::Client& cli, const std::string& name, const std::string& host);

}  // namespace cadastre::test
