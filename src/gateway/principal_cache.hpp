// Validated callers kept in process for a few seconds, so the hot path does not reach the
// identity store on every request. Keys are digests, never raw tokens. Deactivating a
// user or re-issuing a token takes effect within the TTL (ARCHITECTURE.md, "Auth schemes").
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "store/identity.hpp"

namespace cadastre::gateway {

class PrincipalCache {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  explicit PrincipalCache(std::chrono::milliseconds ttl, std::size_t max_entries = 100000,
                          Clock clock = &std::chrono::steady_clock::now);

  std::optional<store::Principal> find(const std::string& key);
  void put(const std::string& key, const store::Principal& p);
  void clear();

 private:
  struct Entry {
    store::Principal principal;
    std::chrono::steady_clock::time_point expires;
  };
  std::chrono::milliseconds ttl_;
  std::size_t max_entries_;
  Clock clock_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace cadastre::gateway
