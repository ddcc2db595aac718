#include "gateway/principal_cache.hpp"

namespace cadastre::gateway {

PrincipalCache::PrincipalCache(std::chrono::milliseconds ttl, std::size_t max_entries, Clock clock)
    : ttl_(ttl), max_entries_(max_entries), clock_(std::move(clock)) {}

std::optional<store::Principal> PrincipalCache::find(const std::string& key) {
  if (ttl_.count() <= 0) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  if (it->second.expires <= clock_()) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.principal;
}

void PrincipalCache::put(const std::string& key, const store::Principal& p) {
  if (ttl_.count() <= 0) return;
  std::lock_guard lock(mutex_);
  // A flood of distinct valid credentials cannot grow memory without bound: start over.
  if (entries_.size() >= max_entries_) entries_.clear();
  entries_[key] = {p, clock_() + ttl_};
}

void PrincipalCache::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
}

}  // namespace cadastre::gateway
