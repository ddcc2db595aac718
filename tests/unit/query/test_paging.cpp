#include <doctest/doctest.h>

#include <limits>

#include "cadastre/query.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::query;

namespace {
Paging paging(QueryParams p) { return normalize_paging(p); }
}  // namespace

TEST_CASE("no paging parameters gives page 1 of the default size") {
  CHECK(paging({}) == Paging{1, 10, 0});
  CHECK(paging({{"nome", "x"}}) == Paging{1, 10, 0});
}

TEST_CASE("page with limit, page_size or the platform's pageNumber/pageSize") {
  CHECK(paging({{"page", "3"}, {"limit", "20"}}) == Paging{3, 20, 40});
  CHECK(paging({{"page", "2"}, {"page_size", "50"}}) == Paging{2, 50, 50});
  CHECK(paging({{"pageNumber", "4"}, {"pageSize", "25"}}) == Paging{4, 25, 75});
  CHECK(paging({{"page", "5"}}) == Paging{5, 10, 40});
  CHECK(paging({{"limit", "7"}}) == Paging{1, 7, 0});
}

TEST_CASE("offset with limit keeps the offset exact, even off a page boundary") {
  CHECK(paging({{"offset", "40"}, {"limit", "20"}}) == Paging{3, 20, 40});
  CHECK(paging({{"offset", "45"}, {"limit", "20"}}) == Paging{3, 20, 45});
  CHECK(paging({{"offset", "0"}}) == Paging{1, 10, 0});
  CHECK(paging({{"offset", "9"}}) == Paging{1, 10, 9});
  CHECK(paging({{"offset", "10"}, {"page_size", "10"}}) == Paging{2, 10, 10});
}

TEST_CASE("page size limits: 1 to 1000, larger is an error, not clamped") {
  CHECK(paging({{"limit", "1000"}}).size == 1000);
  CHECK(paging({{"limit", "1"}}).size == 1);
  expect_error([] { paging({{"limit", "1001"}}); }, errc::invalid_argument, "limit");
  expect_error([] { paging({{"page_size", "5000"}}); }, errc::invalid_argument, "page_size");
  expect_error(
      [] {
        paging({{"pageSize", "99999999999999999999999"}});
      },
      errc::invalid_argument, "pageSize");
  expect_error([] { paging({{"limit", "0"}}); }, errc::invalid_argument, "limit");
}

TEST_CASE("page 0 and negative values are errors naming the parameter") {
  expect_error([] { paging({{"page", "0"}}); }, errc::invalid_argument, "page");
  expect_error([] { paging({{"page", "-1"}}); }, errc::invalid_argument, "page");
  expect_error([] { paging({{"offset", "-10"}}); }, errc::invalid_argument, "offset");
  expect_error([] { paging({{"limit", "-5"}}); }, errc::invalid_argument, "limit");
}

TEST_CASE("non-numeric paging values are errors") {
  for (const char* bad : {"10abc", "", "1e3", " 10", "10 ", "+10", "1.0", "0x10", "abc", "１０"}) {
    CAPTURE(bad);
    expect_error([&] { paging({{"limit", bad}}); }, errc::invalid_argument, "limit");
    expect_error([&] { paging({{"page", bad}}); }, errc::invalid_argument, "page");
    expect_error([&] { paging({{"offset", bad}}); }, errc::invalid_argument, "offset");
  }
}

TEST_CASE("ambiguous paging parameters are errors") {
  expect_error([] { paging({{"page", "1"}, {"page", "2"}}); }, errc::invalid_argument, "page");
  expect_error(
      [] {
        paging({{"limit", "10"}, {"page_size", "10"}});
      },
      errc::invalid_argument, "page_size");
  expect_error(
      [] {
        paging({{"page", "1"}, {"pageNumber", "1"}});
      },
      errc::invalid_argument, "pageNumber");
  expect_error([] { paging({{"page", "2"}, {"offset", "10"}}); }, errc::invalid_argument, "offset");
}

TEST_CASE("huge page numbers cannot overflow the offset") {
  constexpr auto max = std::numeric_limits<std::int64_t>::max();
  CHECK(paging({{"page", std::to_string(max / 1000)}, {"limit", "1000"}}).offset ==
        (max / 1000 - 1) * 1000);
  expect_error(
      [] {
        paging({{"page", std::to_string(max / 1000 + 1)}, {"limit", "1000"}});
      },
      errc::invalid_argument, "page");
  expect_error([] { paging({{"offset", std::to_string(max)}}); }, errc::invalid_argument, "offset");
}

TEST_CASE("parse_integer reads path segments with bounds") {
  CHECK(parse_integer("007", "limite", 0, 100) == 7);
  CHECK(parse_integer("0", "offset", 0, 100) == 0);
  expect_error([] { parse_integer("101", "limite", 0, 100); }, errc::invalid_argument, "limite");
  expect_error([] { parse_integer("4", "limite", 5, 100); }, errc::invalid_argument, "limite");
  expect_error(
      [] {
        parse_integer("9223372036854775808", "x", 0, std::numeric_limits<std::int64_t>::max());
      },
      errc::invalid_argument, "x");
}
