#include "store/layer_readers.hpp"

#include <libpq-fe.h>

#include <memory>

#include "cadastre/error.hpp"
#include "store/crypto.hpp"
#include "store/dsn.hpp"
#include "store/migrate.hpp"
#include "store/quote.hpp"

namespace cadastre::store {

LayerReader grant_layer_reader(const std::string& tenant_dsn) {
  const std::string db = dsn_get(tenant_dsn, "dbname");
  if (db.empty()) throw Error(errc::invalid_argument, "o DSN do município precisa de dbname");
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(connect_or_throw(tenant_dsn), &PQfinish);
  PGconn* c = conn.get();
  LayerReader r;
  r.role = "leitura_" + db;
  r.password = random_token();
  const std::string role = quote_ident(c, r.role);
  // Roles belong to the whole server: the name carries the database's. One transaction:
  // a reader is made whole or not at all.
  exec_sql(c, "begin");
  try {
    exec_sql(c, "do $$ begin if not exists (select 1 from pg_roles where rolname = " + quote_literal(c, r.role) +
                    ") then create role " + role + " login nosuperuser nocreatedb nocreaterole noinherit; end if; end $$");
    exec_sql(c, "alter role " + role + " password " + quote_literal(c, r.password) + " connection limit 10");
    // PostgreSQL lets every login connect to every database (PUBLIC has CONNECT): the
    // databases of the services' user (every municipality's, the platform's) take only
    // their owner and the logins granted them. A database dropped (or granted) by another
    // session meanwhile is passed over: "does not exist", "tuple concurrently deleted".
    exec_sql(c, "do $$ declare d text; begin for d in select datname from pg_database "
                "where datdba = (select oid from pg_roles where rolname = current_user) loop "
                "begin execute format('revoke connect on database %I from public', d); "
                "exception when invalid_catalog_name or internal_error then null; end; end loop; end $$");
    exec_sql(c, "grant connect on database " + quote_ident(c, db) + " to " + role);
    exec_sql(c, "grant usage on schema camadas to " + role);
    exec_sql(c, "grant select on all tables in schema camadas to " + role);
    // The layers created from now on: their tables are created by the services' user.
    exec_sql(c, "alter default privileges in schema camadas grant select on tables to " + role);
    exec_sql(c, "commit");
  } catch (...) {
    exec_sql(c, "rollback");
    throw;
  }
  r.dsn = dsn_with(dsn_with(tenant_dsn, "user", r.role), "password", r.password);
  return r;
}

}  // namespace cadastre::store
