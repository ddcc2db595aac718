#include "service/events.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cadastre::service {

struct EventBus::Entry {
  std::int64_t tenant = 0;
  std::int64_t session = 0;
  std::function<void(const Event&)> deliver;
  // Held while `deliver` runs, so that cancel() can wait for a delivery under way on another
  // thread; recursive, so that a deliver may cancel its own subscription.
  std::recursive_mutex delivering;
  bool active = true;  ///< under `delivering`
};

struct EventBus::State {
  std::mutex mutex;
  std::unordered_map<std::int64_t, std::vector<std::shared_ptr<Entry>>> tenants;
};

EventBus::EventBus() : state_(std::make_shared<State>()) {}
EventBus::~EventBus() = default;

EventBus::Subscription& EventBus::Subscription::operator=(Subscription&& other) noexcept {
  if (this != &other) {
    cancel();
    state_ = std::move(other.state_);
    entry_ = std::move(other.entry_);
  }
  return *this;
}

void EventBus::Subscription::cancel() noexcept {
  if (!entry_) return;
  if (auto state = state_.lock()) {
    std::lock_guard lock(state->mutex);
    if (auto it = state->tenants.find(entry_->tenant); it != state->tenants.end()) {
      auto& list = it->second;
      list.erase(std::remove(list.begin(), list.end(), entry_), list.end());
      if (list.empty()) state->tenants.erase(it);
    }
  }
  // A publisher may have copied the list before the entry left it: it finds it inactive.
  {
    std::lock_guard lock(entry_->delivering);
    entry_->active = false;
  }
  entry_.reset();
  state_.reset();
}

EventBus::Subscription EventBus::subscribe(std::int64_t tenant_id,
                                           std::function<void(const Event&)> deliver,
                                           std::int64_t session_id) {
  auto entry = std::make_shared<Entry>();
  entry->tenant = tenant_id;
  entry->session = session_id;
  entry->deliver = std::move(deliver);
  std::lock_guard lock(state_->mutex);
  state_->tenants[tenant_id].push_back(entry);
  return Subscription(state_, std::move(entry));
}

void EventBus::publish(std::int64_t tenant_id, Event event) {
  deliver(tenant_id, event, [&](std::int64_t session) {
    return event.session_id == 0 || session == 0 || session == event.session_id;
  });
}

void EventBus::publish_to(std::int64_t tenant_id, const Event& event, std::vector<std::int64_t> sessions) {
  std::sort(sessions.begin(), sessions.end());
  deliver(tenant_id, event, [&](std::int64_t session) {
    return session == 0 || std::binary_search(sessions.begin(), sessions.end(), session);
  });
}

void EventBus::deliver(std::int64_t tenant_id, const Event& event, const std::function<bool(std::int64_t)>& wants) {
  std::vector<std::shared_ptr<Entry>> targets;
  {
    std::lock_guard lock(state_->mutex);
    auto it = state_->tenants.find(tenant_id);
    if (it == state_->tenants.end()) return;
    for (const auto& entry : it->second)
      if (wants(entry->session)) targets.push_back(entry);
  }
  for (const auto& entry : targets) {
    std::lock_guard lock(entry->delivering);
    if (!entry->active) continue;
    try {
      entry->deliver(event);
    } catch (const std::exception&) {  // see publish() in the header
    }
  }
}

std::size_t EventBus::subscribers(std::int64_t tenant_id) const {
  std::lock_guard lock(state_->mutex);
  auto it = state_->tenants.find(tenant_id);
  return it == state_->tenants.end() ? 0 : it->second.size();
}

}  // namespace cadastre::service
