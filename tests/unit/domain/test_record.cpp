#include <doctest/doctest.h>

#include <string>

#include "cadastre/domain.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::domain;

TEST_CASE("create reads id, codigo and descricao when id equals codigo") {
  auto r = Record::from_json_for_create(
      R"({"id": "R1-N", "codigo": "R1-N", "descricao": "Residência normal"})");
  CHECK(r.id == "R1-N");
  CHECK(r.codigo == "R1-N");
  CHECK(r.descricao == "Residência normal");
  CHECK(r.extra.empty());
}

TEST_CASE("integer id and codigo are read as their decimal text") {
  auto r = Record::from_json_for_create(R"({"id": 7, "codigo": "7", "descricao": "Sete"})");
  CHECK(r.id == "7");
  CHECK(r.codigo == "7");
  expect_error(
      [] { Record::from_json_for_create(R"({"id": 7.5, "codigo": "7.5", "descricao": "x"})"); },
      errc::invalid_argument, "id");
}

TEST_CASE("create rejects id different from codigo, naming codigo") {
  try {
    Record::from_json_for_create(R"({"id": "a", "codigo": "b", "descricao": "x"})");
    FAIL("esperava erro");
  } catch (const Error& e) {
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "codigo");
    CHECK(std::string(e.what()).find("id e codigo devem ser iguais") != std::string::npos);
  }
  // "1" and 1 are equal text; "01" and 1 are not.
  expect_error(
      [] { Record::from_json_for_create(R"({"id": 1, "codigo": "01", "descricao": "x"})"); },
      errc::invalid_argument, "codigo");
}

TEST_CASE("create requires id, codigo and descricao") {
  expect_error([] { Record::from_json_for_create(R"({"codigo": "a", "descricao": "x"})"); },
               errc::missing_field, "id");
  expect_error([] { Record::from_json_for_create(R"({"id": "a", "descricao": "x"})"); },
               errc::missing_field, "codigo");
  expect_error([] { Record::from_json_for_create(R"({"id": "a", "codigo": "a"})"); },
               errc::missing_field, "descricao");
  expect_error(
      [] { Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": null})"); },
      errc::missing_field, "descricao");
}

TEST_CASE("descricao must be non-blank and at most 500 characters (not bytes)") {
  expect_error(
      [] { Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": ""})"); },
      errc::invalid_argument, "descricao");
  expect_error(
      [] { Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": "   "})"); },
      errc::invalid_argument, "descricao");
  expect_error(
      [] { Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": 5})"); },
      errc::invalid_argument, "descricao");
  std::string ok(500, 'x');
  CHECK(Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": ")" + ok + "\"}")
            .descricao == ok);
  std::string accents;
  for (int i = 0; i < 500; ++i) accents += "ç";  // 500 characters, 1000 bytes
  CHECK(
      Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": ")" + accents + "\"}")
          .descricao.size() == 1000);
  std::string too_long(501, 'x');
  expect_error(
      [&] {
        Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": ")" + too_long +
                                     "\"}");
      },
      errc::invalid_argument, "descricao");
  expect_error(
      [] {
        Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": "a\u0000b"})");
      },
      errc::invalid_argument, "descricao");
}

TEST_CASE("codes must be non-empty, short, without control characters or edge spaces") {
  expect_error(
      [] { Record::from_json_for_create(R"({"id": "", "codigo": "", "descricao": "x"})"); },
      errc::invalid_argument, "id");
  expect_error(
      [] { Record::from_json_for_create(R"({"id": " a", "codigo": " a", "descricao": "x"})"); },
      errc::invalid_argument, "id");
  expect_error(
      [] { Record::from_json_for_create(R"({"id": "a\n", "codigo": "a\n", "descricao": "x"})"); },
      errc::invalid_argument, "id");
  std::string long_code(101, 'c');
  expect_error(
      [&] {
        Record::from_json_for_create("{\"id\": \"" + long_code + "\", \"codigo\": \"" + long_code +
                                     "\", \"descricao\": \"x\"}");
      },
      errc::invalid_argument, "id");
}

TEST_CASE("invalid JSON and non-object bodies") {
  expect_error([] { Record::from_json_for_create("{"); }, errc::invalid_json, "");
  expect_error([] { Record::from_json_for_create("[1]"); }, errc::invalid_argument, "corpo");
}

