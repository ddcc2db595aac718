// PostgreSQL array texts bound as one parameter (store/sql.hpp).
#include <doctest/doctest.h>

#include "store/sql.hpp"

using cadastre::store::id_array;
using cadastre::store::parse_id_array;
using cadastre::store::text_array;

TEST_CASE("id arrays are written as PostgreSQL's bigint[] text and read back") {
  CHECK(id_array({}) == "{}");
  CHECK(id_array({7}) == "{7}");
  CHECK(id_array({1, 22, 9007199254740993}) == "{1,22,9007199254740993}");
  CHECK(parse_id_array("{1,22,9007199254740993}") == std::vector<std::int64_t>{1, 22, 9007199254740993});
  CHECK(parse_id_array("{}").empty());
  CHECK(parse_id_array("{-3,4}") == std::vector<std::int64_t>{-3, 4});
}

TEST_CASE("text arrays quote every element and escape quotes and backslashes") {
  CHECK(text_array({}) == "{}");
  CHECK(text_array({"shp", "teste-1"}) == R"({"shp","teste-1"})");
  CHECK(text_array({"a,b", "x\"y", "c\\d", "NULL", ""}) == R"({"a,b","x\"y","c\\d","NULL",""})");
}
