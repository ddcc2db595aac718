#include "store/revocations.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <chrono>
#include <charconv>
#include <memory>

namespace cadastre::store {

RevocationListener::RevocationListener(std::string dsn, std::function<void(std::int64_t)> on_revoked)
    : dsn_(std::move(dsn)), on_revoked_(std::move(on_revoked)), thread_([this] { run(); }) {}

RevocationListener::~RevocationListener() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void RevocationListener::run() {
  using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;
  while (!stop_) {
    Conn conn(PQconnectdb(dsn_.c_str()), &PQfinish);
    std::unique_ptr<PGresult, decltype(&PQclear)> listen(
        PQstatus(conn.get()) == CONNECTION_OK
            ? PQexec(conn.get(), (std::string("listen ") + kRevocationChannel).c_str())
            : nullptr,
        &PQclear);
    if (listen && PQresultStatus(listen.get()) == PGRES_COMMAND_OK) {
      listening_ = true;
      // Wait on the socket in short slices, so a stop is seen within 200 ms.
      while (!stop_) {
        pollfd fd{PQsocket(conn.get()), POLLIN, 0};
        if (poll(&fd, 1, 200) < 0 || (fd.revents & (POLLERR | POLLHUP))) break;
        if (!PQconsumeInput(conn.get())) break;
        while (PGnotify* n = PQnotifies(conn.get())) {
          std::int64_t id = 0;
          std::string_view payload(n->extra);
          if (std::from_chars(payload.data(), payload.data() + payload.size(), id).ec == std::errc()) on_revoked_(id);
          PQfreemem(n);
        }
      }
      listening_ = false;
    }
    // Down or refused: try again in a second (stop still seen within 200 ms).
    for (int i = 0; i < 5 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace cadastre::store
