// Integration-test fixture: a private platform database and tenant databases on the test
// cluster, users with tokens, and cadastre-server running in-process on a free port.
// Everything it creates is dropped when it goes away.
#pragma once

#include <httplib.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "server/app.hpp"

namespace cadastre::test {

/// DSN of the test cluster's server (env CADASTRE_TEST_PG_DSN); fails the test if unset.
std::string cluster_dsn();
/// DSN of a second PostgreSQL server (env CADASTRE_TEST_PG_DSN2, which scripts/test sets),
/// or the first one's when there is none. A Stack places every second tenant there.
std::string second_cluster_dsn();
/// A name unique to this process, e.g. "t12345_plat".
std::string unique_db_name(const std::string& suffix);

struct TestUser {
  std::string email, password, token;
  std::int64_t id = 0;
};

class Stack {
 public:
  /// Creates the platform database and the given tenants (slug list), one admin-less
  /// user per tenant with read/write on every layer, and starts the server. The second,
  /// fourth... tenant's database is on second_cluster_dsn().
  explicit Stack(std::vector<std::string> tenant_slugs = {"alfa", "beta"}, server::AppOptions options = {});
  ~Stack();

  server::App& app() { return *app_; }
  httplib::Client client() const;
  const std::string& platform_dsn() const { return platform_dsn_; }
  std::string tenant_dsn(const std::string& slug) const;
  const TestUser& user(const std::string& slug) const;
  /// Creates another user of `slug` with the given layer permissions ("*:r", "lote:rw"...).
  TestUser add_user(const std::string& slug, const std::string& email, std::vector<std::string> perms, bool admin = false);
  /// Loads the deterministic demo city (`lots` lots) into tenant `slug`'s database.
  void load_demo(const std::string& slug, long long lots, unsigned long long seed = 1);
  /// Headers with Authorization: Bearer <token>.
  static httplib::Headers bearer(const std::string& token);

 private:
  std::string platform_dsn_;
  std::vector<std::pair<std::string, std::string>> databases_;  // (server DSN, database)
  std::map<std::string, TestUser> users_;
  std::map<std::string, std::string> tenant_dsns_;
  std::unique_ptr<store::Pool> admin_pool_;
  std::unique_ptr<store::Identity> admin_identity_;
  std::unique_ptr<server::App> app_;
};

/// Runs one SQL statement on `dsn` and returns the first column of the first row ("" if none,
/// as for a statement that returns no rows).
std::string query_value(const std::string& dsn, const std::string& sql);

}  // namespace cadastre::test
