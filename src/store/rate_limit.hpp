// Rate limits of anonymous actions per client address (sign-ups and recovery mails,
// providers' pre-registrations, ombudsman filings): at most `max` actions of one key within
// `window`; the action that reaches `max` locks the key for `lockout`. Counted in the
// platform database (plataforma.tentativas, keys "r|<name>|<key>"), so the limit holds
// whatever the number of instances; one key's check and count are one transaction under a
// lock of that key, so two instances racing on it count both and let through at most `max`.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "store/pool.hpp"

namespace cadastre::store {

struct RateLimitOptions {
  int max = 5;
  std::chrono::seconds window{60 * 60};
  std::chrono::seconds lockout{60 * 60};
};

class RateLimit {
 public:
  /// `name` tells the limits apart in the table ("cadastro", "ouvidoria", ...).
  RateLimit(Pool& platform, std::string name, RateLimitOptions options)
      : pool_(platform), name_(std::move(name)), options_(options) {}

  /// Counts one action of `key`, or throws RetryLater (429 + Retry-After) with `message`
  /// when the key is locked (the refused action is not counted).
  void take(std::string_view key, const std::string& message);

 private:
  Pool& pool_;
  std::string name_;
  RateLimitOptions options_;
};

}  // namespace cadastre::store
