#include "store/events.hpp"

#include <libpq-fe.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <memory>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "store/sql.hpp"

namespace cadastre::store {
namespace {

using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

// How many rows one read delivers before reading again (a backlog after a long cut is read
// in slices, so memory stays bounded).
constexpr int kSlice = 500;
// How long the table keeps an event, and how often a follower deletes older ones.
constexpr const char* kKeep = "1 hour";
constexpr auto kPruneEvery = std::chrono::minutes(1);

Result exec(PGconn* c, const std::string& sql) { return Result(PQexec(c, sql.c_str()), &PQclear); }

}  // namespace

std::int64_t publish_event(soci::session& s, std::int64_t tenant, std::string_view type, std::string_view json,
                           const std::optional<std::vector<std::int64_t>>& sessions) {
  if (sessions && sessions->empty()) return 0;
  if (json.size() > kMaxEventJson) throw Error(errc::internal, "evento grande demais para publicar");
  // Prepared once per connection: every write a layer's viewers see publishes one.
  Sql q("select plataforma.publicar_evento(");
  q.bind(std::to_string(tenant), "bigint") << ", ";
  q.bind(std::string(type)) << ", ";
  q.bind(std::string(json)) << ", ";
  q.bind(sessions ? Value(id_array(*sessions)) : std::nullopt, "bigint[]") << ")::text";
  return std::stoll(fetch_value(s, q.reuse_plan()).value());
}

std::int64_t publish_event(Pool& platform, std::int64_t tenant, std::string_view type, std::string_view json,
                           const std::optional<std::vector<std::int64_t>>& sessions) {
  if (sessions && sessions->empty()) return 0;
  return platform.with([&](soci::session& s) { return publish_event(s, tenant, type, json, sessions); });
}

void publish_revocation(soci::session& s, const std::vector<std::int64_t>& sessions, std::string_view reason) {
  JsonWriter w;
  w.begin_object().key("tipo").value("sessao_revogada").key("motivo").value(reason).end_object();
  publish_event(s, kControlTenant, "sessao_revogada", std::move(w).str(), sessions);
}

EventFollower::EventFollower(std::string dsn, Handlers handlers)
    : dsn_(std::move(dsn)), handlers_(std::move(handlers)), wake_(::eventfd(0, EFD_CLOEXEC)) {
  if (wake_ < 0) throw Error(errc::internal, "eventfd indisponível para o seguidor de eventos");
  thread_ = std::thread([this] { run(); });
}

EventFollower::~EventFollower() {
  stop_ = true;
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
  ::close(wake_);
}

void EventFollower::run() {
  auto last_prune = std::chrono::steady_clock::now();
  while (!stop_) {
    Conn conn(PQconnectdb(dsn_.c_str()), &PQfinish);
    bool up = PQstatus(conn.get()) == CONNECTION_OK;
    if (up) {
      Result listen = exec(conn.get(), std::string("listen ") + kEventChannel);
      up = PQresultStatus(listen.get()) == PGRES_COMMAND_OK;
    }
    // Listening before reading: an event that commits from here on is notified, and every
    // earlier one is in the table.
    if (up && last_ < 0) {
      Result r = exec(conn.get(), "select coalesce(max(id), 0) from plataforma.eventos");
      up = PQresultStatus(r.get()) == PGRES_TUPLES_OK;
      if (up) last_ = std::stoll(PQgetvalue(r.get(), 0, 0));
    } else if (up && handlers_.on_resync) {
      handlers_.on_resync();
    }
    // Delivers the rows after last_, slice by slice; false when the connection failed. The
    // read is prepared once per connection: every instance runs it at every event.
    static const std::string kRead =
        "select id, tenant_id, tipo, json, sessoes::text from plataforma.eventos where id > $1::bigint order by id "
        "limit " + std::to_string(kSlice);
    if (up) {
      Result prepared(PQprepare(conn.get(), "eventos_depois", kRead.c_str(), 1, nullptr), &PQclear);
      up = PQresultStatus(prepared.get()) == PGRES_COMMAND_OK;
    }
    auto catch_up = [&] {
      for (;;) {
        std::string after = std::to_string(last_.load());
        const char* params[] = {after.c_str()};
        Result r(PQexecPrepared(conn.get(), "eventos_depois", 1, params, nullptr, nullptr, 0), &PQclear);
        if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) return false;
        int rows = PQntuples(r.get());
        for (int i = 0; i < rows; ++i) {
          LoggedEvent e;
          e.id = std::stoll(PQgetvalue(r.get(), i, 0));
          e.tenant = std::stoll(PQgetvalue(r.get(), i, 1));
          e.type = PQgetvalue(r.get(), i, 2);
          e.json = PQgetvalue(r.get(), i, 3);
          if (!PQgetisnull(r.get(), i, 4)) e.sessions = parse_id_array(PQgetvalue(r.get(), i, 4));
          try {
            if (handlers_.on_event) handlers_.on_event(e);
          } catch (const std::exception&) {  // one event a handler could not take costs that event only
          }
          last_ = e.id;
        }
        if (rows < kSlice) return true;
      }
    };
    if (up) up = catch_up();
    if (up) {
      listening_ = true;
      // Wait on the socket and on the stop's eventfd (a second's timeout for the pruning).
      while (!stop_) {
        pollfd fds[] = {{PQsocket(conn.get()), POLLIN, 0}, {wake_, POLLIN, 0}};
        if (poll(fds, 2, 1000) < 0 || (fds[0].revents & (POLLERR | POLLHUP))) break;
        if (stop_) break;
        if (!PQconsumeInput(conn.get())) break;
        bool notified = false;
        while (PGnotify* n = PQnotifies(conn.get())) {
          notified = true;
          PQfreemem(n);
        }
        if (notified && !catch_up()) break;
        if (auto now = std::chrono::steady_clock::now(); now - last_prune > kPruneEvery) {
          last_prune = now;
          exec(conn.get(), std::string("delete from plataforma.eventos where em < now() - interval '") + kKeep + "'");
        }
      }
      listening_ = false;
    }
    // Down or refused: try again in a second, unless stopped meanwhile.
    if (!stop_) {
      pollfd wake{wake_, POLLIN, 0};
      poll(&wake, 1, 1000);
    }
  }
}

}  // namespace cadastre::store
