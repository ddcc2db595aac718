// Reading the four credential forms and the base64 tenant token, without any lookup.
#include <doctest/doctest.h>

#include "gateway/credentials.hpp"

using namespace cadastre;
using namespace cadastre::gateway;

namespace {
http::Request request(std::vector<std::pair<std::string, std::string>> headers,
                      std::vector<std::pair<std::string, std::string>> query = {}) {
  http::Request r;
  r.method = "GET";
  r.path = "/rest/lote/";
  for (auto& [k, v] : headers) r.headers.add(k, v);
  r.query = std::move(query);
  return r;
}
}  // namespace

TEST_CASE("the tenant token is the base64 of the decimal id") {
  CHECK(encode_tenant_token(5) == "NQ==");
  CHECK(encode_tenant_token(12) == "MTI=");
  CHECK(decode_tenant_token("NQ==") == 5);
  CHECK(decode_tenant_token("MTI=") == 12);
  CHECK(decode_tenant_token(" MTIz ") == 123);
  CHECK(decode_tenant_token("NQ") == 5);  // padding dropped by query parsing is tolerated
}

TEST_CASE("tenant tokens that are not base64 of a positive decimal id are refused") {
  CHECK_FALSE(decode_tenant_token("").has_value());
  CHECK_FALSE(decode_tenant_token("***").has_value());
  CHECK_FALSE(decode_tenant_token("YWxmYQ==").has_value());  // "alfa"
  CHECK_FALSE(decode_tenant_token("MA==").has_value());      // "0"
  CHECK_FALSE(decode_tenant_token("LTU=").has_value());      // "-5"
  CHECK_FALSE(decode_tenant_token("OTk5OTk5OTk5OTk5OTk5OTk5OTk5").has_value());  // 21 digits
}

TEST_CASE("a bearer token is read, with an optional X-Tn-Token") {
  auto c = read_credential(request({{"Authorization", "Bearer abc"}}));
  CHECK(c.form == AuthForm::bearer);
  CHECK(c.token == "abc");
  CHECK_FALSE(c.tenant_token.has_value());
  CHECK(c.problem.empty());
  c = read_credential(request({{"authorization", "bearer abc"}, {"x-tn-token", "NQ=="}}));
  CHECK(c.tenant_token == "NQ==");
}

TEST_CASE("tenant headers need both X-Auth-Token and X-Tn-Token") {
  auto c = read_credential(request({{"X-Auth-Token", "tok"}, {"X-Tn-Token", "NQ=="}}));
  CHECK(c.form == AuthForm::tenant_headers);
  CHECK(c.token == "tok");
  CHECK(c.tenant_token == "NQ==");
  CHECK(c.problem.empty());
  c = read_credential(request({{"X-Auth-Token", "tok"}}));
  CHECK(c.form == AuthForm::tenant_headers);
  CHECK_FALSE(c.problem.empty());
}

TEST_CASE("legacy query credentials need both fields") {
  auto c = read_credential(request({}, {{"x_auth_token", "tok"}, {"x_tn_token", "NQ=="}, {"f", "json"}}));
  CHECK(c.form == AuthForm::legacy_query);
  CHECK(c.token == "tok");
  CHECK(c.tenant_token == "NQ==");
  c = read_credential(request({}, {{"x_auth_token", "tok"}}));
  CHECK_FALSE(c.problem.empty());
  CHECK(is_legacy_credential_param("x_auth_token"));
  CHECK(is_legacy_credential_param("x_tn_token"));
  CHECK_FALSE(is_legacy_credential_param("nome_tenant"));
}

TEST_CASE("the intranet form needs the JWT and nome_tenant, and wins over the other forms") {
  auto c = read_credential(request({{"X-Origin", "login_intranet"}, {"Authorization", "Bearer e.y.j"}, {"X-Auth-Token", "t"}},
                                   {{"nome_tenant", "alfa"}}));
  CHECK(c.form == AuthForm::intranet);
  CHECK(c.token == "e.y.j");
  CHECK(c.nome_tenant == "alfa");
  CHECK(c.problem.empty());
  c = read_credential(request({{"X-Origin", "login_intranet"}, {"Authorization", "Bearer e.y.j"}}));
  CHECK(c.problem == "login da intranet sem município: informe o parâmetro nome_tenant");
  c = read_credential(request({{"X-Origin", "login_intranet"}}, {{"nome_tenant", "alfa"}}));
  CHECK(c.problem == "login da intranet sem token: envie Authorization: Bearer <JWT>");
}

TEST_CASE("no credential at all is named as missing") {
  auto c = read_credential(request({{"Authorization", "Basic dXNlcjpwYXNz"}}));
  CHECK(c.form == AuthForm::none);
  CHECK(c.problem.rfind("credencial ausente", 0) == 0);
  CHECK(form_name(AuthForm::legacy_query) == "query_legado");
}
