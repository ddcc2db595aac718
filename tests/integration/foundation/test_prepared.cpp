// Prepared statements kept per connection (store/prepared.hpp) are bounded: statements
// generated per layer and style must not pile up in a backend for the connection's life.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <chrono>
#include <string>
#include <thread>

#include "store/dsn.hpp"
#include "store/pool.hpp"
#include "store/prepared.hpp"
#include "store/sql.hpp"
#include "support/harness.hpp"

using namespace cadastre;

TEST_CASE("a connection keeps at most 64 prepared statements, the least recently used deallocated") {
  store::PoolOptions o;
  o.dsn = store::dsn_with(test::cluster_dsn(), "dbname", "postgres");
  o.size = 1;
  store::Pool pool(o);
  pool.with([](soci::session& s) {
    auto prepared = [&] { return store::fetch_value(s, store::Sql("select count(*)::text from pg_prepared_statements")); };
    auto run = [&](int i) {
      auto rows = store::run_prepared_binary(s, "select " + std::to_string(i) + "::text", {});
      REQUIRE(rows.size() == 1);
      CHECK(rows[0][0] == std::to_string(i));
    };
    for (int i = 0; i < 100; ++i) run(i);
    CHECK(prepared() == "64");
    // The most recent ones are still prepared (run again: no new statement), the first
    // ones prepared again when used.
    run(99);
    CHECK(prepared() == "64");
    CHECK(store::fetch_value(s, store::Sql("select count(*)::text from pg_prepared_statements where statement = "
                                           "'select 0::text'")) == "0");
    run(0);
    CHECK(prepared() == "64");
  });
}

TEST_CASE("a closed connection leaves nothing in the registry of prepared statements") {
  store::PoolOptions o;
  o.dsn = store::dsn_with(test::cluster_dsn(), "dbname", "postgres");
  o.size = 2;
  o.idle_timeout = std::chrono::seconds(0);
  const std::size_t before = store::prepared_connections();
  {
    store::Pool pool(o);
    pool.with([](soci::session& s) { store::run_prepared_binary(s, "select 1", {}); });
    CHECK(store::prepared_connections() == before + 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(pool.close_idle() == 1);
    CHECK(store::prepared_connections() == before);
    // Reopened, prepared again, and gone with the pool.
    pool.with([](soci::session& s) { store::run_prepared_binary(s, "select 1", {}); });
    CHECK(store::prepared_connections() == before + 1);
  }
  CHECK(store::prepared_connections() == before);
}
