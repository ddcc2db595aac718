// Main bearer auth and tenancy through HTTP: the 401/403 matrix.
#include <doctest/doctest.h>
#include <simdjson.h>

#include "support/harness.hpp"

using namespace cadastre;
using test::Stack;

namespace {
const char* kPerms = "/geo/alfa/usuarios/permissoes/";

std::string codigo(const std::string& body) {
  simdjson::dom::parser p;
  auto doc = p.parse(body);
  std::string_view c = doc["codigo"].get_string().value();
  return std::string(c);
}
}  // namespace

TEST_CASE("a route on the main bearer scheme refuses missing, malformed and unknown tokens with 401") {
  Stack stack;
  auto cli = stack.client();

  auto missing = cli.Get(kPerms);
  REQUIRE(missing);
  CHECK(missing->status == 401);
  CHECK(codigo(missing->body) == "nao_autenticado");
  CHECK(missing->get_header_value("WWW-Authenticate") == "Bearer");

  auto basic = cli.Get(kPerms, {{"Authorization", "Basic dXNlcjpwYXNz"}});
  CHECK(basic->status == 401);

  auto wrong = cli.Get(kPerms, Stack::bearer(std::string(64, 'a')));
  CHECK(wrong->status == 401);
  CHECK(codigo(wrong->body) == "nao_autenticado");

  auto garbage = cli.Get(kPerms, Stack::bearer("' or 1=1 --"));
  CHECK(garbage->status == 401);
}

TEST_CASE("a valid token of another tenant, or an unknown tenant, gets 403") {
  Stack stack;
  auto cli = stack.client();
  auto other = cli.Get(kPerms, Stack::bearer(stack.user("beta").token));
  REQUIRE(other);
  CHECK(other->status == 403);
  CHECK(codigo(other->body) == "municipio_nao_permitido");

  auto unknown = cli.Get("/geo/zeta/usuarios/permissoes/", Stack::bearer(stack.user("alfa").token));
  CHECK(unknown->status == 403);
  CHECK(codigo(unknown->body) == "municipio_nao_permitido");

  auto hostile = cli.Get("/geo/alfa'%3B--/usuarios/permissoes/", Stack::bearer(stack.user("alfa").token));
  CHECK(hostile->status == 403);
}

TEST_CASE("permissoes returns the caller, the tenant and effective per-layer permissions") {
  Stack stack;
  auto reader = stack.add_user("alfa", "leitor@alfa.gov.br", {"lote:r", "edificacao:rw"});
  auto cli = stack.client();

  auto res = cli.Get(kPerms, Stack::bearer(reader.token));
  REQUIRE(res);
  REQUIRE(res->status == 200);
  simdjson::dom::parser p;
  auto doc = p.parse(res->body);
  CHECK(std::string_view(doc["usuario"]["email"]) == "leitor@alfa.gov.br");
  CHECK(std::string_view(doc["municipio"]["slug"]) == "alfa");
  std::map<std::string, std::pair<bool, bool>> layers;
  for (auto l : doc["camadas"].get_array()) {
    layers[std::string(std::string_view(l["camada"]))] = {bool(l["leitura"]), bool(l["escrita"])};
  }
  REQUIRE(layers.count("lote"));
  CHECK(layers["lote"] == std::pair{true, false});
  CHECK(layers["edificacao"] == std::pair{true, true});
  CHECK(layers["pessoa"] == std::pair{false, false});  // no rule and no '*' default
  CHECK(layers.count("imobiliario"));
}

TEST_CASE("a deactivated user is refused once the token cache expires") {
  server::AppOptions o;
  o.token_ttl = std::chrono::milliseconds(50);
  Stack stack({"alfa"}, o);
  auto cli = stack.client();
  const auto& u = stack.user("alfa");
  CHECK(cli.Get(kPerms, Stack::bearer(u.token))->status == 200);
  test::query_value(stack.platform_dsn(), "update plataforma.usuarios set ativo = false where email = '" + u.email +
                                              "' returning id");
  // Refused once the cache entry expires: polled up to a deadline far above the TTL, so a
  // slow machine delays the refusal instead of failing the test.
  int status = 0;
  for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       std::chrono::steady_clock::now() < deadline;
       std::this_thread::sleep_for(std::chrono::milliseconds(20))) {
    auto r = cli.Get(kPerms, Stack::bearer(u.token));
    REQUIRE(r);
    status = r->status;
    if (status != 200) break;
  }
  CHECK(status == 401);
}

TEST_CASE("a re-issued token replaces the old one") {
  server::AppOptions o;
  o.token_ttl = std::chrono::milliseconds(0);
  Stack stack({"alfa"}, o);
  auto old_token = stack.user("alfa").token;
  auto fresh = stack.add_user("alfa", stack.user("alfa").email, {"*:rw"});
  auto cli = stack.client();
  CHECK(cli.Get(kPerms, Stack::bearer(old_token))->status == 401);
  CHECK(cli.Get(kPerms, Stack::bearer(fresh.token))->status == 200);
}

TEST_CASE("tokens are stored only as SHA-256 hashes") {
  Stack stack({"alfa"});
  const auto& u = stack.user("alfa");
  auto stored = test::query_value(stack.platform_dsn(),
                                  "select s.token_hash from plataforma.sessoes s join plataforma.usuarios u on u.id = s.usuario_id "
                                  "where s.revogada_em is null and u.email = '" + u.email + "'");
  CHECK(stored.size() == 64);
  CHECK(stored != u.token);
  auto pw = test::query_value(stack.platform_dsn(), "select senha_hash from plataforma.usuarios where email = '" + u.email + "'");
  CHECK(pw.rfind("$argon2id$", 0) == 0);
}
