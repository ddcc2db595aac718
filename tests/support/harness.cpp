#include "support/harness.hpp"

#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "demo/demo.hpp"
#include "store/crypto.hpp"
#include "store/dsn.hpp"
#include "store/migrate.hpp"

namespace cadastre::test {

std::string cluster_dsn() {
  const char* dsn = std::getenv("CADASTRE_TEST_PG_DSN");
  if (!dsn || !*dsn) FAIL("CADASTRE_TEST_PG_DSN is not set: run the tests through ./scripts/test");
  return dsn;
}

std::string second_cluster_dsn() {
  const char* dsn = std::getenv("CADASTRE_TEST_PG_DSN2");
  return dsn && *dsn ? std::string(dsn) : cluster_dsn();
}

std::string unique_db_name(const std::string& suffix) { return "t" + std::to_string(getpid()) + "_" + suffix; }

namespace {

// The argon2id hash of a test password, computed once per process: each costs about 0.2 s
// on a CI core, and every Stack creates users with the same few passwords. Logins still
// verify against a real argon2id hash.
const std::string& password_hash(const std::string& password) {
  static std::mutex mutex;
  static std::map<std::string, std::string> hashes;
  std::lock_guard lock(mutex);
  std::string& hash = hashes[password];
  if (hash.empty()) hash = store::hash_password(password);
  return hash;
}
// One open connection per database and thread for query_value: a new connection costs a
// backend start and cold catalog caches (30-60 ms), which suites that check the database
// after every request paid hundreds of times. A connection the server closed (its
// database dropped WITH (FORCE), the cluster restarted) is opened again.
using Conn = std::unique_ptr<PGconn, void (*)(PGconn*)>;
std::map<std::string, Conn>& open_connections() {
  thread_local std::map<std::string, Conn> open;
  return open;
}

PGconn* connection_to(const std::string& dsn) {
  auto& open = open_connections();
  auto it = open.find(dsn);
  if (it != open.end() && PQstatus(it->second.get()) == CONNECTION_OK) return it->second.get();
  if (it != open.end()) open.erase(it);
  return open.emplace(dsn, Conn(store::connect_or_throw(dsn), &PQfinish)).first->second.get();
}
}  // namespace

std::string query_value(const std::string& dsn, const std::string& sql) {
  PGconn* c = connection_to(dsn);
  PGresult* r = PQexec(c, sql.c_str());
  if (PQstatus(c) == CONNECTION_BAD) {  // closed by the server while idle: the statement never ran
    PQclear(r);
    c = connection_to(dsn);
    r = PQexec(c, sql.c_str());
  }
  bool ok = PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK;
  std::string out = ok && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
  std::string msg = ok ? "" : PQerrorMessage(c);
  PQclear(r);
  // Nothing carries over to the next statement: a transaction left open (a failed or
  // unfinished BEGIN) goes with its connection.
  if (PQtransactionStatus(c) != PQTRANS_IDLE) open_connections().erase(dsn);
  if (!ok) FAIL("query failed: " << sql << ": " << msg);
  return out;
}

namespace {
// One migrated database of each kind per PostgreSQL server and migration level, shared by
// every test process and copied for every Stack: CREATE DATABASE ... TEMPLATE is a file
// copy, much faster than running the migrations again (the platform's: 1.5 s; the
// tenant's, with PostGIS: more), and a suite of many processes pays them once. Its name
// carries a digest of the embedded migrations, so a changed migration makes a new one.
// The first process builds it under another name and renames it when complete (under an
// advisory lock, so the others wait for it instead of building their own); nobody
// connects to it afterwards, so any number of copies may run at once. It stays on the
// server: the test clusters are throwaway.
class MigratedTemplate {
 public:
  explicit MigratedTemplate(std::string kind) : kind_(std::move(kind)) {}
  /// The template's name on `server` (made on first use).
  std::string name(const std::string& server) {
    std::lock_guard lock(mutex_);
    if (auto it = ready_.find(server); it != ready_.end()) return it->second;
    std::string name = "tmpl_" + kind_ + "_" + digest();
    PGconn* admin = store::connect_or_throw(store::dsn_with(server, "dbname", "postgres"));
    auto run = [&](const std::string& sql) {
      PGresult* r = PQexec(admin, sql.c_str());
      bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
      std::string out = ok && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
      std::string msg = PQerrorMessage(admin);
      PQclear(r);
      if (!ok) throw std::runtime_error(sql + ": " + msg);
      return out;
    };
    try {
      run("select pg_advisory_lock(hashtext('" + name + "'))");
      if (run("select count(*) from pg_database where datname = '" + name + "'") == "0") {
        std::string building = unique_db_name(name);
        store::drop_database(server, building);
        store::create_database(server, building);
        PGconn* c = store::connect_or_throw(store::dsn_with(server, "dbname", building));
        try {
          store::migrate(c, kind_);
        } catch (...) {
          PQfinish(c);
          throw;
        }
        PQfinish(c);
        // The migrating connection's backend may still be ending: retry the rename a moment.
        std::string rename = "alter database \"" + building + "\" rename to \"" + name + "\"";
        for (int i = 0;; ++i) {
          try {
            run(rename);
            break;
          } catch (const std::runtime_error&) {
            if (i == 100) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
        }
      }
      run("select pg_advisory_unlock(hashtext('" + name + "'))");
    } catch (...) {
      PQfinish(admin);
      throw;
    }
    PQfinish(admin);
    return ready_[server] = name;
  }

 private:
  // The first 16 hex digits of the SHA-256 of this kind's migrations, names and texts.
  std::string digest() const {
    std::string all;
    for (const store::Migration& m : store::embedded_migrations())
      if (m.set == kind_) all.append(m.name).append("\n").append(m.sql).append("\n");
    return store::sha256_hex(all).substr(0, 16);
  }

  std::string kind_;
  std::mutex mutex_;
  std::map<std::string, std::string> ready_;  // server → template database
};

MigratedTemplate platform_template("platform");
MigratedTemplate tenant_template("tenant");

void create_from_template(const std::string& server, const std::string& db, MigratedTemplate& from) {
  PGconn* c = store::connect_or_throw(store::dsn_with(server, "dbname", "postgres"));
  std::string sql = "create database \"" + db + "\" template \"" + from.name(server) + "\" strategy = file_copy";
  PGresult* r = PQexec(c, sql.c_str());
  bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  std::string msg = PQerrorMessage(c);
  PQclear(r);
  PQfinish(c);
  if (!ok) FAIL("cannot create " << db << ": " << msg);
}
}  // namespace

Stack::Stack(std::vector<std::string> slugs, server::AppOptions options) {
  std::string server = cluster_dsn();
  std::string plat_db = unique_db_name("plat");
  store::drop_database(server, plat_db);
  create_from_template(server, plat_db, platform_template);
  databases_.emplace_back(server, plat_db);
  platform_dsn_ = store::dsn_with(server, "dbname", plat_db);
  store::PoolOptions po;
  po.dsn = platform_dsn_;
  po.size = 2;
  admin_pool_ = std::make_unique<store::Pool>(po);
  admin_identity_ = std::make_unique<store::Identity>(*admin_pool_);
  for (std::size_t i = 0; i < slugs.size(); ++i) {
    const std::string& slug = slugs[i];
    // Every second municipality lives on the second PostgreSQL server, when the suite has
    // one: cross-tenant routes then cross servers, as in a deployment with several.
    std::string home = i % 2 ? second_cluster_dsn() : server;
    std::string db = unique_db_name(slug);
    store::drop_database(home, db);
    create_from_template(home, db, tenant_template);
    databases_.emplace_back(home, db);
    store::NewTenant t;
    t.slug = slug;
    t.nome = "Município " + slug;
    t.uf = "SP";
    t.dsn = store::dsn_with(home, "dbname", db);
    store::provision_tenant(*admin_identity_, platform_dsn_, t);
    tenant_dsns_[slug] = t.dsn;
    users_[slug] = add_user(slug, "usuario@" + slug + ".gov.br", {"*:rw"});
  }
  options.platform_dsn = platform_dsn_;
  options.http.port = 0;
  options.http.access_log = false;
  if (options.pool.size == 8) options.pool.size = 4;
  app_ = std::make_unique<server::App>(options);
  REQUIRE(app_->start());
}

Stack::~Stack() {
  app_.reset();
  admin_identity_.reset();
  admin_pool_.reset();
  for (const auto& [server, db] : databases_) {
    try {
      store::drop_database(server, db);
    } catch (const std::exception&) {
      // The cluster may be down in a failing restart test; leftovers go with the cluster.
    }
  }
}

TestUser Stack::add_user(const std::string& slug, const std::string& email, std::vector<std::string> perms, bool admin) {
  TestUser u;
  u.email = email;
  u.password = "senha-" + slug;
  // Created without a password, then given the process's hash of it (see password_hash).
  u.id = admin_identity_->add_user({slug, email, "Usuário " + slug, "", admin});
  query_value(platform_dsn_, "update plataforma.usuarios set senha_hash = '" + password_hash(u.password) +
                                 "' where id = " + std::to_string(u.id) + " returning id");
  for (const auto& p : perms)
    admin_identity_->set_permission(email, store::parse_layer_permission(p));
  u.token = admin_identity_->issue_token(email);
  return u;
}

httplib::Client Stack::client() const {
  httplib::Client c("127.0.0.1", app_->server().port());
  c.set_read_timeout(30, 0);
  c.set_connection_timeout(5, 0);
  return c;
}

std::string Stack::tenant_dsn(const std::string& slug) const { return tenant_dsns_.at(slug); }
const TestUser& Stack::user(const std::string& slug) const { return users_.at(slug); }

httplib::Headers Stack::bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

}  // namespace cadastre::test

namespace cadastre::test {
void Stack::load_demo(const std::string& slug, long long lots, unsigned long long seed) {
  PGconn* c = store::connect_or_throw(tenant_dsn(slug));
  store::DemoOptions o;
  o.lots = lots;
  o.seed = seed;
  try {
    store::load_demo(c, o);
  } catch (...) {
    PQfinish(c);
    throw;
  }
  PQfinish(c);
}
}  // namespace cadastre::test
