#include <doctest/doctest.h>

#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"

using namespace cadastre;

TEST_CASE("every errc maps to a stable code and an HTTP status") {
  CHECK(code_string(errc::route_not_found) == "rota_nao_encontrada");
  CHECK(http_status(errc::route_not_found) == 404);
  CHECK(http_status(errc::unauthenticated) == 401);
  CHECK(http_status(errc::tenant_forbidden) == 403);
  CHECK(http_status(errc::method_not_allowed) == 405);
  CHECK(http_status(errc::unavailable) == 503);
  CHECK(http_status(errc::invalid_transition) == 409);
  CHECK(code_string(errc::license_inactive) == "licenca_inativa");
  CHECK(http_status(errc::quota_exceeded) == 403);
  for (int i = 1; i <= static_cast<int>(errc::quota_exceeded); ++i) {
    auto e = static_cast<errc>(i);
    CHECK(!code_string(e).empty());
    CHECK(http_status(e) >= 400);
  }
}

TEST_CASE("JsonWriter escapes strings and separates members") {
  JsonWriter w;
  w.begin_object().key("a").value("x\"y\n\x01").key("b").begin_array().value(1).value(2.5).null().end_array();
  w.key("c").value(true).key("nan").value(std::nan("")).end_object();
  CHECK(w.str() == R"({"a":"x\"y\n\u0001","b":[1,2.5,null],"c":true,"nan":null})");
}

TEST_CASE("json_in accessors name the field in their errors") {
  simdjson::dom::parser p;
  auto o = jsonin::as_object(jsonin::parse(p, R"({"area": 300, "nome": "x", "neg": "abc"})"), "corpo");
  CHECK(jsonin::number(o, "area") == 300.0);
  CHECK(jsonin::string(o, "nome") == "x");
  try {
    jsonin::number(o, "frente");
    FAIL("expected error");
  } catch (const Error& e) {
    CHECK(e.code() == errc::missing_field);
    CHECK(e.field() == "frente");
  }
  CHECK_THROWS_AS(jsonin::number(o, "neg"), Error);
  CHECK_THROWS_AS(jsonin::parse(p, "{not json"), Error);
}
