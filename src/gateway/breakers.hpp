// The gateway's circuit breakers: three names (rest, tiles, auth), and under each name one
// independent breaker per destination host, created on first use. One municipality's
// outage therefore opens only the breaker of its own host.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/breaker.hpp"

namespace cadastre::gateway {

inline constexpr std::string_view kBreakerRest = "rest";
inline constexpr std::string_view kBreakerTiles = "tiles";
inline constexpr std::string_view kBreakerAuth = "auth";

/// What a breaker name is configured with.
struct BreakerPolicy {
  BreakerSettings settings;
  /// Upstream statuses that count as failures (besides connection errors and time-outs).
  std::set<int> failure_statuses = {502, 503, 504};
};

class Breakers {
 public:
  explicit Breakers(std::map<std::string, BreakerPolicy, std::less<>> policies,
                    CircuitBreaker::Clock clock = &std::chrono::steady_clock::now);

  /// The breaker of `host` under `name` (a configured name; throws std::out_of_range otherwise).
  CircuitBreaker& get(std::string_view name, std::string_view host);
  const BreakerPolicy& policy(std::string_view name) const;
  /// True when `status` from an upstream counts as a failure for breaker `name`.
  bool is_failure_status(std::string_view name, int status) const;

  std::vector<std::string> names() const;

  struct Entry {
    std::string name, host;
    BreakerSnapshot snapshot;
  };
  /// Every breaker created so far, ordered by name then host.
  std::vector<Entry> snapshot() const;

 private:
  std::map<std::string, BreakerPolicy, std::less<>> policies_;
  CircuitBreaker::Clock clock_;
  mutable std::mutex mutex_;
  // name → host → breaker; std::less<> allows lookups by string_view without copies.
  std::map<std::string, std::map<std::string, std::unique_ptr<CircuitBreaker>, std::less<>>, std::less<>> breakers_;
};

}  // namespace cadastre::gateway
