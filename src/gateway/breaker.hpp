// A circuit breaker as a pure state machine (no I/O, injectable clock).
//
//   CLOSED     calls pass; the outcomes of the last `sliding_window` calls are kept. Once at
//              least `minimum_calls` are in the window and the failure rate reaches
//              `failure_rate_threshold` percent, the breaker opens.
//   OPEN       every call is refused at once. After `wait_in_open` the next look at the
//              breaker moves it to HALF_OPEN.
//   HALF_OPEN  `half_open_calls` trial calls are let through, the others refused. The first
//              failed trial opens the breaker again; when every trial succeeded it closes
//              (with an empty window). If the trials do not all report back within
//              `max_wait_in_half_open` (a hung trial), the breaker opens again, so it can
//              never stay stuck half-open.
//
// Every permit carries the generation of the state it was issued in: an outcome reported
// after the state changed (a slow call admitted while CLOSED that ends while OPEN, say)
// counts in the totals but cannot move the state machine.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <vector>

namespace cadastre::gateway {

enum class BreakerState { closed, open, half_open };

/// "CLOSED", "OPEN" or "HALF_OPEN" (the names used by /health/detailed and the docs).
std::string_view state_name(BreakerState s) noexcept;

struct BreakerSettings {
  double failure_rate_threshold = 50.0;  ///< percent of failed calls in the window that opens it
  std::size_t sliding_window = 20;       ///< outcomes kept while CLOSED (count based)
  std::size_t minimum_calls = 10;        ///< calls needed in the window before the rate counts
  std::chrono::milliseconds wait_in_open{10000};
  std::size_t half_open_calls = 3;       ///< trial calls let through in HALF_OPEN
  std::chrono::milliseconds max_wait_in_half_open{10000};

  /// Throws std::invalid_argument (message in Portuguese) for impossible settings.
  void validate() const;
};

struct BreakerSnapshot {
  BreakerState state = BreakerState::closed;
  std::size_t window_calls = 0, window_failures = 0;
  double failure_rate = 0;  ///< percent over the current window (0 when empty)
  std::uint64_t successes = 0, failures = 0, rejected = 0, opened = 0;  ///< totals
  std::chrono::milliseconds retry_after{0};  ///< while OPEN: time left before trials
};

class CircuitBreaker {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// Permission for one call; report its outcome with record().
  struct Permit {
    bool allowed = false;
    std::uint64_t generation = 0;
    std::chrono::milliseconds retry_after{0};  ///< when refused: a hint for Retry-After
  };

  explicit CircuitBreaker(BreakerSettings settings, Clock clock = &std::chrono::steady_clock::now);

  Permit acquire();
  void record(const Permit& permit, bool success);

  BreakerState state();
  BreakerSnapshot snapshot();
  const BreakerSettings& settings() const noexcept { return settings_; }

 private:
  using time_point = std::chrono::steady_clock::time_point;
  void advance(time_point now);  // time-driven moves: OPEN→HALF_OPEN, stuck HALF_OPEN→OPEN
  void move_to(BreakerState next, time_point now);
  void push_outcome(bool failure);
  std::chrono::milliseconds open_time_left(time_point now) const;

  const BreakerSettings settings_;
  const Clock clock_;
  std::mutex mutex_;
  BreakerState state_ = BreakerState::closed;
  std::uint64_t generation_ = 0;
  time_point since_{};  // when the current state began

  std::vector<bool> window_;  // ring buffer of "failed" flags
  std::size_t next_ = 0, count_ = 0, window_failures_ = 0;

  std::size_t trials_started_ = 0, trials_succeeded_ = 0;
  std::uint64_t successes_ = 0, failures_ = 0, rejected_ = 0, opened_ = 0;
};

}  // namespace cadastre::gateway
