#include "store/budget.hpp"

#include <algorithm>

#include "cadastre/error.hpp"
#include "store/pool.hpp"

namespace cadastre::store {

void ConnectionBudget::acquire(const Pool* asking, std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  while (open_ >= cap_) {
    // Lock order: the budget, then a pool (Pool never calls the budget under its own lock).
    bool reclaimed = false;
    for (Pool* p : pools_)
      if (p != asking && p->close_one_free()) {
        --open_;
        reclaimed = true;
        break;
      }
    if (reclaimed) break;
    if (room_.wait_until(lock, deadline) == std::cv_status::timeout && open_ >= cap_)
      throw Error(errc::unavailable, "o servidor de banco de dados está no limite de conexões deste processo");
  }
  ++open_;
}

void ConnectionBudget::release() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (open_ > 0) --open_;
  }
  room_.notify_one();
}

void ConnectionBudget::attach(Pool* pool) {
  std::lock_guard lock(mutex_);
  pools_.push_back(pool);
}

void ConnectionBudget::detach(Pool* pool) noexcept {
  std::lock_guard lock(mutex_);
  pools_.erase(std::remove(pools_.begin(), pools_.end(), pool), pools_.end());
}

std::size_t ConnectionBudget::open() const {
  std::lock_guard lock(mutex_);
  return open_;
}

}  // namespace cadastre::store
