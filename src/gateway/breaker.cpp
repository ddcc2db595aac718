#include "gateway/breaker.hpp"

#include <algorithm>
#include <stdexcept>

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
  if (sliding_window == 0) throw std::invalid_argument("sliding_window deve ser maior que zero");
  if (minimum_calls == 0 || minimum_calls > sliding_window)
    throw std::invalid_argument("minimum_calls deve estar entre 1 e sliding_window");
  if (half_open_calls == 0) throw std::invalid_argument("half_open_calls deve ser maior que zero");
  if (wait_in_open.count() < 0 || max_wait_in_half_open.count() <= 0)
    throw std::invalid_argument("os tempos do disjuntor devem ser positivos");
}

CircuitBreaker::CircuitBreaker(BreakerSettings settings, Clock clock)
    : settings_(std::move(settings)), clock_(std::move(clock)) {
  settings_.validate();
  window_.assign(settings_.sliding_window, false);
  since_ = clock_();
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
  std::fill(window_.begin(), window_.end(), false);
  next_ = count_ = window_failures_ = 0;
  if (next == BreakerState::open) ++opened_;
}

void CircuitBreaker::advance(time_point now) {
  if (state_ == BreakerState::open && now - since_ >= settings_.wait_in_open) move_to(BreakerState::half_open, now);
  if (state_ == BreakerState::half_open && now - since_ >= settings_.max_wait_in_half_open)
    move_to(BreakerState::open, now);
}

void CircuitBreaker::push_outcome(bool failure) {
  if (count_ == window_.size()) {
    if (window_[next_]) --window_failures_;
  } else {
    ++count_;
  }
  window_[next_] = failure;
  if (failure) ++window_failures_;
  next_ = (next_ + 1) % window_.size();
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
    if (count_ >= settings_.minimum_calls &&
        100.0 * static_cast<double>(window_failures_) / static_cast<double>(count_) >= settings_.failure_rate_threshold)
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
  s.window_calls = count_;
  s.window_failures = window_failures_;
  s.failure_rate = count_ == 0 ? 0.0 : 100.0 * static_cast<double>(window_failures_) / static_cast<double>(count_);
  s.successes = successes_;
  s.failures = failures_;
  s.rejected = rejected_;
  s.opened = opened_;
  if (state_ == BreakerState::open) s.retry_after = open_time_left(now);
  return s;
}

}  // namespace cadastre::gateway
