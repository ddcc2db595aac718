// Statements through libpq, prepared per pooled connection when they repeat (prepared.hpp).
#include "store/prepared.hpp"

#include <libpq-fe.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <list>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "store/in_order_worker.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"

namespace cadastre::store {

std::string digest(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = hex[h & 0xF];
  return out;
}

// ---------------------------------------------------------------- statements through libpq

namespace {

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

// Which statements each connection has prepared, so the first use prepares without a
// failed attempt (which PostgreSQL would log as an ERROR). A connection is known by its
// libpq handle and backend pid: a reconnect gets a new backend and starts afresh. The
// 26000 fallback below still covers what this cannot see (e.g. a DISCARD ALL).
// Bounded by kMaxPreparedPerConnection.
//
// A statement is known by its whole text, and named on its connection by a number of this
// process: never by a digest of the text, whose collision (a tenant's administrator names
// the fields written into a layer's statements) would run one statement for another.
class Prepared {
 public:
  enum class State { unknown, ready, stale };
  struct Found {
    State state = State::unknown;
    std::string name;  ///< its name on the connection; a new one when unknown
  };

  Found find(PGconn* c, const std::string& sql) {
    std::lock_guard lock(mutex_);
    Connection& conn = connection(c);
    auto it = conn.by_text.find(sql);
    if (it == conn.by_text.end()) return {State::unknown, "cad_" + std::to_string(++named_)};
    conn.order.splice(conn.order.begin(), conn.order, it->second.position);
    return {it->second.stale ? State::stale : State::ready, it->second.name};
  }
  /// Records `sql` as prepared on `c` as `name`; returns the statement to deallocate, if any.
  std::optional<std::string> add(PGconn* c, const std::string& sql, const std::string& name) {
    std::lock_guard lock(mutex_);
    Connection& conn = connection(c);
    if (auto it = conn.by_text.find(sql); it != conn.by_text.end()) {
      it->second.stale = false;
      return std::nullopt;
    }
    auto [it, added] = conn.by_text.emplace(sql, Entry{name, {}, false});
    conn.order.push_front(&it->first);
    it->second.position = conn.order.begin();
    if (conn.order.size() <= kMaxPreparedPerConnection) return std::nullopt;
    auto oldest = conn.by_text.find(*conn.order.back());
    std::string evicted = std::move(oldest->second.name);
    conn.order.pop_back();
    conn.by_text.erase(oldest);
    return evicted;
  }
  /// `sql` is prepared on `c` but must be prepared afresh before its next run.
  void stale(PGconn* c, const std::string& sql) {
    std::lock_guard lock(mutex_);
    Connection& conn = connection(c);
    if (auto it = conn.by_text.find(sql); it != conn.by_text.end()) it->second.stale = true;
  }
  /// `sql` is no longer prepared on `c` (the server lost it).
  void drop(PGconn* c, const std::string& sql) {
    std::lock_guard lock(mutex_);
    Connection& conn = connection(c);
    if (auto it = conn.by_text.find(sql); it != conn.by_text.end()) {
      conn.order.erase(it->second.position);
      conn.by_text.erase(it);
    }
  }
  void forget(PGconn* c) {
    std::lock_guard lock(mutex_);
    conns_.erase(c);
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return conns_.size();
  }

