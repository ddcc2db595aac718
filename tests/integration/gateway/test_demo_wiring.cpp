// The demo configuration against the real cadastre-server of the test stack: the caller's
// credential reaches cadastre-server in a form its main bearer scheme accepts.
#include <doctest/doctest.h>

#include "fixture.hpp"
#include "gateway/demo_config.hpp"

using namespace cadastre;
using test::Gateway;

TEST_CASE("with the demo configuration a call through the gateway is served by cadastre-server") {
  auto& stack = test::shared_stack();
  std::string server_url = stack.app().server().base_url();
  gateway::Config cfg = gateway::parse_config(gateway::demo_config_json(server_url, ""));
  cfg.platform_dsn = stack.platform_dsn();
  Gateway gw(cfg);
  auto cli = gw.client();
  const auto& alfa = stack.user("alfa");
  std::string tn = gateway::encode_tenant_token(test::tenant_id("alfa"));

  // Tenant headers at the gateway become the bearer token cadastre-server expects.
  auto r = cli.Get("/plataforma/rest/geo/alfa/usuarios/permissoes/", {{"X-Auth-Token", alfa.token}, {"X-Tn-Token", tn}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("X-Target-URL") == server_url + "/geo/alfa/usuarios/permissoes/");
  simdjson::dom::parser p;
  auto doc = p.parse(r->body);
  CHECK(std::string_view(doc["usuario"]["email"]) == alfa.email);

  // cadastre-server's own tenancy check still applies behind the gateway.
  auto other = cli.Get("/plataforma/rest/geo/beta/usuarios/permissoes/", test::Stack::bearer(alfa.token));
  REQUIRE(other);
  CHECK(other->status == 403);
  CHECK(test::codigo(other->body) == "municipio_nao_permitido");

  CHECK(cli.Get("/health-check/readiness")->status == 200);
  auto rest = cli.Get("/rest/health-check/", test::Stack::bearer(alfa.token));
  REQUIRE(rest);
  CHECK(rest->get_header_value("X-Target-URL") == server_url + "/alfa/health-check/");
}
