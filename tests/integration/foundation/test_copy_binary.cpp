// The binary COPY fields of store/copy_binary.hpp, read by PostgreSQL itself: each value
// copied in binary is what PostgreSQL's own input makes of the same text.
#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <soci/soci.h>

#include <string>
#include <vector>

#include "store/copy_binary.hpp"
#include "store/dsn.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"
#include "support/harness.hpp"

using namespace cadastre;
namespace binary = store::copy_binary;

namespace {

// Sends `data` as the whole of a COPY into `target`; PostgreSQL's error message, or "".
std::string copy_in(soci::session& s, const std::string& target, const std::string& data) {
  PGconn* c = store::native_connection(s);
  PGresult* r = PQexec(c, ("copy " + target + " from stdin (format binary)").c_str());
  const bool started = PQresultStatus(r) == PGRES_COPY_IN;
  PQclear(r);
  REQUIRE(started);
  REQUIRE(PQputCopyData(c, data.data(), static_cast<int>(data.size())) == 1);
  REQUIRE(PQputCopyEnd(c, nullptr) == 1);
  std::string error;
  while (PGresult* got = PQgetResult(c)) {
    if (PQresultStatus(got) != PGRES_COMMAND_OK) error = PQresultErrorMessage(got);
    PQclear(got);
  }
  return error;
}

}  // namespace

TEST_CASE("values copied in binary are what PostgreSQL's input makes of their text: numerics, dates, booleans, "
          "json and text") {
  store::PoolOptions o;
  o.dsn = store::dsn_with(test::cluster_dsn(), "dbname", "postgres");
  o.size = 1;
  store::Pool pool(o);
  // Numbers as the imports write them (integers, fmt's shortest doubles), and every case
  // of the base-10000 grouping: powers of ten across groups, a scale kept, exponents.
  const std::vector<std::string> numbers = {
      "0", "-0", "0.00", "1", "-1", "12.5", "1.50", "9999", "10000", "10001", "123456789", "-123456789.987654321",
      "0.0001", "0.00012345", "100000000", "1e+20", "1.5e-07", "5e-324", "-2.2250738585072014e-308",
      "1.7976931348623157e+308", "1.2345678901234568e+20", "3.141592653589793", "0.1", ".5", "5.", "+42",
      "9223372036854775807", "-9223372036854775808", "1000.0001", "99999999.99999999"};
  const std::vector<std::string> dates = {"2000-01-01", "1999-12-31", "2024-02-29", "1900-03-01", "0001-01-01",
                                          "9999-12-31", "1970-01-01", "2100-02-28"};
  pool.with([&](soci::session& s) {
    store::execute(s, store::Sql("create temporary table copiados (i integer, n numeric, d date, b boolean, "
                                 "j jsonb, t text)"));
    std::string data;
    binary::header(data);
    const std::size_t rows = std::max(numbers.size(), dates.size());
    for (std::size_t i = 0; i < rows; ++i) {
      binary::row(data, 6);
      const char id[] = {0, 0, 0, 4, 0, 0, 0, static_cast<char>(i)};  // an integer: length 4, then i
      data.append(id, sizeof id);
      if (i < numbers.size()) REQUIRE_MESSAGE(binary::numeric(data, numbers[i]), numbers[i]);
      else binary::null(data);
      if (i < dates.size()) REQUIRE_MESSAGE(binary::date(data, dates[i]), dates[i]);
      else binary::null(data);
      REQUIRE(binary::boolean(data, i % 2 ? "t" : "false"));
      binary::jsonb(data, R"({"n": )" + std::to_string(i) + R"(, "nome": "São José"})");
      binary::bytes(data, "linha " + std::to_string(i) + " — ação\ttab");
    }
    binary::trailer(data);
    REQUIRE(copy_in(s, "copiados", data) == "");

    for (std::size_t i = 0; i < rows; ++i) {
      const std::string row = std::to_string(i);
      store::Sql got("select coalesce(n::text, '-') || '|' || coalesce(d::text, '-') || '|' || b::text || '|' || "
                     "(j ->> 'nome') || (j ->> 'n') || '|' || t from copiados where i = " + row);
      store::Sql want("select ");
      if (i < numbers.size()) want.bind(numbers[i], "numeric") << "::text";
      else want << "'-'";
      want << " || '|' || ";
      if (i < dates.size()) want.bind(dates[i], "date") << "::text";
      else want << "'-'";
      want << " || '|' || " << (i % 2 ? "'true'" : "'false'") << " || '|São José" << row << "|linha " << row
           << " — ação' || chr(9) || 'tab'";
      CHECK(store::fetch_value(s, got) == store::fetch_value(s, want));
    }
    // The same scale as the text's: 1.50 stays 1.50, 1.5e-07 has eight decimals.
    CHECK(store::fetch_value(s, store::Sql("select string_agg(n::text, ',' order by i) from copiados "
                                           "where i in (6, 16)")) == "1.50,0.00000015");
  });
}
