// The four credential forms through real HTTP: each accepted and refused, against the real
// identity store; refusals are 401 in the error shape and carry X-Target-URL.
#include <doctest/doctest.h>

#include "fixture.hpp"
#include "gateway/credentials.hpp"
#include "gateway/jwt.hpp"
#include "support/jwt_signing.hpp"

using namespace cadastre;
using test::Gateway;

namespace {
const char* kSecret = "segredo-da-intranet";

std::string intranet_jwt(const std::string& email, const std::string& tenant, std::int64_t exp_offset = 300,
                         const std::string& secret = kSecret) {
  std::string payload = R"({"email":")" + email + R"(","nome_tenant":")" + tenant +
                        R"(","exp":)" + std::to_string(gateway::unix_now() + exp_offset) + "}";
  return test::make_hs256_jwt(payload, secret);
}

httplib::Headers intranet_headers(const std::string& jwt) {
  return {{"X-Origin", "login_intranet"}, {"Authorization", "Bearer " + jwt}};
}

void check_refused(const httplib::Result& r, const std::string& target = "none") {
  REQUIRE(r);
  CHECK(r->status == 401);
  CHECK(test::codigo(r->body) == "nao_autenticado");
  CHECK(r->get_header_value("X-Target-URL") == target);
  CHECK(r->get_header_value("WWW-Authenticate") == "Bearer");
}
}  // namespace

TEST_CASE("a bearer token is accepted and the call reaches the caller's municipality") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  const auto& alfa = test::shared_stack().user("alfa");
  auto r = cli.Get("/rest/lote/", test::Stack::bearer(alfa.token));
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == R"({"ok":true})");
  CHECK(r->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/lote/");
  auto got = d.rest.last();
  CHECK(got.path == "/alfa/lote/");
  CHECK(got.header("Authorization") == "Bearer " + alfa.token);
  CHECK(got.header("X-Auth-Token") == alfa.token);
  CHECK(got.header("X-Tn-Token") == gateway::encode_tenant_token(test::tenant_id("alfa")));

  auto beta = cli.Get("/rest/lote/", test::Stack::bearer(test::shared_stack().user("beta").token));
  REQUIRE(beta);
  CHECK(beta->status == 200);
  CHECK(d.rest.last().path == "/beta/lote/");
}

TEST_CASE("a missing, unknown or malformed bearer token gets 401 and never reaches the destination") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  check_refused(cli.Get("/rest/lote/"));
  check_refused(cli.Get("/rest/lote/", test::Stack::bearer(std::string(64, 'a'))));
  check_refused(cli.Get("/rest/lote/", test::Stack::bearer("' or 1=1 --")));
  check_refused(cli.Get("/tiles/lote/1/0/0.pbf", {{"Authorization", "Basic dXNlcjpwYXNz"}}));
  CHECK(d.rest.count() == 0);
  CHECK(d.tiles.count() == 0);
}

TEST_CASE("tenant headers are accepted when X-Tn-Token is the base64 id of the token's municipality") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  const auto& alfa = test::shared_stack().user("alfa");
  auto r = cli.Get("/rest/imobiliario/7/",
                   {{"X-Auth-Token", alfa.token}, {"X-Tn-Token", gateway::encode_tenant_token(test::tenant_id("alfa"))}});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(d.rest.last().path == "/alfa/imobiliario/7/");
  CHECK(d.rest.last().header("Authorization") == "Bearer " + alfa.token);
}

TEST_CASE("tenant headers are refused without X-Tn-Token, with a bad one, or with another municipality's id") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  const auto& alfa = test::shared_stack().user("alfa");
  check_refused(cli.Get("/rest/lote/", {{"X-Auth-Token", alfa.token}}));
  // The token itself is valid: the refusal shows the address it would have reached.
  check_refused(cli.Get("/rest/lote/", {{"X-Auth-Token", alfa.token}, {"X-Tn-Token", "nao-e-base64"}}),
                d.rest.url() + "/alfa/lote/");
  check_refused(cli.Get("/rest/lote/", {{"X-Auth-Token", std::string(64, 'b')},
                                        {"X-Tn-Token", gateway::encode_tenant_token(test::tenant_id("alfa"))}}));
  // A valid token with beta's id: the caller is known, so the refusal shows alfa's address.
  auto other = cli.Get("/rest/lote/", {{"X-Auth-Token", alfa.token},
                                       {"X-Tn-Token", gateway::encode_tenant_token(test::tenant_id("beta"))}});
  check_refused(other, d.rest.url() + "/alfa/lote/");
  auto bearer_mismatch = cli.Get("/rest/lote/", {{"Authorization", "Bearer " + alfa.token},
                                                 {"X-Tn-Token", gateway::encode_tenant_token(test::tenant_id("beta"))}});
  check_refused(bearer_mismatch, d.rest.url() + "/alfa/lote/");
  CHECK(d.rest.count() == 0);
}

