#include "platform/common/throttle.hpp"

#include <algorithm>

namespace cadastre::platform::common {
namespace {
// Bound on the keys kept: past it, entries that neither lock nor count any more go first.
constexpr std::size_t kMaxKeys = 200000;
}  // namespace

std::chrono::seconds Throttle::wait(std::initializer_list<std::string_view> keys, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  Clock::duration longest{};
  for (auto key : keys) {
    auto it = entries_.find(std::string(key));
    if (it != entries_.end() && it->second.locked_until > now) longest = std::max(longest, it->second.locked_until - now);
  }
  return std::chrono::ceil<std::chrono::seconds>(longest);
}

void Throttle::failed(std::initializer_list<std::string_view> keys, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (entries_.size() >= kMaxKeys) prune(now);
  for (auto key : keys) {
    Entry& e = entries_[std::string(key)];
    if (now - e.window_start > options_.window) e = Entry{0, now, e.locked_until};
    if (++e.failures >= options_.max_failures) {
      e.locked_until = now + options_.lockout;
      e.failures = 0;
      e.window_start = now;
    }
  }
}

void Throttle::succeeded(std::initializer_list<std::string_view> keys) {
  std::lock_guard lock(mutex_);
  for (auto key : keys) entries_.erase(std::string(key));
}

void Throttle::prune(Clock::time_point now) {
  std::erase_if(entries_, [&](const auto& kv) {
    return kv.second.locked_until <= now && now - kv.second.window_start > options_.window;
  });
  // A flood of distinct keys: counts go before locks, so flooding cannot lift a lock.
  if (entries_.size() >= kMaxKeys) std::erase_if(entries_, [&](const auto& kv) { return kv.second.locked_until <= now; });
}

}  // namespace cadastre::platform::common
