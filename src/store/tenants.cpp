#include "store/tenants.hpp"

#include <libpq-fe.h>

#include <memory>

#include "cadastre/error.hpp"
#include "store/dsn.hpp"
#include "store/migrate.hpp"
#include "store/quote.hpp"

namespace cadastre::store {
namespace {
using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;
}  // namespace

TenantPools::TenantPools(PoolOptions base, std::size_t per_server)
    : base_(std::move(base)), per_server_(per_server), sweeper_([this] { sweep(); }) {}

TenantPools::~TenantPools() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  sweeper_.join();
}

void TenantPools::sweep() {
  std::unique_lock lock(mutex_);
  while (!stop_cv_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_; }))
    for (auto& [id, entry] : pools_) entry.second->close_idle();
}

std::map<std::string, std::size_t> TenantPools::connections_per_server() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, std::size_t> out;
  for (const auto& [server, budget] : budgets_) out[server] = budget->open();
  return out;
}

Pool& TenantPools::pool(const Tenant& t) {
  std::lock_guard lock(mutex_);
  auto it = pools_.find(t.id);
  if (it != pools_.end() && dsns_[t.id] == t.dsn) return *it->second.second;
  PoolOptions o = base_;
  o.dsn = t.dsn;
  o.application_name = base_.application_name + ":" + t.slug;
  auto& budget = budgets_[server_of(t.dsn)];
  if (!budget) budget = std::make_shared<ConnectionBudget>(per_server_);
  o.budget = budget;
  auto& slot = pools_[t.id];
  slot = {t.slug, std::make_unique<Pool>(o)};
  dsns_[t.id] = t.dsn;
  return *slot.second;
}

std::map<std::string, PoolStats> TenantPools::stats() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, PoolStats> out;
  for (const auto& [id, entry] : pools_) out[entry.first] = entry.second->stats();
  return out;
}

void create_database(const std::string& server_dsn, const std::string& dbname) {
  Conn c(connect_or_throw(dsn_with(server_dsn, "dbname", "postgres")), &PQfinish);
  std::string exists_sql = "select 1 from pg_database where datname = " + quote_literal(c.get(), dbname);
  std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(c.get(), exists_sql.c_str()), &PQclear);
  if (PQresultStatus(r.get()) == PGRES_TUPLES_OK && PQntuples(r.get()) == 1) return;
  // FILE_COPY: a plain file copy of the template, much faster than WAL-logging every block.
  exec_sql(c.get(), "create database " + quote_ident(c.get(), dbname) + " strategy = file_copy");
  // Only its owner (the services' user) and the logins granted it may connect: PostgreSQL
  // gives every login CONNECT through PUBLIC, and a municipality's read-only login
  // (layer_readers.hpp) must not reach another's database.
  exec_sql(c.get(), "revoke connect on database " + quote_ident(c.get(), dbname) + " from public");
}

void drop_database(const std::string& server_dsn, const std::string& dbname) {
  Conn c(connect_or_throw(dsn_with(server_dsn, "dbname", "postgres")), &PQfinish);
  exec_sql(c.get(), "set client_min_messages = warning");
  exec_sql(c.get(), "drop database if exists " + quote_ident(c.get(), dbname) + " with (force)");
}

void check_tenant_slug(const std::string& slug) {
  bool shape = slug.size() >= 2 && slug.size() <= 63 && slug[0] >= 'a' && slug[0] <= 'z' &&
               slug.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
  if (!shape)
    throw Error(errc::invalid_identifier, "nome de município inválido: use 2 a 63 letras minúsculas, dígitos ou '_', começando por letra", "slug");
  // First path segments of the services' routes cannot be tenant names: /{municipio}/...
  // routes would be shadowed by them.
  static const char* reserved[] = {"crud", "geo", "explorer", "dbrest", "mapoteca", "equacao", "midia",
                                   "visualizador360", "caracterizacao", "dominio", "aplicativo", "portal",
                                   "agendamento", "atendimento", "tiles", "ldap", "integracao_rest", "cad",
                                   "docs", "metrics", "health", "rest", "plataforma", "outros", "swagger"};
  for (const char* r : reserved)
    if (slug == r) throw Error(errc::invalid_identifier, "nome de município reservado: " + slug, "slug");
}

std::string prepare_tenant_database(const std::string& server_dsn, const std::string& slug) {
  check_tenant_slug(slug);
  std::string db = "cad_" + slug;
  create_database(server_dsn, db);
  std::string dsn = dsn_with(server_dsn, "dbname", db);
  Conn c(connect_or_throw(dsn), &PQfinish);
  migrate(c.get(), "tenant");
  return dsn;
}

Tenant provision_tenant(Identity& identity, const std::string& platform_dsn, const NewTenant& nt) {
  check_tenant_slug(nt.slug);
  NewTenant t = nt;
  if (t.dsn.empty()) {
    t.dsn = prepare_tenant_database(platform_dsn, t.slug);
  } else {
    Conn c(connect_or_throw(t.dsn), &PQfinish);
    migrate(c.get(), "tenant");
  }
  identity.add_tenant(t);
  identity.reload();
  auto row = identity.tenant(t.slug);
  if (!row) throw Error(errc::internal, "município não registrado após a criação: " + t.slug);
  return *row;
}

}  // namespace cadastre::store
