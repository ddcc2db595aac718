// Login throttling: failed logins are counted per key (an e-mail, existing or not, and a
// client address); a key with ThrottleOptions::max_failures failures within the window is
// locked for the lockout. Locked keys are refused before the password is checked, so the
// answer is the same whether the e-mail exists or not. In memory, per process: behind a
// load balancer each instance counts its own (docs/platform.md, "Login throttling").
#pragma once

#include <chrono>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "platform/app.hpp"

namespace cadastre::platform::common {

class Throttle {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Throttle(ThrottleOptions options) : options_(options) {}

  /// How long until every key may try again (zero: now).
  std::chrono::seconds wait(std::initializer_list<std::string_view> keys, Clock::time_point now = Clock::now());
  /// Counts a failure against each key.
  void failed(std::initializer_list<std::string_view> keys, Clock::time_point now = Clock::now());
  /// Forgets the keys' failures (a successful login).
  void succeeded(std::initializer_list<std::string_view> keys);

 private:
  struct Entry {
    int failures = 0;
    Clock::time_point window_start, locked_until;
  };
  void prune(Clock::time_point now);

  ThrottleOptions options_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace cadastre::platform::common