 private:
  struct Entry {
    std::string name;
    std::list<const std::string*>::iterator position;  // in Connection::order
    bool stale = false;
  };
  struct Connection {
    int pid = 0;
    std::list<const std::string*> order;  // the texts (keys of by_text), most recently used first
    std::unordered_map<std::string, Entry> by_text;
  };
  Connection& connection(PGconn* c) {
    Connection& conn = conns_[c];
    if (conn.pid != PQbackendPID(c)) {
      conn.by_text.clear();
      conn.order.clear();
      conn.pid = PQbackendPID(c);
    }
    return conn;
  }
  std::mutex mutex_;
  std::map<PGconn*, Connection> conns_;
  std::uint64_t named_ = 0;
};

// Never destroyed: pools held by static objects close their connections (and call
// forget_prepared) during static destruction, possibly after this would have gone.
Prepared& prepared_statements() {
  static Prepared* p = new Prepared;
  return *p;
}

// SQLSTATE of a failed result; "XX000" (internal_error) when libpq gave none, e.g. for a
// lost connection, which the pool recognises by the connection state instead.
std::string sqlstate(const PGresult* r) {
  const char* s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  return s && std::char_traits<char>::length(s) == 5 ? s : "XX000";
}

[[noreturn]] void fail(PGconn* c, const PGresult* r) {
  std::string msg = r ? PQresultErrorMessage(r) : "";
  if (msg.empty()) msg = PQerrorMessage(c);
  throw soci::postgresql_soci_error(msg, sqlstate(r).c_str());
}

// `q`'s text for libpq: each bound value's mark, ":p" and its number as Sql::bind writes
// it, becomes "$" and the number; a "::" cast is not a mark.
std::string libpq_text(const Sql& q) {
  const std::string& text = q.text();
  std::string sql;
  sql.reserve(text.size());
  std::size_t copied = 0;  // text before this is in sql
  for (std::size_t i = text.find(':'); i != std::string::npos; i = text.find(':', i + 1)) {
    const bool mark = i + 2 < text.size() && text[i + 1] == 'p' &&
                      std::isdigit(static_cast<unsigned char>(text[i + 2])) && (i == 0 || text[i - 1] != ':');
    if (!mark) continue;
    sql.append(text, copied, i - copied).push_back('$');
    copied = i + 2;  // the number follows as it is
  }
  return sql.append(text, copied, std::string::npos);
}

// The rows of a successful result, each column's bytes (nullopt for NULL).
std::vector<BinaryRow> rows_of(const PGresult* r) {
  const int rows = PQntuples(r), cols = PQnfields(r);
  std::vector<BinaryRow> out(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    auto& row = out[static_cast<std::size_t>(i)];
    row.reserve(static_cast<std::size_t>(cols));
    for (int j = 0; j < cols; ++j) {
      if (PQgetisnull(r, i, j))
        row.emplace_back(std::nullopt);
      else
        row.emplace_back(std::string(PQgetvalue(r, i, j), static_cast<std::size_t>(PQgetlength(r, i, j))));
    }
  }
  return out;
}

// PostgreSQL type oids whose text store::fetch rewrites as SOCI did (sql.hpp): its callers
// read a boolean as "1"/"0" and a float or numeric as "%.15g".
constexpr Oid kBool = 16, kFloat4 = 700, kFloat8 = 701, kNumeric = 1700;

// The rows of a text-format result as store::fetch answers them.
std::vector<Row> soci_rows_of(const PGresult* r) {
  std::vector<Row> out = rows_of(r);
  const int cols = PQnfields(r);
  for (int j = 0; j < cols; ++j) {
    const Oid type = PQftype(r, j);
    if (type != kBool && type != kFloat4 && type != kFloat8 && type != kNumeric) continue;
    for (auto& row : out) {
      auto& v = row[static_cast<std::size_t>(j)];
      if (!v) continue;
      if (type == kBool) {
        v = *v == "t" ? "1" : "0";
      } else {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.15g", std::strtod(v->c_str(), nullptr));
        v = buf;
      }
    }
  }
  return out;
}

// Process-wide memory of the statement texts that ran, so that store::fetch prepares what
// repeats and sends a one-off statement (its text built around a request's ids) in one
// round trip, unprepared. Texts are kept as hashes: two that collide only make one of them
// prepared at its first run. Bounded: forgets everything when it holds kMaxTexts.
class Repeats {
 public:
  static constexpr std::size_t kMaxTexts = 8192;
  /// Whether the statement `sql` ran before.
  bool repeated(const std::string& sql) {
    const std::size_t h = std::hash<std::string>{}(sql);
    std::lock_guard lock(mutex_);
    if (seen_.size() >= kMaxTexts) seen_.clear();
    return !seen_.insert(h).second;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<std::size_t> seen_;
};

Repeats& repeats() {
  static Repeats* r = new Repeats;  // never destroyed, as prepared_statements()
  return *r;
}

// One statement through libpq: `values` as text (nullptr for NULL), results in `format`
// (0 text, 1 binary). Prepared on the connection (named by Prepared) when `prepare`, else
// sent unprepared: by PQexecParams, or PQexec for a text without values (which may hold
// several statements).
Result run(PGconn* c, const std::string& sql, bool prepare, const std::vector<const char*>& values, int format) {
  const int n = static_cast<int>(values.size());
  if (!prepare) {
    Result r(values.empty() && format == 0 ? PQexec(c, sql.c_str())
                                           : PQexecParams(c, sql.c_str(), n, nullptr, values.data(), nullptr, nullptr,
                                                          format),
             &PQclear);
    const auto st = PQresultStatus(r.get());
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) fail(c, r.get());
    return r;
  }
  const auto [state, name] = prepared_statements().find(c, sql);
  auto do_prepare = [&](bool stale) {
    if (stale) Result(PQexec(c, ("deallocate " + name).c_str()), &PQclear);  // a name we made: cad_<n>
    Result p(PQprepare(c, name.c_str(), sql.c_str(), n, nullptr), &PQclear);
    if (PQresultStatus(p.get()) != PGRES_COMMAND_OK) fail(c, p.get());
    if (auto evicted = prepared_statements().add(c, sql, name))
      Result(PQexec(c, ("deallocate " + *evicted).c_str()), &PQclear);
  };
  auto exec = [&] {
    return Result(PQexecPrepared(c, name.c_str(), n, values.data(), nullptr, nullptr, format), &PQclear);
  };
  if (state != Prepared::State::ready) do_prepare(state == Prepared::State::stale);
  Result r = exec();
  const auto failed = [&] {
    const auto st = PQresultStatus(r.get());
    return st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK;
  };
  if (failed()) {
    const std::string code = sqlstate(r.get());
    // 26000 invalid_sql_statement_name: the statement went away behind our back (DISCARD
    // ALL). 0A000 "cached plan must not change result type": a table it reads changed its
    // columns. Outside a transaction both are mended at once, by preparing it again;
    // inside one the transaction has failed, and the next run prepares it afresh (a stale
    // one deallocated first).
    if (code == "26000" || code == "0A000") {
      if (PQtransactionStatus(c) == PQTRANS_IDLE) {
        do_prepare(code == "0A000");
        r = exec();
      } else if (code == "0A000") {
        prepared_statements().stale(c, sql);
      } else {
        prepared_statements().drop(c, sql);
      }
    }
    if (failed()) fail(c, r.get());
  }
  return r;
}

std::vector<const char*> values_of(const std::vector<Value>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Value& v : params) values.push_back(v ? v->c_str() : nullptr);
  return values;
}

// A Sql as libpq runs it, with store::fetch's policy: a statement marked Sql::reuse_plan()
// is prepared; so is a single statement without values that this process ran before.
// Without values, its one plan is the one PostgreSQL would make at every run. With values,
// a generic plan can be far worse than one made for them (a search's pattern, folded into
// the plan, finds its trigram index; the generic plan cannot see it), so those are planned
// at every run unless marked. `values` point into the Sql, which must outlive this.
struct Statement {
  std::string sql;
  std::vector<const char*> values;
  bool prepare = false;
};

Statement statement_of(const Sql& q) {
  Statement st{libpq_text(q), values_of(q.params()), false};
  st.prepare = q.reuses_plan() ||
               (st.values.empty() && st.sql.find(';') == std::string::npos && repeats().repeated(st.sql));
  return st;
}

Result run_sql(soci::session& s, const Sql& q, int format) {
  const Statement st = statement_of(q);
  return run(native_connection(s), st.sql, st.prepare, st.values, format);
}
}  // namespace

