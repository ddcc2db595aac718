// Events across instances: what one instance publishes, every instance of every service
// delivers, in the order the events committed. PostgreSQL is the one broker: a publisher
// inserts a row into plataforma.eventos and notifies cadastre_eventos (platform migration
// 0011, plataforma.publicar_evento) in its own transaction; each process runs one
// EventFollower, which LISTENs on its own connection and reads the rows after the last one
// it delivered. NOTIFY carries only the id (its payload is capped at 8,000 bytes); the row
// carries the message and the sessions it is for, decided by the publisher (the privacy
// rules of the layer's audience and of a job's creator are the publisher's).
//
// When the follower's connection is lost (PostgreSQL restarted, a network cut), it
// reconnects every second; once back it calls on_resync (the platform tells its sockets
// {"tipo":"ressincronizar"}) and then delivers every row committed meanwhile, which the
// table keeps for an hour. Session revocations are events of tenant 0 (kControlTenant):
// every service drops the sessions from its caches when they arrive.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "store/pool.hpp"

namespace soci {
class session;
}

namespace cadastre::store {

/// The tenant of control events (session revocations, resynchronisation).
inline constexpr std::int64_t kControlTenant = 0;
/// The channel plataforma.publicar_evento notifies.
inline constexpr const char* kEventChannel = "cadastre_eventos";
/// The largest message (the row's check): an event names ids, it does not carry data.
inline constexpr std::size_t kMaxEventJson = 65536;

struct LoggedEvent {
  std::int64_t id = 0, tenant = 0;
  std::string type, json;
  /// The sessions it is for; nullopt: every session of the tenant.
  std::optional<std::vector<std::int64_t>> sessions;
};

/// Publishes an event on `s` (inside the caller's transaction, when one is open: it is
/// delivered when, and only if, that transaction commits). `sessions` nullopt: to every
/// session of the tenant; an empty list publishes nothing. Returns the event's id (0 when
/// nothing was published).
std::int64_t publish_event(soci::session& s, std::int64_t tenant, std::string_view type, std::string_view json,
                           const std::optional<std::vector<std::int64_t>>& sessions);
/// The same in a transaction of its own on the platform's pool.
std::int64_t publish_event(Pool& platform, std::int64_t tenant, std::string_view type, std::string_view json,
                           const std::optional<std::vector<std::int64_t>>& sessions);

/// Publishes {"tipo":"sessao_revogada","motivo": reason} to `sessions` on the control
/// tenant, on `s` (in the revoking transaction: delivered when the revocation commits).
void publish_revocation(soci::session& s, const std::vector<std::int64_t>& sessions, std::string_view reason);

class EventFollower {
 public:
  struct Handlers {
    std::function<void(const LoggedEvent&)> on_event;  ///< each event, in order, on the follower's thread
    std::function<void()> on_resync;                   ///< the connection came back after a loss
  };
  /// Follows the platform database of `dsn` from its newest event on.
  EventFollower(std::string dsn, Handlers handlers);
  ~EventFollower();
  EventFollower(const EventFollower&) = delete;
  EventFollower& operator=(const EventFollower&) = delete;

  /// True while LISTEN is in place and every event before it was delivered (tests wait for
  /// it before publishing).
  bool listening() const noexcept { return listening_; }
  /// The id of the last event delivered.
  std::int64_t last() const noexcept { return last_; }

 private:
  void run();

  std::string dsn_;
  Handlers handlers_;
  std::atomic<bool> stop_{false}, listening_{false};
  std::atomic<std::int64_t> last_{-1};
  int wake_;  ///< an eventfd the destructor writes: the follower's waits end at once
  std::thread thread_;
};

}  // namespace cadastre::store