TEST_CASE("legacy query credentials are accepted and removed before forwarding") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  const auto& alfa = test::shared_stack().user("alfa");
  std::string tn = gateway::encode_tenant_token(test::tenant_id("alfa"));
  auto r = cli.Get("/rest/lote/?pagina=2&x_auth_token=" + alfa.token + "&x_tn_token=" + tn + "&zoom=15");
  REQUIRE(r);
  CHECK(r->status == 200);
  auto got = d.rest.last();
  CHECK(got.path == "/alfa/lote/");
  CHECK(got.target == "/alfa/lote/?pagina=2&zoom=15");
  CHECK(got.params.count("x_auth_token") == 0);
  CHECK(got.params.count("x_tn_token") == 0);
  CHECK(r->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/lote/?pagina=2&zoom=15");
  // The credential still reaches the destination, in header form.
  CHECK(got.header("X-Auth-Token") == alfa.token);
  CHECK(got.header("X-Tn-Token") == tn);
}

TEST_CASE("legacy query credentials are refused when incomplete or invalid") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  const auto& alfa = test::shared_stack().user("alfa");
  check_refused(cli.Get("/rest/lote/?x_auth_token=" + alfa.token));
  check_refused(cli.Get("/rest/lote/?x_auth_token=" + std::string(64, 'c') + "&x_tn_token=" +
                        gateway::encode_tenant_token(test::tenant_id("alfa"))));
  CHECK(d.rest.count() == 0);
}

TEST_CASE("an intranet JWT signed with the configured HS256 secret is accepted for its municipality") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.intranet.hs256_secret = kSecret;
  Gateway gw(cfg);
  auto cli = gw.client();
  std::string jwt = intranet_jwt(test::shared_stack().user("alfa").email, "alfa");
  auto r = cli.Get("/rest/lote/?nome_tenant=alfa", intranet_headers(jwt));
  REQUIRE(r);
  CHECK(r->status == 200);
  auto got = d.rest.last();
  CHECK(got.target == "/alfa/lote/?nome_tenant=alfa");
  CHECK(got.header("Authorization") == "Bearer " + jwt);
  CHECK(got.header("X-Origin") == "login_intranet");
  CHECK(got.header("X-Tn-Token") == gateway::encode_tenant_token(test::tenant_id("alfa")));
}

TEST_CASE("intranet JWTs are refused when expired, forged, of another municipality or of an unknown user") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.intranet.hs256_secret = kSecret;
  cfg.intranet.leeway = std::chrono::seconds(0);
  Gateway gw(cfg);
  auto cli = gw.client();
  std::string alfa_email = test::shared_stack().user("alfa").email;
  check_refused(cli.Get("/rest/lote/?nome_tenant=alfa", intranet_headers(intranet_jwt(alfa_email, "alfa", -10))));
  check_refused(cli.Get("/rest/lote/?nome_tenant=alfa", intranet_headers(intranet_jwt(alfa_email, "alfa", 300, "outro"))));
  check_refused(cli.Get("/rest/lote/?nome_tenant=beta", intranet_headers(intranet_jwt(alfa_email, "alfa"))));
  // The claim and the query agree, but the user belongs to alfa, not beta.
  check_refused(cli.Get("/rest/lote/?nome_tenant=beta", intranet_headers(intranet_jwt(alfa_email, "beta"))));
  check_refused(cli.Get("/rest/lote/?nome_tenant=alfa", intranet_headers(intranet_jwt("ninguem@alfa.gov.br", "alfa"))));
  check_refused(cli.Get("/rest/lote/", intranet_headers(intranet_jwt(alfa_email, "alfa"))));
  CHECK(d.rest.count() == 0);
}