void forget_prepared(PGconn* c) noexcept {
  try {
    prepared_statements().forget(c);
  } catch (...) {  // a mutex that cannot lock: the entry stays, harmless
  }
}

std::size_t prepared_connections() noexcept {
  try {
    return prepared_statements().size();
  } catch (...) {
    return 0;
  }
}

std::vector<BinaryRow> run_prepared_binary(soci::session& s, const std::string& sql,
                                           const std::vector<std::string>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());
  return rows_of(run(native_connection(s), sql, true, values, 1).get());
}

std::optional<std::string_view> TextRows::at(std::size_t row, std::size_t col) const noexcept {
  const PGresult* r = result_.get();
  const int i = static_cast<int>(row), j = static_cast<int>(col);
  if (PQgetisnull(r, i, j)) return std::nullopt;
  return std::string_view(PQgetvalue(r, i, j), static_cast<std::size_t>(PQgetlength(r, i, j)));
}

TextRows::TextRows(PGresult* result)
    : result_(result, [](const PGresult* p) { PQclear(const_cast<PGresult*>(p)); }),
      rows_(static_cast<std::size_t>(PQntuples(result))) {}

TextRows fetch_text(soci::session& s, const Sql& q) { return TextRows(run_sql(s, q, 0).release()); }

namespace {

// libpq's pipeline mode on a connection for the life of this object: queries are sent
// without waiting for the answers of those before. Leaving it (also by an exception) sends
// a synchronisation point unless sync() did, consumes what is still in flight and leaves
// the connection as any other statement expects it.
class Pipeline {
 public:
  explicit Pipeline(PGconn* c) : c_(c) {
    if (PQenterPipelineMode(c_) != 1) fail(c_, nullptr);
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  ~Pipeline() {
    if (synced_ || PQpipelineSync(c_) == 1) {
      // Each query still in flight ends its results with a NULL; the synchronisation's
      // result comes after them all.
      for (int nulls = 0; nulls <= in_flight_ && PQstatus(c_) == CONNECTION_OK;) {
        PGresult* r = PQgetResult(c_);
        if (!r) {
          ++nulls;
          continue;
        }
        const bool synced = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (synced) break;
      }
    }
    PQexitPipelineMode(c_);  // fails only on a broken connection, which the pool drops
  }

  /// Sends `sql` (no values) and asks the server to send its answer at once.
  void send(const std::string& sql) {
    if (PQsendQueryParams(c_, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0) != 1 ||
        PQsendFlushRequest(c_) != 1 || PQflush(c_) != 0)
      fail(c_, nullptr);
    ++in_flight_;
  }
  /// Queues `st`, as the prepared statement `name` when that is not empty; sync() sends it.
  void queue(const Statement& st, const std::string& name) {
    const int n = static_cast<int>(st.values.size());
    const int sent = name.empty()
                         ? PQsendQueryParams(c_, st.sql.c_str(), n, nullptr, st.values.data(), nullptr, nullptr, 0)
                         : PQsendQueryPrepared(c_, name.c_str(), n, st.values.data(), nullptr, nullptr, 0);
    if (sent != 1) fail(c_, nullptr);
    ++in_flight_;
  }
  /// Sends what is queued with a synchronisation point: PostgreSQL runs it as one implicit
  /// transaction and sends every answer at its end.
  void sync() {
    if (PQpipelineSync(c_) != 1) fail(c_, nullptr);
    synced_ = true;
  }
  /// The result of the oldest query in flight, whatever its status (PGRES_PIPELINE_ABORTED
  /// for one after a failed query).
  Result take() {
    Result r(PQgetResult(c_), &PQclear);
    if (!r) fail(c_, nullptr);  // a broken connection
    if (PGresult* more = PQgetResult(c_)) {  // a query's results end with a NULL
      PQclear(more);
      fail(c_, nullptr);
    }
    --in_flight_;
    return r;
  }
  /// The rows of the oldest query in flight.
  Result receive() {
    Result r = take();
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) fail(c_, r.get());
    return r;
  }

