// A circuit breaker as a pure state machine (no I/O, injectable clock).
//
//   CLOSED     calls pass; their outcomes are counted in per-second buckets covering the
//              last `sliding_window` seconds (Resilience4j's TIME_BASED window). Once at
//              least `minimum_calls` are in the window and the failure rate reaches
//              `failure_rate_threshold` percent, the breaker opens. A time window, unlike a
//              window of the last N calls, weighs a burst of failures against everything
//              else that happened meanwhile: a few connect time-outs among thousands of
//              successes do not open it.
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
  static constexpr std::chrono::seconds kMaxSlidingWindow{3600};

  double failure_rate_threshold = 50.0;  ///< percent of failed calls in the window that opens it
  /// While CLOSED, outcomes count for this long, in whole seconds: the current second and the
  /// ones before it, so an outcome leaves the window between (window - 1 s) and window after
  /// it was recorded. One bucket per second, hence at most kMaxSlidingWindow.
  std::chrono::seconds sliding_window{10};
  std::size_t minimum_calls = 20;  ///< calls needed in the window before the rate counts
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
  // Time-driven changes: OPEN→HALF_OPEN, stuck HALF_OPEN→OPEN, old outcomes leaving the window.
  void advance(time_point now);
  void move_to(BreakerState next, time_point now);
  void slide_window(time_point now);
  void clear_window();
  void push_outcome(bool failure);
  double window_failure_rate() const;
  std::chrono::milliseconds open_time_left(time_point now) const;

  const BreakerSettings settings_;
  const Clock clock_;
  std::mutex mutex_;
  BreakerState state_ = BreakerState::closed;
  std::uint64_t generation_ = 0;
  time_point since_{};  // when the current state began

  // The time window, a ring of one bucket per second: seconds are counted from origin_, and
  // the bucket of second s is buckets_[s % buckets_.size()]. It covers the seconds
  // current_second_ - buckets_.size() + 1 … current_second_.
  struct Bucket {
    std::size_t calls = 0, failures = 0;
  };
  const time_point origin_;
  std::int64_t current_second_ = 0;
  std::vector<Bucket> buckets_;
  std::size_t window_calls_ = 0, window_failures_ = 0;  // sums over buckets_

  std::size_t trials_started_ = 0, trials_succeeded_ = 0;
  std::uint64_t successes_ = 0, failures_ = 0, rejected_ = 0, opened_ = 0;
};

}  // namespace cadastre::gateway
