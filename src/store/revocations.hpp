// Revoked sessions across processes. Revoking a session (store::Identity) notifies the
// channel "cadastre_sessao_revogada" with the session id, in the same transaction; every
// service listens on its own connection and drops the session from its caches at once, so
// a logout on the platform ends the token on cadastre-server and the gateway too, not
// token_ttl later. While the listening connection is down (it reconnects every second),
// notifications are missed and the caches' TTL is the bound again.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

namespace cadastre::store {

/// The channel revocations are notified on.
inline constexpr const char* kRevocationChannel = "cadastre_sessao_revogada";

class RevocationListener {
 public:
  /// Listens on the database of `dsn` (the platform database) and calls `on_revoked` with
  /// each revoked session's id, on the listener's own thread.
  RevocationListener(std::string dsn, std::function<void(std::int64_t session_id)> on_revoked);
  ~RevocationListener();
  RevocationListener(const RevocationListener&) = delete;
  RevocationListener& operator=(const RevocationListener&) = delete;

  /// True while LISTEN is in place (tests wait for it before revoking).
  bool listening() const noexcept { return listening_; }

 private:
  void run();

  std::string dsn_;
  std::function<void(std::int64_t)> on_revoked_;
  std::atomic<bool> stop_{false}, listening_{false};
  std::thread thread_;
};

}  // namespace cadastre::store
