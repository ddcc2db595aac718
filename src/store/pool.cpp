#include "store/pool.hpp"

#include <libpq-fe.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <algorithm>
#include <string_view>

#include "cadastre/error.hpp"
#include "store/budget.hpp"
#include "store/dsn.hpp"
#include "store/prepared.hpp"

namespace cadastre::store {

// Our own words for each case: PostgreSQL's text names constraints, columns and values of
// the schema and echoes input, none of which is the client's business.
std::optional<Error> database_error(const soci::soci_error& e) {
  std::string state;
  if (auto* pe = dynamic_cast<const soci::postgresql_soci_error*>(&e)) state = pe->sqlstate();
  std::string_view cls = std::string_view(state).substr(0, std::min<std::size_t>(2, state.size()));
  if (state == "23505") return Error(errc::conflict, "registro duplicado: um campo único já tem esse valor");
  if (state == "23503")
    return Error(errc::conflict, "o registro é referenciado por outros ou referencia um registro inexistente");
  if (state == "23502") return Error(errc::missing_field, "falta um campo obrigatório");
  if (state == "23514" || state == "23P01") return Error(errc::invalid_argument, "um valor viola uma regra do cadastro");
  if (state == "22001") return Error(errc::invalid_argument, "texto mais longo do que o campo aceita");
  if (state == "22003") return Error(errc::invalid_argument, "número fora do intervalo que o campo aceita");
  if (state == "22007" || state == "22008") return Error(errc::invalid_argument, "data ou hora inválida");
  if (cls == "22") return Error(errc::invalid_argument, "valor inválido para o tipo do campo");
  if (state == "57014") return Error(errc::unavailable, "consulta excedeu o tempo limite");
  if (cls == "08" || cls == "57" || cls == "53") return Error(errc::unavailable, "banco de dados indisponível");
  if (state == "40001" || state == "40P01") return Error(errc::conflict, "conflito de concorrência; tente novamente");
  return std::nullopt;
}

PGconn* native_connection(soci::session& s) noexcept {
  // Only PostgreSQL sessions are ever created here; the backend's typeinfo is not exported
  // by Debian's libsoci, so a static_cast after the null check replaces dynamic_cast.
  auto* be = static_cast<soci::postgresql_session_backend*>(s.get_backend());
  return be ? be->conn_ : nullptr;
}

bool connection_broken(soci::session& s) noexcept {
  PGconn* c = native_connection(s);
  return c == nullptr || PQstatus(c) != CONNECTION_OK;
}

namespace {
// Closes a pooled session, forgetting what it had prepared (store/prepared.hpp).
void discard(std::unique_ptr<soci::session>& s) noexcept {
  if (!s) return;
  forget_prepared(native_connection(*s));
  s.reset();
}
}  // namespace

Pool::Pool(PoolOptions options) : options_(std::move(options)) {
  std::string dsn = options_.dsn;
  dsn = dsn_with(dsn, "connect_timeout", std::to_string(options_.connect_timeout.count()));
  dsn = dsn_with(dsn, "application_name", options_.application_name);
  dsn = dsn_with(dsn, "options", "-c statement_timeout=" + std::to_string(options_.statement_timeout.count()));
  connect_string_ = std::move(dsn);
  sessions_.resize(options_.size);
  freed_at_.resize(options_.size);
  for (std::size_t i = options_.size; i > 0; --i) free_.push_back(i - 1);
  counters_.size = options_.size;
  if (options_.budget) options_.budget->attach(this);
}

Pool::~Pool() {
  if (options_.budget) {
    options_.budget->detach(this);
    for (const auto& s : sessions_)
      if (s) options_.budget->release();
  }
  for (auto& s : sessions_) discard(s);
}

std::size_t Pool::close_idle() {
  std::vector<std::unique_ptr<soci::session>> closing;
  {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    for (std::size_t slot : free_)
      if (sessions_[slot] && now - freed_at_[slot] > options_.idle_timeout) {
        closing.push_back(std::move(sessions_[slot]));
        --counters_.open;
      }
  }
  const std::size_t closed = closing.size();
  for (auto& s : closing) discard(s);  // closed outside the lock
  if (options_.budget)
    for (std::size_t i = 0; i < closed; ++i) options_.budget->release();
  return closed;
}

bool Pool::close_one_free() {
  std::unique_ptr<soci::session> closing;
  {
    std::lock_guard lock(mutex_);
    for (std::size_t slot : free_)
      if (sessions_[slot]) {
        closing = std::move(sessions_[slot]);
        --counters_.open;
        break;
      }
  }
  const bool closed = closing != nullptr;
  discard(closing);
  return closed;
}

std::unique_ptr<soci::session> Pool::open() {
  try {
    return std::make_unique<soci::session>(soci::postgresql, connect_string_);
  } catch (const soci::soci_error&) {
    std::lock_guard lock(mutex_);
    ++counters_.failures;
    throw Error(errc::unavailable, "banco de dados indisponível");
  }
}

Pool::Lease Pool::lease() {
  const auto deadline = std::chrono::steady_clock::now() + options_.wait;
  std::size_t slot;
  {
    std::unique_lock lock(mutex_);
    ++waiting_;
    bool got = available_.wait_until(lock, deadline, [&] { return !free_.empty(); });
    --waiting_;
    if (!got) {
      ++counters_.timeouts;
      throw Error(errc::unavailable, "todas as conexões ao banco de dados estão ocupadas");
    }
    // An open connection first: a slot without one costs a connect (and a budget's place).
    auto open_one = std::find_if(free_.rbegin(), free_.rend(), [&](std::size_t i) { return sessions_[i] != nullptr; });
    auto chosen = open_one != free_.rend() ? std::prev(open_one.base()) : std::prev(free_.end());
    slot = *chosen;
    free_.erase(chosen);
    ++counters_.leases;
  }
  // Opening happens outside the lock so a slow or dead server does not block the pool.
  auto& s = sessions_[slot];
  bool fresh = false;
  try {
    if (s && connection_broken(*s)) {
      discard(s);
      if (options_.budget) options_.budget->release();
      std::lock_guard lock(mutex_);
      ++counters_.reconnects;
      --counters_.open;
    }
    if (!s) {
      if (options_.budget) options_.budget->acquire(this, deadline);
      try {
        s = open();
      } catch (...) {
        if (options_.budget) options_.budget->release();
        throw;
      }
      fresh = true;
      std::lock_guard lock(mutex_);
      ++counters_.open;
    }
  } catch (...) {
    release(slot);
    throw;
  }
  return Lease(this, slot, s.get(), fresh);
}

void Pool::release(std::size_t slot) noexcept {
  {
    std::lock_guard lock(mutex_);
    free_.push_back(slot);
    freed_at_[slot] = std::chrono::steady_clock::now();
  }
  available_.notify_one();
}

Pool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), slot_(other.slot_), session_(other.session_), fresh_(other.fresh_) {
  other.pool_ = nullptr;
}

