#include <doctest/doctest.h>

#include "cadastre/query.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::query;

TEST_CASE("filter type parses exact, contains, icontains and nothing else") {
  CHECK(parse_filter_type("exact") == FilterType::exact);
  CHECK(parse_filter_type("contains") == FilterType::contains);
  CHECK(parse_filter_type("icontains") == FilterType::icontains);
  for (const char* bad : {"", "Exact", "like", "startswith", "exact "}) {
    CAPTURE(bad);
    expect_error([&] { parse_filter_type(bad); }, errc::invalid_argument, "type");
  }
  CHECK(to_string(FilterType::icontains) == "icontains");
  CHECK(sql_operator(FilterType::exact) == "=");
  CHECK(sql_operator(FilterType::contains) == "LIKE");
  CHECK(sql_operator(FilterType::icontains) == "ILIKE");
}

TEST_CASE("LIKE patterns escape percent, underscore and backslash") {
  CHECK(escape_like("foo_bar") == "foo\\_bar");
  CHECK(escape_like("100%") == "100\\%");
  CHECK(escape_like("a\\b") == "a\\\\b");
  CHECK(escape_like("São João") == "São João");
  CHECK(like_pattern(FilterType::contains, "foo_bar") == "%foo\\_bar%");
  CHECK(like_pattern(FilterType::icontains, "50%_\\") == "%50\\%\\_\\\\%");
  CHECK(like_pattern(FilterType::contains, "") == "%%");
  CHECK(like_pattern(FilterType::exact, "foo_bar%") == "foo_bar%");
}

TEST_CASE("every non-reserved parameter is a field filter with the request's type") {
  QueryParams p{{"page", "2"},           {"bairro", "Centro"}, {"type", "icontains"},
                {"limit", "5"},          {"nome", "rua_1"},    {"sort", "-nome"},
                {"minLongitude", "-47"}, {"format", "geojson"}};
  auto f = parse_filters(p);
  REQUIRE(f.size() == 2);
  CHECK(f[0] == Filter{"bairro", FilterType::icontains, "Centro"});
  CHECK(f[1] == Filter{"nome", FilterType::icontains, "rua_1"});

  auto exact = parse_filters({{"inscricao_cartografica", "01.02.003"}});
  REQUIRE(exact.size() == 1);
  CHECK(exact[0].type == FilterType::exact);
  CHECK(parse_filters({{"page", "1"}}).empty());
}

TEST_CASE("reserved parameter list") {
  for (auto k : {"page", "limit", "page_size", "offset", "type", "sort", "order", "minLongitude",
                 "minLatitude", "maxLongitude", "maxLatitude", "format", "pageNumber", "pageSize",
                 "orderBy", "direction"}) {
    CAPTURE(k);
    CHECK(is_reserved(k));
  }
  CHECK_FALSE(is_reserved("Page"));
  CHECK_FALSE(is_reserved("bairro"));
}

TEST_CASE("filter errors: bad field names, repeated fields, unknown type") {
  expect_error([] { parse_filters({{"nome;--", "x"}}); }, errc::invalid_identifier, "nome;--");
  expect_error([] { parse_filters({{"a.b", "x"}}); }, errc::invalid_identifier, "a.b");
  expect_error([] { parse_filters({{"", "x"}}); }, errc::invalid_identifier, "");
  expect_error(
      [] {
        parse_filters({{"nome", "a"}, {"nome", "b"}});
      },
      errc::invalid_argument, "nome");
  expect_error(
      [] {
        parse_filters({{"nome", "a"}, {"type", "regex"}});
      },
      errc::invalid_argument, "type");
  expect_error(
      [] {
        parse_filters({{"type", "exact"}, {"type", "contains"}});
      },
      errc::invalid_argument, "type");
}

TEST_CASE("sort by one or several keys, with '-' or order") {
  CHECK(parse_sort({}).empty());
  CHECK(parse_sort({{"sort", "nome"}}) == std::vector<Sort>{{"nome", false}});
  CHECK(parse_sort({{"sort", "-nome"}}) == std::vector<Sort>{{"nome", true}});
  CHECK(parse_sort({{"sort", "nome"}, {"order", "desc"}}) == std::vector<Sort>{{"nome", true}});
  CHECK(parse_sort({{"sort", "nome"}, {"order", "ASC"}}) == std::vector<Sort>{{"nome", false}});
  CHECK(parse_sort({{"orderBy", "id"}, {"direction", "DESC"}}) == std::vector<Sort>{{"id", true}});
  CHECK(parse_sort({{"sort", "bairro,-area"}}) ==
        std::vector<Sort>{{"bairro", false}, {"area", true}});
}

