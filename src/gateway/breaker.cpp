#include "gateway/breaker.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cadastre::gateway {

std::string_view state_name(BreakerState s) noexcept {
  switch (s) {
    case BreakerState::closed: return "CLOSED";
    case BreakerState::open: return "OPEN";
    case BreakerState::half_open: return "HALF_OPEN";
  }
  return "CLOSED";
}

void BreakerSettings::validate() const {
  if (!(failure_rate_threshold > 0 && failure_rate_threshold <= 100))
    throw std::invalid_argument("failure_rate_percent deve estar entre 0 (exclusive) e 100");
  if (sliding_window < std::chrono::seconds(1) || sliding_window > kMaxSlidingWindow)
    throw std::invalid_argument("sliding_window_seconds deve estar entre 1 e " +
                                std::to_string(kMaxSlidingWindow.count()));
  if (minimum_calls == 0) throw std::invalid_argument("minimum_calls deve ser maior que zero");
  if (half_open_calls == 0) throw std::invalid_argument("half_open_calls deve ser maior que zero");
  if (wait_in_open.count() < 0 || max_wait_in_half_open.count() <= 0)
    throw std::invalid_argument("os tempos do disjuntor devem ser positivos");
}

CircuitBreaker::CircuitBreaker(BreakerSettings settings, Clock clock)
    : settings_(std::move(settings)), clock_(std::move(clock)), origin_(clock_()) {
  settings_.validate();
  buckets_.resize(static_cast<std::size_t>(settings_.sliding_window.count()));
  since_ = origin_;
}

std::chrono::milliseconds CircuitBreaker::open_time_left(time_point now) const {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(since_ + settings_.wait_in_open - now);
  return left.count() > 0 ? left : std::chrono::milliseconds(0);
}

void CircuitBreaker::move_to(BreakerState next, time_point now) {
  state_ = next;
  since_ = now;
  ++generation_;
  trials_started_ = trials_succeeded_ = 0;
  // The window describes the CLOSED period that just ended; a fresh CLOSED period starts
  // empty so old failures cannot reopen it immediately.
  clear_window();
  if (next == BreakerState::open) ++opened_;
}

void CircuitBreaker::advance(time_point now) {
  slide_window(now);
  if (state_ == BreakerState::open && now - since_ >= settings_.wait_in_open) move_to(BreakerState::half_open, now);
  if (state_ == BreakerState::half_open && now - since_ >= settings_.max_wait_in_half_open)
    move_to(BreakerState::open, now);
}

void CircuitBreaker::slide_window(time_point now) {
  const std::int64_t second = std::chrono::floor<std::chrono::seconds>(now - origin_).count();
  const auto size = static_cast<std::int64_t>(buckets_.size());
  // Each second that began since the last look reuses the bucket of the second that is now
  // `size` seconds old; after a whole window's worth of them every bucket has been emptied,
  // so a long quiet spell costs no more than one window.
  for (auto s = current_second_ + 1; s <= second && s <= current_second_ + size; ++s) {
    Bucket& expired = buckets_[static_cast<std::size_t>(s % size)];
    window_calls_ -= expired.calls;
    window_failures_ -= expired.failures;
    expired = {};
  }
  current_second_ = std::max(current_second_, second);
}

void CircuitBreaker::clear_window() {
  std::fill(buckets_.begin(), buckets_.end(), Bucket{});
  window_calls_ = window_failures_ = 0;
}

void CircuitBreaker::push_outcome(bool failure) {
  Bucket& bucket = buckets_[static_cast<std::size_t>(current_second_ %
                                                     static_cast<std::int64_t>(buckets_.size()))];
  ++bucket.calls;
  ++window_calls_;
  if (failure) {
    ++bucket.failures;
    ++window_failures_;
  }
}

double CircuitBreaker::window_failure_rate() const {
  if (window_calls_ == 0) return 0.0;
  return 100.0 * static_cast<double>(window_failures_) / static_cast<double>(window_calls_);
}

CircuitBreaker::Permit CircuitBreaker::acquire() {
  std::lock_guard lock(mutex_);
  auto now = clock_();
  advance(now);
  Permit p;
  p.generation = generation_;
  switch (state_) {
    case BreakerState::closed:
      p.allowed = true;
      break;
    case BreakerState::open:
      p.retry_after = open_time_left(now);
      break;
    case BreakerState::half_open:
      if (trials_started_ < settings_.half_open_calls) {
        ++trials_started_;
        p.allowed = true;
      } else {
        // Trials are under way: callers should come back about when they must have ended.
        p.retry_after = std::chrono::duration_cast<std::chrono::milliseconds>(since_ + settings_.max_wait_in_half_open - now);
      }
      break;
  }
  if (!p.allowed) ++rejected_;
  return p;
}

void CircuitBreaker::record(const Permit& permit, bool success) {
  if (!permit.allowed) return;
  std::lock_guard lock(mutex_);
  ++(success ? successes_ : failures_);
  auto now = clock_();
  advance(now);
  if (permit.generation != generation_) return;  // issued under an earlier state
  if (state_ == BreakerState::closed) {
    push_outcome(!success);
    if (window_calls_ >= settings_.minimum_calls &&
        window_failure_rate() >= settings_.failure_rate_threshold)
      move_to(BreakerState::open, now);
  } else if (state_ == BreakerState::half_open) {
    if (!success) {
      move_to(BreakerState::open, now);
    } else if (++trials_succeeded_ >= settings_.half_open_calls) {
      move_to(BreakerState::closed, now);
    }
  }
}

BreakerState CircuitBreaker::state() {
  std::lock_guard lock(mutex_);
  advance(clock_());
  return state_;
}

BreakerSnapshot CircuitBreaker::snapshot() {
  std::lock_guard lock(mutex_);
  auto now = clock_();
  advance(now);
  BreakerSnapshot s;
  s.state = state_;
  s.window_calls = window_calls_;
  s.window_failures = window_failures_;
  s.failure_rate = window_failure_rate();
  s.successes = successes_;
  s.failures = failures_;
  s.rejected = rejected_;
  s.opened = opened_;
  if (state_ == BreakerState::open) s.retry_after = open_time_left(now);
  return s;
}

}  // namespace cadastre::gateway
