// Prepared statements kept per connection (store/prepared.hpp) are bounded: statements
// generated per layer and style must not pile up in a backend for the connection's life.
#include <doctest/doctest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "store/dsn.hpp"
#include "store/pool.hpp"
#include "store/prepared.hpp"
#include "store/sql.hpp"
#include "support/harness.hpp"

using namespace cadastre;

namespace {
store::PoolOptions one_connection() {
  store::PoolOptions o;
  o.dsn = store::dsn_with(test::cluster_dsn(), "dbname", "postgres");
  o.size = 1;
  return o;
}

// How many statements the connection has prepared whose text matches `pattern`.
std::string prepared_like(soci::session& s, const std::string& pattern) {
  store::Sql q("select count(*)::text from pg_prepared_statements where statement ~ ");
  q.bind(pattern);
  return store::fetch_value(s, q).value_or("");
}
}  // namespace

TEST_CASE("a connection keeps a bounded number of prepared statements, the least recently used deallocated") {
  store::Pool pool(one_connection());
  const int most = static_cast<int>(store::kMaxPreparedPerConnection);
  const std::string numbered = "^select [0-9]+::text$";
  pool.with([&](soci::session& s) {
    auto run = [&](int i) {
      auto rows = store::run_prepared_binary(s, "select " + std::to_string(i) + "::text", {});
      REQUIRE(rows.size() == 1);
      CHECK(rows[0][0] == std::to_string(i));
    };
    for (int i = 0; i < most + 40; ++i) run(i);
    // At most `most` in all, the counting statement among them once it repeats.
    const int kept = std::stoi(prepared_like(s, numbered));
    CHECK(kept >= most - 1);
    CHECK(kept <= most);
    // The most recent ones are still prepared (run again: no new statement), the first
    // ones prepared again when used.
    run(most + 39);
    CHECK(std::stoi(prepared_like(s, numbered)) <= most);
    CHECK(prepared_like(s, "^select 0::text$") == "0");
    run(0);
    CHECK(prepared_like(s, "^select 0::text$") == "1");
    CHECK(std::stoi(prepared_like(s, "")) <= most);
  });
}

TEST_CASE("a prepared statement is known by its whole text and named by a number, never by a digest of the text") {
  // A digest's collision would run one statement for another: a tenant's administrator
  // names the fields written into a layer's statements.
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    for (int round = 0; round < 2; ++round)
      for (const std::string word : {"um", "dois"}) {
        store::Sql q("select '" + word + "'::text || ");
        q.bind(std::to_string(round), "text").reuse_plan();
        CHECK(store::fetch_value(s, q) == word + std::to_string(round));
      }
    store::Sql names("select string_agg(name, ',' order by name) from pg_prepared_statements "
                     "where statement ~ '^select ''(um|dois)''::text'");
    const std::string got = store::fetch_value(s, names).value_or("");
    CHECK(got.find(',') != std::string::npos);  // two statements, one name each
    for (std::size_t at = 0, next; at < got.size(); at = next + 1) {
      next = std::min(got.find(',', at), got.size());
      const std::string name = got.substr(at, next - at);
      CHECK(name.rfind("cad_", 0) == 0);
      CHECK(name.find_first_not_of("0123456789", 4) == std::string::npos);
    }
  });
}

TEST_CASE("store::fetch prepares a statement at its second run in the process, not its first") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    // A text no other test runs: the process has not seen it.
    const std::string text = "select 'pela segunda vez'::text where 1 = 1";
    CHECK(store::fetch_value(s, store::Sql(text)) == "pela segunda vez");
    CHECK(prepared_like(s, "pela segunda vez'::text where") == "0");
    CHECK(store::fetch_value(s, store::Sql(text)) == "pela segunda vez");
    CHECK(prepared_like(s, "pela segunda vez'::text where") == "1");
    // Its values bind as parameters whichever way it runs, NULL included.
    for (int i = 0; i < 3; ++i) {
      store::Sql q("select coalesce(");
      q.bind(std::nullopt, "text") << ", 'nulo') || ";
      q.bind(std::to_string(i), "text") << " where 2 = 2";
      CHECK(store::fetch_value(s, q) == "nulo" + std::to_string(i));
    }
    // Several statements in one text, as a migration sends them: never prepared.
    for (int i = 0; i < 2; ++i)
      store::execute(s, store::Sql("create temp table if not exists varias (x int); insert into varias values (1)"));
    CHECK(store::fetch_value(s, store::Sql("select count(*)::text from varias")) == "2");
    CHECK(prepared_like(s, "varias values") == "0");
  });
}

