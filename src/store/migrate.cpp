#include "store/migrate.hpp"

#include <libpq-fe.h>

#include <memory>

#include "cadastre/error.hpp"
#include "store/crypto.hpp"

namespace cadastre::store {
namespace {
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

Result exec_params(PGconn* conn, const char* sql, std::initializer_list<std::string> params) {
  std::vector<const char*> values;
  for (const auto& p : params) values.push_back(p.c_str());
  Result r(PQexecParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0),
           &PQclear);
  auto st = PQresultStatus(r.get());
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
    throw Error(errc::internal, std::string("falha na migração: ") + PQerrorMessage(conn));
  return r;
}
}  // namespace

PGconn* connect_or_throw(const std::string& dsn) {
  PGconn* conn = PQconnectdb(dsn.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = PQerrorMessage(conn);
    PQfinish(conn);
    throw Error(errc::unavailable, "não foi possível conectar ao banco de dados: " + msg);
  }
  return conn;
}

void exec_sql(PGconn* conn, const std::string& sql) {
  Result r(PQexec(conn, sql.c_str()), &PQclear);
  auto st = PQresultStatus(r.get());
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    throw Error(errc::internal, std::string("falha ao executar SQL: ") + PQerrorMessage(conn));
  }
}

std::vector<std::string> migrate(PGconn* conn, std::string_view set, std::string_view until) {
  exec_sql(conn,
           "set client_min_messages = warning;"
           "create table if not exists public.cadastre_migrations ("
           "  set_name text not null, version text not null, checksum text not null,"
           "  applied_at timestamptz not null default now(), primary key (set_name, version))");
  // Serialise concurrent migrators of the same database (lock id: "cadastre" in ASCII).
  exec_sql(conn, "select pg_advisory_lock(7161530474617374)");
  std::vector<std::string> applied;
  try {
    for (const auto& m : embedded_migrations()) {
      if (m.set != set) continue;
      if (!until.empty() && m.name > until) break;
      std::string name(m.name), checksum = sha256_hex(m.sql);
      auto r = exec_params(conn, "select checksum from public.cadastre_migrations where set_name = $1 and version = $2",
                           {std::string(set), name});
      if (PQntuples(r.get()) == 1) {
        if (checksum != PQgetvalue(r.get(), 0, 0)) {
          throw Error(errc::conflict, "a migração " + std::string(set) + "/" + name +
                                          " já aplicada foi alterada; crie uma nova migração em vez de editar");
        }
        continue;
      }
      exec_sql(conn, "begin");
      try {
        exec_sql(conn, std::string(m.sql));
        exec_params(conn, "insert into public.cadastre_migrations (set_name, version, checksum) values ($1, $2, $3)",
                    {std::string(set), name, checksum});
        exec_sql(conn, "commit");
      } catch (...) {
        exec_sql(conn, "rollback");
        throw;
      }
      applied.push_back(name);
    }
  } catch (...) {
    exec_sql(conn, "select pg_advisory_unlock(7161530474617374)");
    throw;
  }
  exec_sql(conn, "select pg_advisory_unlock(7161530474617374)");
  return applied;
}

}  // namespace cadastre::store
