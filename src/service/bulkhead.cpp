#include "service/bulkhead.hpp"

#include "cadastre/error.hpp"

namespace cadastre::service {

Bulkhead::Slot Bulkhead::enter(const void* tenant) {
  std::unique_lock lock(mutex_);
  if (!freed_.wait_for(lock, wait_, [&] { return busy_[tenant] < slots_; }))
    throw Error(errc::unavailable,
                "muitas buscas simultâneas neste município; tente de novo em instantes (as demais consultas seguem "
                "atendidas)");
  ++busy_[tenant];
  return Slot(this, tenant);
}

Bulkhead::Slot::~Slot() {
  if (!owner_) return;
  {
    std::lock_guard lock(owner_->mutex_);
    if (--owner_->busy_[key_] == 0) owner_->busy_.erase(key_);
  }
  owner_->freed_.notify_all();
}

}  // namespace cadastre::service
