// The JSON reader refuses repeated keys and NUL characters wherever they are.
#include <doctest/doctest.h>

#include <string>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"

using namespace cadastre;

namespace {

// The error jsonin::parse throws for `json` (fails the test when it accepts it).
Error refusal(std::string_view json) {
  simdjson::dom::parser p;
  try {
    jsonin::parse(p, json);
  } catch (const Error& e) {
    return e;
  }
  FAIL("accepted: " << json);
  return Error(errc::internal, "");
}

bool accepted(std::string_view json) {
  simdjson::dom::parser p;
  jsonin::parse(p, json);
  return true;
}

}  // namespace

TEST_CASE("a repeated key at the top level is refused naming the key") {
  Error e = refusal(R"({"id":"1","id":"2"})");
  CHECK(e.code() == errc::invalid_argument);
  CHECK(std::string(e.what()) == R"(chave duplicada no JSON: "id")");
  CHECK(e.field() == "id");
}

TEST_CASE("a repeated key with the same value is still refused") {
  CHECK(refusal(R"({"numero":445,"numero":445})").field() == "numero");
}

TEST_CASE("a repeated key among others is found wherever it is") {
  CHECK(refusal(R"({"b":1,"a":2,"c":3,"d":4,"a":5})").field() == "a");
}

TEST_CASE("a repeated key in a nested object is refused") {
  Error e = refusal(R"({"properties":{"nome":"x","area":1,"nome":"y"}})");
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "nome");
}

TEST_CASE("a repeated key in an object inside an array is refused") {
  CHECK(refusal(R"([{"id":1},{"id":2,"nome":"a","id":3}])").field() == "id");
  CHECK(refusal(R"({"registros":[[{"x":1,"x":1}]]})").field() == "x");
}

TEST_CASE("the same key in sibling objects and at different depths is allowed") {
  CHECK(accepted(R"([{"id":1},{"id":2}])"));
  CHECK(accepted(R"({"id":1,"filho":{"id":2,"filho":{"id":3}}})"));
  CHECK(accepted(R"({"a":{"x":1},"b":{"x":1}})"));
}

TEST_CASE("keys that differ only in case or by a prefix are different keys") {
  CHECK(accepted(R"({"id":1,"ID":2,"id_lote":3,"i":4})"));
}

TEST_CASE("a long repeated key is named shortened in the message") {
  std::string key(200, 'k');
  Error e = refusal("{\"" + key + "\":1,\"" + key + "\":2}");
  CHECK(std::string(e.what()).size() < 120);
  CHECK(e.field() == key);
}

TEST_CASE("a NUL character in a string value is refused naming the member") {
  Error e = refusal(R"({"inscricao":"12\u00003"})");
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "inscricao");
  CHECK(std::string(e.what()).find("\\u0000") != std::string::npos);
}

TEST_CASE("a NUL character is refused in nested values, arrays, keys and a bare string") {
  CHECK(refusal(R"({"a":{"b":["ok","\u0000"]}})").field() == "b");
  CHECK(refusal(R"([{"nome":"\u0000"}])").field() == "nome");
  CHECK(refusal(R"({"a\u0000b":1})").code() == errc::invalid_argument);
  CHECK(refusal(R"("\u0000")").code() == errc::invalid_argument);
}

TEST_CASE("other escapes and control characters written as escapes are accepted") {
  CHECK(accepted(R"({"texto":"linha\nnova \u0001 \u00e9 \"aspas\""})"));
}

TEST_CASE("malformed JSON is still invalid JSON") {
  CHECK(refusal("{").code() == errc::invalid_json);
}
