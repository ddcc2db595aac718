// Prepared statements kept per pooled connection, read in binary (see prepared.hpp).
#include "store/prepared.hpp"

#include <libpq-fe.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <cctype>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <memory>
#include <mutex>

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

// ---------------------------------------------------------------- prepared binary statements

namespace {

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

// Which statements each connection has prepared, so the first use prepares without a
// failed attempt (which PostgreSQL would log as an ERROR). A connection is known by its
// libpq handle and backend pid: a reconnect gets a new backend and starts afresh. The
// 26000 fallback below still covers what this cannot see (e.g. a DISCARD ALL).
//
// Bounded: some statements are generated per layer and style (platform /vt2), so a
// connection keeps at most kMaxPerConnection of them, the least recently used deallocated
// first (each holds a parse tree and, once generic, a plan in its backend).
class Prepared {
 public:
  static constexpr std::size_t kMaxPerConnection = 64;

  bool known(PGconn* c, const std::string& name) {
    std::lock_guard lock(mutex_);
    auto& conn = conns_[c];
    if (conn.pid != PQbackendPID(c)) conn = {PQbackendPID(c), {}, {}};
    auto it = conn.names.find(name);
    if (it == conn.names.end()) return false;
    conn.order.splice(conn.order.begin(), conn.order, it->second);
    return true;
  }
  /// Records `name` as prepared on `c`; returns the statement to deallocate, if any.
  std::optional<std::string> add(PGconn* c, const std::string& name) {
    std::lock_guard lock(mutex_);
    auto& conn = conns_[c];
    if (conn.names.count(name)) return std::nullopt;
    conn.order.push_front(name);
    conn.names[name] = conn.order.begin();
    if (conn.order.size() <= kMaxPerConnection) return std::nullopt;
    std::string oldest = conn.order.back();
    conn.names.erase(oldest);
    conn.order.pop_back();
    return oldest;
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
  struct Connection {
    int pid = 0;
    std::list<std::string> order;  // most recently used first
    std::map<std::string, std::list<std::string>::iterator> names;
  };
  std::mutex mutex_;
  std::map<PGconn*, Connection> conns_;
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

Result exec(PGconn* c, const std::string& name, const std::vector<const char*>& values) {
  return Result(PQexecPrepared(c, name.c_str(), static_cast<int>(values.size()), values.data(),
                               nullptr, nullptr, 1),
                &PQclear);
}

// `q`'s text for libpq: each bound value's mark, ":p" and its number as Sql::bind writes
// it, becomes "$" and the number; a "::" cast is not a mark.
std::string libpq_text(const Sql& q) {
  const std::string& text = q.text();
  std::string sql;
  sql.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool mark = text[i] == ':' && i + 2 < text.size() && text[i + 1] == 'p' &&
                      std::isdigit(static_cast<unsigned char>(text[i + 2])) && (i == 0 || text[i - 1] != ':');
    if (!mark) {
      sql += text[i];
      continue;
    }
    sql += '$';
    for (i += 2; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) sql += text[i];
    --i;
  }
  return sql;
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
  PGconn* c = native_connection(s);
  const std::string name = "cad_" + digest(sql);
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.c_str());

  auto prepare = [&] {
    Result p(PQprepare(c, name.c_str(), sql.c_str(), static_cast<int>(params.size()), nullptr),
             &PQclear);
    // 42P05 duplicate_prepared_statement: prepared already, which is all we need.
    if (PQresultStatus(p.get()) != PGRES_COMMAND_OK && sqlstate(p.get()) != "42P05")
      fail(c, p.get());
    if (auto evicted = prepared_statements().add(c, name)) {
      Result d(PQexec(c, ("deallocate " + *evicted).c_str()), &PQclear);  // a name we made: cad_<hex>
    }
  };
  if (!prepared_statements().known(c, name)) prepare();
  Result r = exec(c, name, values);
  // 26000 invalid_sql_statement_name: the statement went away behind our back.
  if (PQresultStatus(r.get()) == PGRES_FATAL_ERROR && sqlstate(r.get()) == "26000") {
    prepare();
    r = exec(c, name, values);
  }
  if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) fail(c, r.get());
  return rows_of(r.get());
}


std::vector<BinaryRow> run_prepared(soci::session& s, const Sql& q) {
  std::vector<std::string> values;
  for (const Value& v : q.params()) {
    if (!v) return fetch(s, q);  // a Row is a BinaryRow: texts or NULLs
    values.push_back(*v);
  }
  return run_prepared_binary(s, libpq_text(q), values);
}

std::vector<BinaryRow> fetch_text(soci::session& s, const Sql& q) {
  PGconn* c = native_connection(s);
  std::vector<const char*> values;
  values.reserve(q.params().size());
  for (const Value& v : q.params()) values.push_back(v ? v->c_str() : nullptr);
  Result r(PQexecParams(c, libpq_text(q).c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                        nullptr, 0),
           &PQclear);
  if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) fail(c, r.get());
  return rows_of(r.get());
}

}  // namespace cadastre::store