 private:
  PGconn* c_;
  int in_flight_ = 0;  ///< queries sent whose results were not all taken
  bool synced_ = false;
};

}  // namespace

void fetch_text_batches(soci::session& s, const Sql& q, std::size_t batch,
                        const std::function<void(const TextRows&)>& fn) {
  PGconn* c = native_connection(s);
  if (PQtransactionStatus(c) != PQTRANS_INTRANS) throw std::logic_error("fetch_text_batches: fora de uma transação");
  const std::string sql = libpq_text(q);
  const std::string cursor = "cad_lotes_" + digest(sql);
  run(c, "declare " + cursor + " no scroll cursor for " + sql, {}, values_of(q.params()), 0);
  batch = std::max<std::size_t>(batch, 1);  // "fetch 0" reads no row: the read would end empty
  const std::string next = "fetch " + std::to_string(batch) + " from " + cursor;
  {
    // Two FETCHes are kept in flight, so PostgreSQL starts on batch k+1 the moment it has
    // sent batch k, without a round trip between them; `fn` works on one batch while this
    // thread takes the next from libpq. At most four batches are held: worked on, waiting,
    // arriving, and the one PostgreSQL is reading.
    InOrderWorker<TextRows> worker([&fn](TextRows& rows) { fn(rows); });
    Pipeline pipeline(c);
    pipeline.send(next);
    pipeline.send(next);
    for (;;) {
      Result r = pipeline.receive();
      const auto n = static_cast<std::size_t>(PQntuples(r.get()));
      if (n > 0) worker.give(TextRows(r.release()));
      if (n < batch) break;  // the FETCH still in flight reads nothing: the pipeline's end consumes it
      pipeline.send(next);
    }
    worker.finish();
  }
  run(c, "close " + cursor, {}, {}, 0);
}