TEST_CASE("a statement with values is prepared only when marked to reuse its plan") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    for (int i = 0; i < 3; ++i) {
      store::Sql q("select 'com valores '::text || ");
      q.bind(std::to_string(i), "text");
      CHECK(store::fetch_value(s, q) == "com valores " + std::to_string(i));
    }
    // Planned with its values at every run: a pattern's plan hangs on it.
    CHECK(prepared_like(s, "com valores '::text") == "0");
    for (int i = 0; i < 2; ++i) {
      store::Sql q("select 'marcada '::text || ");
      q.bind(std::to_string(i), "text").reuse_plan();
      CHECK(store::fetch(s, q).at(0).at(0) == "marcada " + std::to_string(i));
      CHECK(prepared_like(s, "marcada '::text") == "1");  // from its first run
    }
  });
}

TEST_CASE("store::fetch reads booleans and numerics as SOCI did, fetch_value as PostgreSQL writes them") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    for (int i = 0; i < 2; ++i) {  // unprepared, then prepared
      auto rows = store::fetch(s, store::Sql("select true, false, 12.50::numeric, 0.1::float8, 7::bigint, "
                                             "null::numeric, 'x'::text, 2::int"));
      REQUIRE(rows.size() == 1);
      const store::Row& r = rows[0];
      CHECK(r[0] == "1");
      CHECK(r[1] == "0");
      CHECK(r[2] == "12.5");
      CHECK(r[3] == "0.1");
      CHECK(r[4] == "7");
      CHECK(r[5] == std::nullopt);
      CHECK(r[6] == "x");
      CHECK(r[7] == "2");
      CHECK(store::fetch_value(s, store::Sql("select 12.50::numeric")) == "12.50");
      CHECK(store::fetch_value(s, store::Sql("select true")) == "t");
    }
    CHECK(store::execute(s, store::Sql("select generate_series(1, 3)")) == 3);
  });
}

TEST_CASE("a prepared statement whose table changed its columns runs again, and a failed transaction's at the next") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    store::execute(s, store::Sql("create temp table mudanca (a int)"));
    store::execute(s, store::Sql("insert into mudanca values (1)"));
    const store::Sql all("select * from mudanca");
    for (int i = 0; i < 2; ++i) CHECK(store::fetch(s, all).at(0).size() == 1);  // prepared at the second
    store::execute(s, store::Sql("alter table mudanca add column b int"));
    // Outside a transaction: prepared again at once.
    CHECK(store::fetch(s, all).at(0).size() == 2);
    store::execute(s, store::Sql("alter table mudanca add column c int"));
    {
      soci::transaction tx(s);
      // PostgreSQL refuses the cached plan; the transaction has failed.
      CHECK_THROWS_AS(store::fetch(s, all), soci::soci_error);
    }
    CHECK(store::fetch(s, all).at(0).size() == 3);
    {
      soci::transaction tx(s);
      CHECK(store::fetch(s, all).at(0).size() == 3);
      tx.commit();
    }
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

TEST_CASE("a prepared statement the server dropped is prepared again, at once or at the next run") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    store::Sql q("select 'perdida '::text || ");
    q.bind("1", "text").reuse_plan();
    CHECK(store::fetch_value(s, q) == "perdida 1");
    store::execute(s, store::Sql("deallocate all"));
    CHECK(store::fetch_value(s, q) == "perdida 1");  // outside a transaction: at once
    store::execute(s, store::Sql("deallocate all"));
    {
      soci::transaction tx(s);
      CHECK_THROWS_AS(store::fetch_value(s, q), soci::soci_error);
    }
    for (int i = 0; i < 2; ++i) {
      soci::transaction tx(s);
      CHECK(store::fetch_value(s, q) == "perdida 1");
      tx.commit();
    }
  });
}

TEST_CASE("fetch_text_batches hands every row in order, a batch at a time, and only inside a transaction") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    const store::Sql q("select s.i::text, case when s.i % 7 = 0 then null else 'v' || s.i end "
                       "from generate_series(1, 25) s(i) order by s.i");
    CHECK_THROWS_AS(store::fetch_text_batches(s, q, 10, [](const store::TextRows&) {}), std::logic_error);
    for (std::size_t batch : {std::size_t{10}, std::size_t{25}, std::size_t{5}, std::size_t{100}}) {
      CAPTURE(batch);
      soci::transaction tx(s);
      std::vector<std::size_t> sizes;
      int expected = 1;
      store::fetch_text_batches(s, q, batch, [&](const store::TextRows& rows) {
        sizes.push_back(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i, ++expected) {
          CHECK(rows.at(i, 0) == std::to_string(expected));
          if (expected % 7 == 0) CHECK_FALSE(rows.at(i, 1));
          else CHECK(rows.at(i, 1) == "v" + std::to_string(expected));
        }
      });
      CHECK(expected == 26);
      std::size_t whole = 0;
      for (std::size_t n : sizes) {
        CHECK(n <= batch);
        whole += n;
      }
      CHECK(whole == 25);
      CHECK(sizes.size() == (25 + batch - 1) / batch);
      // The cursor is closed: the same read runs again in the transaction.
      store::fetch_text_batches(s, q, batch, [](const store::TextRows&) {});
      tx.commit();
    }
    // A failure in the caller's work leaves the connection ready once its transaction ends.
    {
      soci::transaction tx(s);
      CHECK_THROWS_AS(store::fetch_text_batches(s, q, 10, [](const store::TextRows&) { throw std::runtime_error("x"); }),
                      std::runtime_error);
    }
    CHECK(store::fetch_value(s, store::Sql("select 'pronta'")) == "pronta");
  });
}

