// The per-tenant event bus of one process: what happened in a tenant (a session revoked, a
// geometry changed, an import's progress) goes to whoever listens to that tenant here, in
// practice the platform's open WebSockets (http/websocket.hpp), whose deliver only queues
// the message. No sockets here: publishing is a function call. Events published by any
// instance arrive through the process's store::EventFollower (store/events.hpp), which is
// the bus's one publisher besides the resynchronisation notice.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cadastre::service {

struct Event {
  std::string type;  ///< "sessao_revogada", "geometria_alterada", "importacao_progresso", ...
  std::string json;  ///< the whole message as sent: a JSON object's text
  std::int64_t session_id = 0;  ///< the one session it concerns; 0: every session
};

/// Subscribers per tenant; a tenant's events reach its own subscribers only. Thread-safe.
class EventBus {
  struct Entry;
  struct State;

 public:
  /// A subscription, ended when destroyed (or by cancel()). Move-only; to keep one in a
  /// callback (which std::function copies), hold it in a std::shared_ptr.
  class Subscription {
   public:
    Subscription() = default;
    Subscription(Subscription&&) noexcept = default;
    Subscription& operator=(Subscription&& other) noexcept;
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    ~Subscription() { cancel(); }

    /// Ends the subscription: when it returns, its deliver is not running on another thread
    /// and will not be called again. From within its own deliver it returns at once, and
    /// that call completes. Safe after the bus is gone.
    void cancel() noexcept;
    bool active() const noexcept { return entry_ != nullptr; }

   private:
    friend class EventBus;
    Subscription(std::weak_ptr<State> state, std::shared_ptr<Entry> entry)
        : state_(std::move(state)), entry_(std::move(entry)) {}
    std::weak_ptr<State> state_;
    std::shared_ptr<Entry> entry_;
  };

  EventBus();
  ~EventBus();
  EventBus(const EventBus&) = delete;
  EventBus& operator=(const EventBus&) = delete;

  /// Calls `deliver` with each event published to `tenant_id` from now on: all of them when
  /// `session_id` is 0, else those for every session and those for `session_id`.
  Subscription subscribe(std::int64_t tenant_id, std::function<void(const Event&)> deliver,
                         std::int64_t session_id = 0);

  /// Delivers `event` to the tenant's subscribers, synchronously, on the calling thread, one
  /// after another; returns once each has had it. The bus holds no lock of its own while
  /// delivering (it copies the list first), so subscriptions may come and go meanwhile; a
  /// subscriber's deliver runs under that subscriber's lock only, which is what lets
  /// cancel() wait for it. So a deliver must be quick (queue, do not block), must not
  /// publish and must not cancel another subscription (either may deadlock against a
  /// concurrent publish); cancelling its own is fine. An exception from a deliver is
  /// dropped: one broken subscriber does not deprive the others, nor fail the publisher.
  void publish(std::int64_t tenant_id, Event event);
  /// The same, once, to the subscriptions of each of `sessions` (and to those of every
  /// session): one pass over the tenant's subscribers, however many sessions.
  void publish_to(std::int64_t tenant_id, const Event& event, std::vector<std::int64_t> sessions);

  /// Active subscriptions of `tenant_id` (for metrics and tests).
  std::size_t subscribers(std::int64_t tenant_id) const;

 private:
  // Delivers `event` to the tenant's subscriptions whose session `wants` accepts.
  void deliver(std::int64_t tenant_id, const Event& event, const std::function<bool(std::int64_t)>& wants);

  std::shared_ptr<State> state_;
};

}  // namespace cadastre::service
