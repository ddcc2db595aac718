// Bounded PostgreSQL connections (store/budget.hpp, store/pool.hpp): the pools of one
// server share a cap, a pool at the cap takes a free connection of another pool, an idle
// pool closes its connections. Counted on the server itself (pg_stat_activity).
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "store/budget.hpp"
#include "store/dsn.hpp"
#include "store/pool.hpp"
#include "support/harness.hpp"

using namespace cadastre;

namespace {

const char* kApp = "teste-orcamento";

// The connections of the pools under test, as PostgreSQL counts them.
int held() {
  return std::stoi(test::query_value(test::cluster_dsn(), std::string("select count(*) from pg_stat_activity where "
                                                                       "application_name = '") + kApp + "'"));
}

// Whether the count comes to satisfy `ok` within two seconds (a backend whose client has
// closed leaves pg_stat_activity a moment later).
template <class Ok>
bool comes_to(Ok ok) {
  for (int i = 0; i < 200; ++i) {
    if (ok(held())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

store::PoolOptions options(std::shared_ptr<store::ConnectionBudget> budget) {
  store::PoolOptions o;
  o.dsn = store::dsn_with(test::cluster_dsn(), "dbname", "postgres");
  o.size = 4;
  o.wait = std::chrono::milliseconds(300);
  o.application_name = kApp;
  o.budget = std::move(budget);
  return o;
}

int one(store::Pool& p) {
  return p.with([](soci::session& s) {
    int v = 0;
    s << "select 1", soci::into(v);
    return v;
  });
}

}  // namespace

TEST_CASE("twenty tenants' pools on one server hold at most the server's cap, each still answering") {
  auto budget = std::make_shared<store::ConnectionBudget>(3);
  std::vector<std::unique_ptr<store::Pool>> pools;
  for (int i = 0; i < 20; ++i) pools.push_back(std::make_unique<store::Pool>(options(budget)));
  for (int round = 0; round < 2; ++round)
    for (auto& p : pools) {
      CHECK(one(*p) == 1);  // a pool at the cap takes a free connection of another pool
      CHECK(budget->open() <= 3);
    }
  CHECK(comes_to([&](int n) { return n == static_cast<int>(budget->open()) && n <= 3; }));
  pools.clear();
  CHECK(budget->open() == 0);
  CHECK(comes_to([](int n) { return n == 0; }));
}

TEST_CASE("at the cap with every connection busy, a lease waits its pool's wait and gets 503") {
  auto budget = std::make_shared<store::ConnectionBudget>(1);
  store::Pool a(options(budget)), b(options(budget));
  {
    auto busy = a.lease();
    auto started = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(b.lease(), Error);
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(250));
  }
  CHECK(one(b) == 1);  // a's connection is free again: b takes its place
  CHECK(comes_to([](int n) { return n == 1; }));
}

TEST_CASE("an idle pool closes its connections, and opens one again when used") {
  auto o = options(nullptr);
  o.idle_timeout = std::chrono::seconds(0);
  store::Pool p(o);
  {
    auto l1 = p.lease();
    auto l2 = p.lease();
  }
  CHECK(comes_to([](int n) { return n == 2; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(p.close_idle() == 2);
  CHECK(comes_to([](int n) { return n == 0; }));
  CHECK(p.stats().open == 0);
  CHECK(one(p) == 1);
  CHECK(comes_to([](int n) { return n == 1; }));
}