TEST_CASE("extra columns are kept as scalars in body order; nested values are rejected") {
  auto r = Record::from_json_for_create(
      R"({"id": "plano", "fator": 1.0, "codigo": "plano", "descricao": "Plano", "ativo": true, "ordem": 3, "obs": null, "sigla": "PL"})");
  REQUIRE(r.extra.size() == 5);
  CHECK(r.extra[0].first == "fator");
  CHECK(std::get<double>(r.extra[0].second) == 1.0);
  CHECK(std::get<bool>(r.extra[1].second) == true);
  CHECK(std::get<std::int64_t>(r.extra[2].second) == 3);
  CHECK(std::holds_alternative<std::monostate>(r.extra[3].second));
  CHECK(std::get<std::string>(r.extra[4].second) == "PL");
  expect_error(
      [] {
        Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": "x", "f": [1]})");
      },
      errc::invalid_argument, "f");
  expect_error(
      [] {
        Record::from_json_for_create(R"({"id": "a", "codigo": "a", "descricao": "x", "f;--": 1})");
      },
      errc::invalid_identifier, "f;--");
}

TEST_CASE("update keeps the key of the route and only changes descricao and extras") {
  auto r = Record::from_json_for_update(R"({"descricao": "Novo texto", "fator": 0.9})", "plano");
  CHECK(r.id == "plano");
  CHECK(r.codigo == "plano");
  CHECK(r.descricao == "Novo texto");
  REQUIRE(r.extra.size() == 1);
  // id and codigo may be repeated in the body when they equal the route id.
  auto same = Record::from_json_for_update(
      R"({"id": "plano", "codigo": "plano", "descricao": "x"})", "plano");
  CHECK(same.id == "plano");
  CHECK(Record::from_json_for_update(R"({"id": 5, "descricao": "x"})", "5").id == "5");
}

TEST_CASE("update rejects a changed id or codigo and a missing descricao") {
  expect_error(
      [] { Record::from_json_for_update(R"({"id": "outro", "descricao": "x"})", "plano"); },
      errc::invalid_argument, "id");
  try {
    Record::from_json_for_update(R"({"codigo": "outro", "descricao": "x"})", "plano");
    FAIL("esperava erro");
  } catch (const Error& e) {
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "codigo");
    CHECK(std::string(e.what()).find("id e codigo devem ser iguais") != std::string::npos);
  }
  expect_error([] { Record::from_json_for_update(R"({"codigo": "plano"})", "plano"); },
               errc::missing_field, "descricao");
  expect_error([] { Record::from_json_for_update(R"({"descricao": "x"})", ""); },
               errc::invalid_argument, "id");
}

TEST_CASE("to_json writes id, codigo, descricao and extras, and reads back") {
  Record r{"esquina",
           "esquina",
           "Esquina \"dupla\"",
           {{"fator", 1.1}, {"obs", std::monostate{}}, {"n", std::int64_t{2}}}};
  CHECK(
      r.to_json() ==
      R"({"id":"esquina","codigo":"esquina","descricao":"Esquina \"dupla\"","fator":1.1,"obs":null,"n":2})");
  CHECK(Record::from_json_for_create(r.to_json()) == r);
}

TEST_CASE("validate checks records built in C++") {
  Record r{"a", "b", "x", {}};
  expect_error([&] { r.validate(); }, errc::invalid_argument, "codigo");
  r = Record{"a", "a", "x", {}};  // (assigning a literal trips GCC 12 bug 105329, -Wrestrict)
  CHECK_NOTHROW(r.validate());
  r.extra = {{"descricao", std::string("y")}};
  expect_error([&] { r.validate(); }, errc::invalid_argument, "descricao");
  r.extra = {{"f", 1.0}, {"f", 2.0}};
  expect_error([&] { r.validate(); }, errc::invalid_argument, "f");
}

TEST_CASE("domain table names follow the identifier rules") {
  CHECK(is_valid_table_name("topografia"));
  CHECK(is_valid_table_name("padrao_construtivo"));
  CHECK_FALSE(is_valid_table_name("dominio.topografia"));
  CHECK_FALSE(is_valid_table_name("topografia;--"));
  CHECK_FALSE(is_valid_table_name(""));
  CHECK_FALSE(is_valid_table_name(std::string(64, 't')));
  CHECK_FALSE(is_valid_table_name("situação"));
  CHECK_NOTHROW(check_table_name("uso"));
  expect_error([] { check_table_name("\"uso\""); }, errc::invalid_identifier, "campo");
}
