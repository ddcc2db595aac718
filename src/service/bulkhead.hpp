// A bulkhead for expensive reads: the searches, thematic maps and attribute queries of one
// tenant run at most `slots` at once in this process, so the tenant's cheap reads always
// find a free connection in its pool (the probe's V8: 24 clients of one slow search made
// 7 of 11 other reads of the municipality fail). A request that finds no slot waits at
// most `wait`, then is refused with 503 and Retry-After, before it takes a connection.
// Per process, like the pools it protects.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>

namespace cadastre::service {

class Bulkhead {
 public:
  Bulkhead(int slots, std::chrono::milliseconds wait) : slots_(slots < 1 ? 1 : slots), wait_(wait) {}

  /// A slot held until destroyed.
  class Slot {
   public:
    Slot(Slot&& o) noexcept : owner_(o.owner_), key_(o.key_) { o.owner_ = nullptr; }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&&) = delete;
    ~Slot();

   private:
    friend class Bulkhead;
    Slot(Bulkhead* owner, const void* key) : owner_(owner), key_(key) {}
    Bulkhead* owner_;
    const void* key_;
  };

  /// A slot for `tenant` (any stable pointer of it: its pool); Error(unavailable) when none
  /// frees within the wait.
  Slot enter(const void* tenant);

  int slots() const noexcept { return slots_; }

 private:
  int slots_;
  std::chrono::milliseconds wait_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::map<const void*, int> busy_;
};

}  // namespace cadastre::service