TEST_CASE("sort errors") {
  expect_error(
      [] {
        parse_sort({{"sort", "nome"}, {"order", "up"}});
      },
      errc::invalid_argument, "order");
  expect_error(
      [] {
        parse_sort({{"sort", "nome"}, {"direction", ""}});
      },
      errc::invalid_argument, "direction");
  expect_error([] { parse_sort({{"order", "asc"}}); }, errc::invalid_argument, "order");
  expect_error(
      [] {
        parse_sort({{"sort", "-nome"}, {"order", "asc"}});
      },
      errc::invalid_argument, "order");
  expect_error(
      [] {
        parse_sort({{"sort", "a,b"}, {"order", "desc"}});
      },
      errc::invalid_argument, "order");
  expect_error([] { parse_sort({{"sort", ""}}); }, errc::invalid_argument, "sort");
  expect_error([] { parse_sort({{"sort", "a,"}}); }, errc::invalid_argument, "sort");
  expect_error([] { parse_sort({{"sort", "-"}}); }, errc::invalid_argument, "sort");
  expect_error([] { parse_sort({{"sort", "nome desc"}}); }, errc::invalid_identifier, "sort");
  expect_error(
      [] {
        parse_sort({{"sort", "a"}, {"orderBy", "b"}});
      },
      errc::invalid_argument, "orderBy");
}

TEST_CASE("bounding box: all four coordinates or none, in range and ordered") {
  CHECK_FALSE(parse_bbox({}).has_value());
  auto b = parse_bbox({{"minLongitude", "-46.7"},
                       {"minLatitude", "-23.6"},
                       {"maxLongitude", "-46.6"},
                       {"maxLatitude", "-23.5"}});
  REQUIRE(b.has_value());
  CHECK(*b == BBox{-46.7, -23.6, -46.6, -23.5});
  expect_error(
      [] {
        parse_bbox(
            {{"minLongitude", "-46.7"}, {"minLatitude", "-23.6"}, {"maxLongitude", "-46.6"}});
      },
      errc::invalid_argument, "maxLatitude");
  QueryParams bad{{"minLongitude", "abc"},
                  {"minLatitude", "-23.6"},
                  {"maxLongitude", "-46.6"},
                  {"maxLatitude", "-23.5"}};
  expect_error([&] { parse_bbox(bad); }, errc::invalid_argument, "minLongitude");
  bad[0].second = "-181";
  expect_error([&] { parse_bbox(bad); }, errc::invalid_argument, "minLongitude");
  bad[0].second = "nan";
  expect_error([&] { parse_bbox(bad); }, errc::invalid_argument, "minLongitude");
  bad[0].second = "-46.5";  // greater than maxLongitude
  expect_error([&] { parse_bbox(bad); }, errc::invalid_argument, "minLongitude");
  bad[0].second = "-46.7";
  bad[3].second = "91";
  expect_error([&] { parse_bbox(bad); }, errc::invalid_argument, "maxLatitude");
  bad[3].second = "-23.5";
  bad.emplace_back("minLatitude", "-23.7");  // the same coordinate twice
  expect_error([&] { parse_bbox(bad); }, errc::invalid_argument, "minLatitude");
}

TEST_CASE("parse_list_query combines paging, filters, sort, bbox and format") {
  auto q = parse_list_query({{"page", "2"},
                             {"page_size", "20"},
                             {"bairro", "Centro"},
                             {"sort", "-id"},
                             {"format", "csv"}});
  CHECK(q.paging == Paging{2, 20, 20});
  REQUIRE(q.filters.size() == 1);
  CHECK(q.filters[0].field == "bairro");
  CHECK(q.sort == std::vector<Sort>{{"id", true}});
  CHECK_FALSE(q.bbox.has_value());
  CHECK(q.format == std::optional<std::string>("csv"));
}