std::vector<Row> fetch(soci::session& s, const Sql& q) { return soci_rows_of(run_sql(s, q, 0).get()); }

Ahead fetch_ahead(soci::session& s, const Sql& first, const Sql& second) {
  PGconn* c = native_connection(s);
  const Statement a = statement_of(first), b = statement_of(second);
  // The name to send a statement by: empty for one sent unprepared. Preparing a statement,
  // and mending one gone stale, are run()'s: one not ready on this connection goes there.
  auto name_of = [&](const Statement& st) -> std::optional<std::string> {
    if (!st.prepare) return std::string();
    auto [state, name] = prepared_statements().find(c, st.sql);
    if (state != Prepared::State::ready) return std::nullopt;
    return name;
  };
  const auto ok = [](const Result& r) { return PQresultStatus(r.get()) == PGRES_TUPLES_OK; };
  Ahead out;
  // Inside the caller's transaction a failed `second` would fail the transaction.
  if (PQtransactionStatus(c) == PQTRANS_IDLE) {
    const auto name_a = name_of(a), name_b = name_a ? name_of(b) : std::nullopt;
    if (name_b) {
      Result ra(nullptr, &PQclear), rb(nullptr, &PQclear);
      {
        Pipeline pipeline(c);
        pipeline.queue(a, *name_a);
        pipeline.queue(b, *name_b);
        pipeline.sync();
        ra = pipeline.take();
        rb = pipeline.take();
      }
      if (ok(ra)) {
        out.first = soci_rows_of(ra.get());
        if (ok(rb)) out.second = soci_rows_of(rb.get());
        return out;
      }
      // `first` failed (perhaps a statement gone stale): run() mends it or throws its error.
    }
  }
  out.first = soci_rows_of(run(c, a.sql, a.prepare, a.values, 0).get());
  return out;
}

Value fetch_value(soci::session& s, const Sql& q) {
  Result r = run_sql(s, q, 0);
  if (PQntuples(r.get()) == 0 || PQnfields(r.get()) == 0 || PQgetisnull(r.get(), 0, 0)) return std::nullopt;
  return std::string(PQgetvalue(r.get(), 0, 0), static_cast<std::size_t>(PQgetlength(r.get(), 0, 0)));
}

long long execute(soci::session& s, const Sql& q) {
  Result r = run_sql(s, q, 0);
  return std::strtoll(PQcmdTuples(r.get()), nullptr, 10);
}

}  // namespace cadastre::store
