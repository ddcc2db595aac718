// The route table's parameter declarations hold every request the same way.
#include <doctest/doctest.h>

#include <string>

#include "http/params.hpp"
#include "http/server.hpp"

using namespace cadastre;
using http::Param;
using http::Request;
using http::Route;

namespace {

Route route(std::vector<Param> params) {
  Route r;
  r.method = "GET";
  r.pattern = "/{municipio}/{camada}/";
  r.params = std::move(params);
  return r;
}

const Route kList =
    route({{"page", "query", "integer", false, ""},
           {"minLongitude", "query", "number", false, ""},
           {"ativo", "query", "boolean", false, ""},
           {"type", "query", "string", false, "", {"exact", "contains", "icontains"}},
           {"campos", "query", "object", false, "filtros campo=valor"}});
const Route kStrict =
    route({{"page", "query", "integer", false, ""}, {"nome", "query", "string", false, ""}});

Request request(std::vector<std::pair<std::string, std::string>> query) {
  Request r;
  r.method = "GET";
  r.params = {{"municipio", "alfa"}, {"camada", "lote"}};
  r.query = std::move(query);
  return r;
}

// The error validate_params throws (fails the test when the request passes).
Error refusal(const Route& route, const Request& req) {
  try {
    http::validate_params(route, req);
  } catch (const Error& e) {
    return e;
  }
  FAIL("accepted");
  return Error(errc::internal, "");
}

bool passes(const Route& route, const Request& req) {
  http::validate_params(route, req);
  return true;
}

}  // namespace

TEST_CASE("declared parameters of the right type pass") {
  CHECK(passes(kStrict, request({{"page", "2"}, {"nome", "Rua A"}})));
  CHECK(passes(kList, request({{"page", "-1"},
                               {"minLongitude", "-47.06"},
                               {"ativo", "false"},
                               {"type", "icontains"}})));
  CHECK(passes(kStrict, request({})));
}

TEST_CASE("an undeclared query parameter is refused naming it") {
  Error e = refusal(kStrict, request({{"page", "1"}, {"pagina", "2"}}));
  CHECK(e.code() == errc::unknown_field);
  CHECK(e.field() == "pagina");
  CHECK(std::string(e.what()) == "parâmetro desconhecido: 'pagina'");
}

TEST_CASE("free-form fields let undeclared keys through, still checking the declared ones") {
  CHECK(passes(kList, request({{"inscricao", "01.02"}, {"bairro_id", "x"}})));
  CHECK(refusal(kList, request({{"inscricao", "1"}, {"page", "um"}})).field() == "page");
}

TEST_CASE("integer, number and boolean parameters must parse") {
  for (const char* bad : {"", "abc", "1.5", "1e3", " 1", "+1", "99999999999999999999"})
    CHECK_MESSAGE(refusal(kStrict, request({{"page", bad}})).field() == "page", bad);
  for (const char* bad : {"abc", "nan", "inf", "1,5", "-", "0x10"})
    CHECK_MESSAGE(refusal(kList, request({{"minLongitude", bad}})).field() == "minLongitude", bad);
  CHECK(passes(kList, request({{"minLongitude", "1e-3"}})));
  Error e = refusal(kList, request({{"ativo", "sim"}}));
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "ativo");
}

TEST_CASE("a parameter with declared values takes only those") {
  Error e = refusal(kList, request({{"type", "zzz"}}));
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "type");
  CHECK(std::string(e.what()).find("exact, contains, icontains") != std::string::npos);
  CHECK(refusal(kList, request({{"type", "Exact"}})).field() == "type");
}

TEST_CASE("a declared parameter given twice is refused") {
  Error e = refusal(kStrict, request({{"page", "1"}, {"nome", "a"}, {"page", "1"}}));
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "page");
}

TEST_CASE("a NUL character in a query value, a query key or a path parameter is refused") {
  Error value =
      refusal(kList, request({{"inscricao", std::string("\0", 1)}, {"type", "icontains"}}));
  CHECK(value.code() == errc::invalid_argument);
  CHECK(value.field() == "inscricao");
  CHECK(refusal(kList, request({{std::string("a\0b", 3), "1"}})).code() == errc::invalid_argument);
  CHECK(refusal(kStrict, request({{"nome", std::string("Rua\0", 4)}})).field() == "nome");
  Request path = request({});
  path.params["camada"] = std::string("lote\0x", 6);
  Error e = refusal(kStrict, path);
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "camada");
}

TEST_CASE("a long or unprintable parameter name is quoted shortened and safe in the message") {
  std::string name(100, 'x');
  name[0] = '\n';
  std::string message = refusal(kStrict, request({{name, "1"}})).what();
  CHECK(message.find('\n') == std::string::npos);
  CHECK(message.size() < 100);
}

TEST_CASE(
    "the OpenAPI document shows declared values as an enum and free-form fields as an exploded "
    "object") {
  http::Server server({"teste", "1", "", "/openapi.json", "teste"}, {});
  auto r = kList;
  r.auth = "none";
  r.handler = [](Request&) { return http::Response::no_content(); };
  server.add(r);
  std::string doc = server.openapi();
  CHECK(doc.find(R"("enum":["exact","contains","icontains"])") != std::string::npos);
  CHECK(
      doc.find(
          R"("schema":{"type":"object","additionalProperties":{"type":"string"}},"style":"form","explode":true)") !=
      std::string::npos);
}