TEST_CASE("an intranet JWT signed with RS256 is verified with the configured public key") {
  test::Destinations d;
  test::RsaKey key;
  auto cfg = test::config_for(d);
  cfg.intranet.rs256_public_pem = key.public_pem();
  Gateway gw(cfg);
  auto cli = gw.client();
  std::string email = test::shared_stack().user("beta").email;
  std::string payload = R"({"sub":")" + email + R"(","tenant":"beta","exp":)" + std::to_string(gateway::unix_now() + 60) + "}";
  auto ok = cli.Get("/tiles/lote/3/1/2.pbf?nome_tenant=beta", intranet_headers(key.jwt(payload)));
  REQUIRE(ok);
  CHECK(ok->status == 200);
  CHECK(d.tiles.last().path == "/tiles/beta/lote/3/1/2.pbf");
  // HS256 is not configured here: a token signed with the public key as HMAC secret fails.
  check_refused(cli.Get("/tiles/lote/3/1/2.pbf?nome_tenant=beta",
                        intranet_headers(test::make_hs256_jwt(payload, cfg.intranet.rs256_public_pem))));
}

TEST_CASE("a deactivated user keeps access only until the credential cache expires") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  const auto ttl = std::chrono::seconds(2);
  cfg.token_cache_ttl = ttl;
  Gateway gw(cfg);
  auto cli = gw.client();
  auto u = test::shared_stack().add_user("alfa", "temporario@alfa.gov.br", {"*:r"});
  auto cached_at = std::chrono::steady_clock::now();
  CHECK(cli.Get("/rest/lote/", test::Stack::bearer(u.token))->status == 200);
  test::query_value(test::shared_stack().platform_dsn(),
                    "update plataforma.usuarios set ativo = false where email = '" + u.email + "' returning id");
  auto still = cli.Get("/rest/lote/", test::Stack::bearer(u.token));
  REQUIRE(still);
  // Within the TTL the cached credential still passes; a machine that stalled past it
  // proves nothing either way, so the check is only made when the timing allows it.
  if (std::chrono::steady_clock::now() - cached_at < ttl) CHECK(still->status == 200);
  // Refused once the entry expires: polled up to a deadline far above the TTL.
  for (auto deadline = cached_at + ttl + std::chrono::seconds(10);
       std::chrono::steady_clock::now() < deadline;
       std::this_thread::sleep_for(std::chrono::milliseconds(50))) {
    auto r = cli.Get("/rest/lote/", test::Stack::bearer(u.token));
    REQUIRE(r);
    if (r->status != 200) break;
  }
  check_refused(cli.Get("/rest/lote/", test::Stack::bearer(u.token)));
}

TEST_CASE("when the identity store is down the auth breaker opens and callers get 503 at once") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.platform_dsn = "host=127.0.0.1 port=" + std::to_string(test::dead_port()) + " dbname=nada user=ninguem";
  cfg.breakers["auth"] = test::quick_breaker(60000);
  store::PoolOptions pool;
  pool.wait = std::chrono::milliseconds(200);
  pool.connect_timeout = std::chrono::seconds(1);
  Gateway gw(cfg, pool);
  auto cli = gw.client();
  std::string token(64, 'd');
  for (int i = 0; i < 4; ++i) {
    auto r = cli.Get("/rest/lote/", test::Stack::bearer(token));
    REQUIRE(r);
    CHECK(r->status == 503);
    CHECK(test::codigo(r->body) == "servico_indisponivel");
    CHECK(r->get_header_value("X-Target-URL") == "none");
  }
  auto open = cli.Get("/rest/lote/", test::Stack::bearer(token));
  REQUIRE(open);
  CHECK(open->status == 503);
  CHECK(open->body.find("circuito auth aberto") != std::string::npos);
  CHECK(open->get_header_value("Retry-After") == "5");
  CHECK(test::breaker_state(cli, "auth", gateway::identity_store_label(cfg.platform_dsn)) == "OPEN");
  CHECK(d.rest.count() == 0);
}
