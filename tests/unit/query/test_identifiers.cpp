#include <doctest/doctest.h>

#include <string>

#include "cadastre/query.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::query;

TEST_CASE("valid identifiers: ASCII letters, digits, underscore, not starting with a digit") {
  for (const char* ok : {"lote", "face_quadra", "_tmp", "A1", "Lote_2024", "x"}) {
    CAPTURE(ok);
    CHECK(is_valid_identifier(ok));
  }
  CHECK(is_valid_identifier(std::string(63, 'a')));
}

TEST_CASE("invalid identifiers: quotes, injection, dots, spaces, NUL, length, unicode") {
  using namespace std::string_literals;
  for (const std::string& bad :
       {""s, "1lote"s, "lo\"te"s, "lo'te"s, "lote;--"s, "x; drop table lote;--"s,
        "pg_catalog.pg_authid"s, "face quadra"s, "lote\0x"s, "lote-2"s, "situação"s, "ção"s,
        "lote\n"s, std::string(64, 'a'), "`x`"s, "a$b"s}) {
    CAPTURE(bad);
    CHECK_FALSE(is_valid_identifier(bad));
    expect_error([&] { check_identifier(bad, "camada"); }, errc::invalid_identifier, "camada");
  }
  CHECK_NOTHROW(check_identifier("lote", "camada"));
}

TEST_CASE("quote_identifier doubles embedded quotes and rejects what PostgreSQL would mangle") {
  using namespace std::string_literals;
  CHECK(quote_identifier("lote") == "\"lote\"");
  CHECK(quote_identifier("a\"b") == "\"a\"\"b\"");
  CHECK(quote_identifier("\"") == "\"\"\"\"");
  CHECK(quote_identifier("pg_catalog.pg_authid") == "\"pg_catalog.pg_authid\"");
  CHECK(quote_identifier("x\"; drop table t;--") == "\"x\"\"; drop table t;--\"");
  CHECK(quote_identifier("situação") == "\"situação\"");
  CHECK(quote_identifier(std::string(63, 'a')) == "\"" + std::string(63, 'a') + "\"");
  expect_error([] { quote_identifier(""); }, errc::invalid_identifier, "identificador");
  expect_error([] { quote_identifier("a\0b"s); }, errc::invalid_identifier, "identificador");
  expect_error([] { quote_identifier(std::string(64, 'a')); }, errc::invalid_identifier,
               "identificador");
  CHECK(quote_qualified("cadastro", "lote") == "\"cadastro\".\"lote\"");
}