TEST_CASE("fetch_text_batches: a read that fails midway throws the database's error and leaves the connection ready") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    // Row 13 divides by zero (computed as the cursor reaches it: no sort before): the FETCH
    // reading it fails, with another FETCH in flight behind it.
    const store::Sql q("select s.i::text, (100 / (13 - s.i))::text from generate_series(1, 40) s(i)");
    for (std::size_t batch : {std::size_t{1}, std::size_t{5}, std::size_t{12}}) {
      CAPTURE(batch);
      std::vector<std::string> seen;
      std::string state;
      {
        soci::transaction tx(s);
        try {
          store::fetch_text_batches(s, q, batch, [&](const store::TextRows& rows) {
            for (std::size_t i = 0; i < rows.size(); ++i) seen.emplace_back(*rows.at(i, 0));
          });
        } catch (const soci::postgresql_soci_error& e) {
          state = e.sqlstate();
        }
      }  // rolled back
      CHECK(state == "22012");
      // Some rows before the failing one, in order and by whole batches: those the worker
      // took before the failure reached the reader (a batch still waiting then is dropped).
      CHECK(seen.size() <= 12);
      CHECK(seen.size() % batch == 0);
      for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == std::to_string(i + 1));
      CHECK(store::fetch_value(s, store::Sql("select 'pronta'")) == "pronta");
    }
  });
}

TEST_CASE("fetch_ahead runs two prepared reads in one round trip, and leaves a failed second to the caller") {
  store::Pool pool(one_connection());
  pool.with([&](soci::session& s) {
    auto marked = [](const std::string& text, const std::string& value) {
      store::Sql q(text);
      q.bind(value, "int").reuse_plan();
      return q;
    };
    // now() is the transaction's start: the same for both only when they ran as one.
    const store::Sql first = marked("select now()::text || ' antes ' || ", "1");
    const store::Sql second = marked("select now()::text || ' depois ' || 10 / ", "2");
    auto when = [](const std::vector<store::Row>& rows) { return rows.at(0).at(0)->substr(0, rows.at(0).at(0)->find(" antes")); };
    auto when2 = [](const std::vector<store::Row>& rows) { return rows.at(0).at(0)->substr(0, rows.at(0).at(0)->find(" depois")); };
    // Not yet prepared on this connection: `first` alone runs, preparing itself.
    store::Ahead got = store::fetch_ahead(s, first, second);
    CHECK(got.first.at(0).at(0)->ends_with(" antes 1"));
    CHECK_FALSE(got.second.has_value());
    CHECK(store::fetch(s, second).at(0).at(0)->ends_with(" depois 5"));
    // Both prepared: both answer, in one pipeline and one implicit transaction.
    got = store::fetch_ahead(s, first, second);
    CHECK(got.first.at(0).at(0)->ends_with(" antes 1"));
    REQUIRE(got.second.has_value());
    CHECK(got.second->at(0).at(0)->ends_with(" depois 5"));
    CHECK(when(got.first) == when2(*got.second));
    CHECK(prepared_like(s, "' (antes|depois) '") == "2");
    // A second that fails (10 / 0) is not answered; the caller runs it again and gets the
    // error; the connection is ready for what comes next.
    const store::Sql failing = marked("select now()::text || ' depois ' || 10 / ", "0");
    got = store::fetch_ahead(s, first, failing);
    CHECK(got.first.at(0).at(0)->ends_with(" antes 1"));
    CHECK_FALSE(got.second.has_value());
    CHECK(store::fetch_value(s, store::Sql("select 'pronta'")) == "pronta");
    // A first that fails throws its error, run alone (unprepared yet) or in the pipeline,
    // and the connection stays ready.
    const store::Sql bad_first = marked("select now()::text || ' antes ' || 1 / ", "0");
    for (int i = 0; i < 2; ++i) {
      std::string state;
      try {
        store::fetch_ahead(s, bad_first, second);
      } catch (const soci::postgresql_soci_error& e) {
        state = e.sqlstate();
      }
      CHECK(state == "22012");
      CHECK(store::fetch_value(s, store::Sql("select 'pronta'")) == "pronta");
    }
    // Inside a transaction the two do not go together (a failed second would fail it).
    {
      soci::transaction tx(s);
      got = store::fetch_ahead(s, first, second);
      CHECK(got.first.at(0).at(0)->ends_with(" antes 1"));
      CHECK_FALSE(got.second.has_value());
      CHECK(store::fetch_value(s, store::Sql("select 'na transação'")) == "na transação");
    }
  });
}