Pool::Lease::~Lease() {
  if (!pool_) return;
  // A session left inside a failed transaction would poison the next user.
  if (!connection_broken(*session_)) {
    PGconn* c = native_connection(*session_);
    if (PQtransactionStatus(c) != PQTRANS_IDLE) {
      PGresult* r = PQexec(c, "rollback");
      PQclear(r);
    }
  }
  pool_->release(slot_);
}

void Pool::run(const std::function<void(soci::session&)>& fn) {
  for (int attempt = 0;; ++attempt) {
    Lease l = lease();
    try {
      fn(*l);
      return;
    } catch (const soci::soci_error& e) {
      if (connection_broken(*l)) {
        // Stale connection from before a server restart: retry once on a new one.
        if (!l.fresh() && attempt == 0) continue;
        throw Error(errc::unavailable, "banco de dados indisponível");
      }
      if (auto client = database_error(e)) throw *client;
      throw;  // internal: see database_error()
    }
  }
}

PoolStats Pool::stats() const {
  std::lock_guard lock(mutex_);
  PoolStats s = counters_;
  s.in_use = options_.size - free_.size();
  s.waiting = waiting_;
  return s;
}

void in_transaction(soci::session& s, const std::function<void()>& fn) {
  soci::transaction tx(s);
  fn();
  tx.commit();
}

std::string ping(Pool& pool) {
  try {
    pool.run([](soci::session& s) {
      int one = 0;
      s << "select 1", soci::into(one);
    });
    return "ok";
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception&) {  // a database failure Pool::run passes on: its text is for the log only
    return "falha";
  }
}

}  // namespace cadastre::store
