// Sessions and logins: the login answer, several sessions per user, logout and expiry,
// throttling without user enumeration, one login for the whole system (cadastre-server and
// the gateway accept the session), and the auth failures of a protected route.
#include <set>
#include <thread>

#include "fixture.hpp"
#include "gateway/app.hpp"
#include "gateway/config.hpp"
#include "gateway/demo_config.hpp"
#include "support/jwt_signing.hpp"
#include "support/slapd.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::Session;

namespace {

std::set<std::string> keys(simdjson::dom::element e) {
  std::set<std::string> out;
  for (auto [k, v] : e.get_object()) out.insert(std::string(k));
  return out;
}

std::string sha256_of(const PlatformFixture& f, const std::string& token) {
  return f.platform_db("select encode(sha256('" + token + "'::bytea), 'hex')");
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "the login answer has exactly the spec's fields and stores only the token's hash") {
  const auto& u = stack->user("alfa");
  auto a = try_login(u.email, u.password, {{"User-Agent", "teste/1.0"}});
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(keys(a->json()) == std::set<std::string>{"statusLicenca", "authToken", "tnToken", "usuarioPublico",
                                                 "idEmpresa", "idUsuario", "adm"});
  Session s = session_of(*a);
  CHECK(s.token.size() == 64);
  CHECK(store::decode_tenant_token(s.tn) == tenant_id("alfa"));
  CHECK(s.user_id == u.id);
  CHECK_FALSE(bool(a->json()["adm"]));
  CHECK(a->text("statusLicenca") == "sem_licenca");
  CHECK(platform_db("select origem || '|' || agente || '|' || (ociosa_max is not null)::text from plataforma.sessoes "
                    "where token_hash = '" + sha256_of(*this, s.token) + "'") == "senha|teste/1.0|true");
  CHECK(platform_db("select count(*) from plataforma.sessoes where token_hash = '" + s.token + "'") == "0");

  SUBCASE("statusLicenca follows the tenant's license") {
    platform_db("insert into plataforma.licencas (tenant_id, plano, status, fim, max_usuarios, max_armazenamento_mb) "
                "values (" + std::to_string(tenant_id("alfa")) + ", 'basico', 'ativa', current_date + 10, 5, 100)");
    CHECK(try_login(u.email, u.password)->text("statusLicenca") == "ativa");
    platform_db("update plataforma.licencas set inicio = current_date - 30, fim = current_date - 1");
    CHECK(try_login(u.email, u.password)->text("statusLicenca") == "expirada");
    platform_db("update plataforma.licencas set status = 'suspensa'");
    CHECK(try_login(u.email, u.password)->text("statusLicenca") == "suspensa");
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "a user holds several sessions and logout ends only its own, at once") {
  Session phone = user("alfa"), desk = user("alfa");
  CHECK(phone.token != desk.token);
  CHECK(get("/minha-conta", phone)->status == 200);
  auto out = post("/logout", "", phone);
  CHECK(out->status == 204);
  CHECK(get("/minha-conta", phone)->status == 401);
  CHECK(get("/minha-conta", desk)->status == 200);
  CHECK(post("/logout", "", phone)->codigo() == "nao_autenticado");
  CHECK(platform_db("select count(*) from plataforma.sessoes where revogada_em is not null") == "1");
}

TEST_CASE("sessions end after their idle and absolute limits") {
  PlatformFixture f([](platform::AppOptions& o) {
    o.sessions.idle = std::chrono::seconds(1);
    o.sessions.absolute = std::chrono::seconds(3);
  });
  Session s = f.user("alfa");
  // Used every half second, the session outlives its idle limit...
  for (int i = 0; i < 4; ++i) {
    CHECK(f.get("/teste/tenant", s)->status == 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  // ...but not its absolute one.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(f.get("/teste/tenant", s)->status == 401);
  Session idle = f.user("alfa");
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  CHECK(f.get("/teste/tenant", idle)->status == 401);
}

TEST_CASE("repeated failed logins are throttled the same whether or not the e-mail exists") {
  PlatformFixture f([](platform::AppOptions& o) {
    o.secret_checks = {.pair_failures = 3, .address_failures = 3, .account_failures = 3,
                       .window = std::chrono::seconds(60), .lockout = std::chrono::seconds(60)};
  });
  const auto& u = f.stack->user("alfa");
  auto wrong = f.try_login(u.email, "senha-errada");
  auto unknown = f.try_login("ninguem@alfa.gov.br", "senha-errada");
  CHECK(wrong->status == 401);
  CHECK(unknown->status == 401);
  CHECK(wrong->body == unknown->body);  // the same words for both
  for (const std::string& email : {u.email, std::string("ninguem@alfa.gov.br")}) {
    // Fresh addresses each time would dodge the per-address key: X-Forwarded-For is not
    // trusted, so all of these come from 127.0.0.1 and the address key trips as well.
    while (f.try_login(email, "senha-errada")->status == 401) {
    }
    auto locked = f.try_login(email, "senha-errada");
    CHECK(locked->status == 429);
    CHECK(locked->codigo() == "muitas_requisicoes");
    CHECK(std::stoi(locked->header("Retry-After")) > 0);
  }
  // Locked out, the right password is refused too (nothing is checked while locked).
  CHECK(f.try_login(u.email, u.password)->status == 429);
}

TEST_CASE_FIXTURE(PlatformFixture, "login refuses bad input in the error shape") {
  CHECK(request("POST", "/login", {}, "email=a@b.c", "application/x-www-form-urlencoded")->codigo() ==
        "campo_obrigatorio");
  CHECK(request("POST", "/login", {}, "email=a@b.c&senha=x&extra=1", "application/x-www-form-urlencoded")->codigo() ==
        "campo_desconhecido");
  CHECK(request("POST", "/login", {}, "email=a@b.c&email=d@e.f&senha=x", "application/x-www-form-urlencoded")->status ==
        400);
  CHECK(request("POST", "/login", {}, "{\"email\": 1", "application/json")->codigo() == "json_invalido");
  auto json = request("POST", "/login", {}, R"({"email":")" + stack->user("alfa").email + R"(","senha":")" +
                                                stack->user("alfa").password + R"("})");
  CHECK(json->status == 200);  // JSON is taken too
  CHECK(request("POST", "/login", {}, std::string(20000, 'a'), "application/x-www-form-urlencoded")->status == 413);
}

TEST_CASE_FIXTURE(PlatformFixture, "a protected route refuses missing, malformed, foreign and inactive credentials") {
  Session alfa = user("alfa");
  CHECK(request("GET", "/minha-conta", {})->status == 401);
  CHECK(request("GET", "/minha-conta", {{"X-Auth-Token", alfa.token}})->status == 401);  // no X-TN-TOKEN
  CHECK(request("GET", "/minha-conta", {{"X-Auth-Token", "x' or 1=1 --"}, {"X-Tn-Token", alfa.tn}})->status == 401);
  CHECK(request("GET", "/minha-conta", {{"X-Auth-Token", alfa.token}, {"X-Tn-Token", "%%%"}})->status == 401);
  auto foreign = request("GET", "/minha-conta",
                         {{"X-Auth-Token", alfa.token}, {"X-Tn-Token", store::encode_tenant_token(tenant_id("beta"))}});
  CHECK(foreign->status == 403);
  CHECK(foreign->codigo() == "municipio_nao_permitido");
  CHECK(request("GET", "/minha-conta", {{"Authorization", "Bearer " + alfa.token}})->status == 200);

  platform_db("update plataforma.usuarios set ativo = false where id = " + std::to_string(alfa.user_id));
  CHECK(get("/minha-conta", alfa)->status == 401);
  CHECK(try_login(stack->user("alfa").email, stack->user("alfa").password)->status == 401);
  platform_db("update plataforma.usuarios set ativo = true");
  platform_db("update plataforma.tenants set ativo = false where slug = 'alfa'");
  app->identity().reload();
  CHECK(get("/minha-conta", alfa)->status == 401);
}

TEST_CASE_FIXTURE(PlatformFixture, "a platform administrator may act in another tenant through X-TN-TOKEN") {
  Session adm = platform_admin();
  Session beta{adm.token, store::encode_tenant_token(tenant_id("beta")), adm.user_id};
  auto t = get("/teste/tenant", beta);
  REQUIRE(t->status == 200);
  CHECK(t->text("slug") == "beta");
}

TEST_CASE_FIXTURE(PlatformFixture, "one login for the whole system: cadastre-server and the gateway take the session") {
  // cadastre-server's own cache would keep a token for token_ttl: the revocation
  // notification must end it at once.
  Session s = user("alfa");
  auto server = stack->client();
  const std::string perms = "/geo/alfa/usuarios/permissoes/";
  CHECK(server.Get(perms, test::Stack::bearer(s.token))->status == 200);

  gateway::Config cfg = gateway::parse_config(
      gateway::demo_config_json(stack->app().server().base_url(), app->server().base_url()));
  cfg.platform_dsn = stack->platform_dsn();
  gateway::AppOptions go;
  go.config = cfg;
  go.http.port = 0;
  go.http.access_log = false;
  go.pool.size = 2;
  gateway::App gw(go);
  REQUIRE(gw.start());
  httplib::Client g("127.0.0.1", gw.server().port());
  httplib::Headers session = {{"X-Auth-Token", s.token}, {"X-Tn-Token", s.tn}};
  auto through = g.Get("/rest/lote/search2/params/", session);
  REQUIRE(through);
  CHECK_MESSAGE(through->status == 200, through->body);
  // The gateway's /plataforma/rest reaches the platform service itself.
  auto platform_through = g.Get("/plataforma/rest/minha-conta", session);
  REQUIRE(platform_through);
  CHECK_MESSAGE(platform_through->status == 200, platform_through->body);
  CHECK(platform_through->get_header_value("X-Target-URL") == app->server().base_url() + "/minha-conta");

  // Wait for the listeners, then revoke: every service refuses the token at once.
  for (int i = 0; i < 100 && !(stack->app().events_listening() && gw.events_listening()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(post("/logout", "", s)->status == 204);
  bool server_refused = false, gateway_refused = false;
  for (int i = 0; i < 50 && !(server_refused && gateway_refused); ++i) {
    server_refused = server.Get(perms, test::Stack::bearer(s.token))->status == 401;
    gateway_refused = g.Get("/rest/lote/search2/params/", session)->status == 401;
    if (!(server_refused && gateway_refused)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(server_refused);
  CHECK(gateway_refused);
}

TEST_CASE("the directory login of the platform opens a session like the password login") {
  const std::string suffix = ldap_test::kSuffix;
  ldap_test::Slapd slapd(
      "dn: ou=pessoas," + suffix + "\nobjectClass: organizationalUnit\nou: pessoas\n\n"
      "dn: ou=grupos," + suffix + "\nobjectClass: organizationalUnit\nou: grupos\n\n"
      "dn: uid=fiscal,ou=pessoas," + suffix + "\nobjectClass: inetOrgPerson\nuid: fiscal\ncn: Fiscal\nsn: Fiscal\n"
      "mail: fiscal@alfa.gov.br\nuserPassword: senha-fiscal\n\n"
      "dn: cn=cadastre-alfa,ou=grupos," + suffix + "\nobjectClass: groupOfNames\ncn: cadastre-alfa\n"
      "member: uid=fiscal,ou=pessoas," + suffix + "\n\n");
  PlatformFixture f([&](platform::AppOptions& o) {
    o.ldap.uri = slapd.uri();
    o.ldap.base_dn = suffix;
    o.ldap.user_dn_template = "uid=%s,ou=pessoas," + suffix;
  });
  auto a = f.request("POST", "/login/LDAP", {}, R"({"username":"fiscal","password":"senha-fiscal"})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  Session s = PlatformFixture::session_of(*a);
  CHECK(store::decode_tenant_token(s.tn) == f.tenant_id("alfa"));
  CHECK(f.get("/minha-conta", s)->text("email") == "fiscal@alfa.gov.br");
  CHECK(f.platform_db("select origem from plataforma.sessoes s join plataforma.usuarios u on u.id = s.usuario_id "
                      "where u.email = 'fiscal@alfa.gov.br'") == "ldap");
  auto wrong = f.request("POST", "/login/LDAP", {}, R"({"username":"fiscal","password":"errada"})");
  CHECK(wrong->status == 401);
  CHECK(f.request("POST", "/login/LDAP", {}, R"({"username":"fiscal"})")->codigo() == "campo_obrigatorio");
  // The same directory login on cadastre-server comes from the same component.
  auto methods = f.request("GET", "/oAuth?email=fiscal%40alfa.gov.br", {});
  CHECK(methods->body.find("\"ldap\"") != std::string::npos);
}

TEST_CASE("the OpenID Connect login needs a valid id_token naming the e-mail and uid") {
  const std::string secret = "segredo-do-provedor-oidc-de-teste";
  PlatformFixture f([&](platform::AppOptions& o) {
    // Failures on purpose, all from one address: the throttle is not what this pins down.
    o.secret_checks.pair_failures = o.secret_checks.address_failures = o.secret_checks.account_failures = 100;
    o.oidc.hs256_secret = secret;
    o.oidc.issuer = "https://idp.exemplo.gov.br";
    o.oidc.audience = "cadastre-platform";
  });
  const auto& u = f.stack->user("alfa");
  auto token = [&](const std::string& sub, const std::string& email, std::int64_t exp, const std::string& aud,
                   const std::string& key) {
    return test::make_hs256_jwt(R"({"iss":"https://idp.exemplo.gov.br","aud":")" + aud + R"(","sub":")" + sub +
                                    R"(","email":")" + email + R"(","exp":)" + std::to_string(exp) + "}",
                                key);
  };
  auto body = [&](const std::string& id_token, const std::string& uid = "uid-123") {
    return R"({"email":")" + u.email + R"(","uid":")" + uid + R"(","id_token":")" + id_token + R"("})";
  };
  const std::int64_t later = jwt::unix_now() + 600, earlier = jwt::unix_now() - 600;

  auto ok = f.request("POST", "/login/oAuth", {}, body(token("uid-123", u.email, later, "cadastre-platform", secret)));
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  CHECK(f.get("/minha-conta", PlatformFixture::session_of(*ok))->status == 200);

  // {email, uid} alone, a forged signature, an expired token, another audience, another
  // subject: all 401.
  CHECK(f.request("POST", "/login/oAuth", {}, R"({"email":")" + u.email + R"(","uid":"uid-123"})")->status == 401);
  CHECK(f.request("POST", "/login/oAuth", {}, body(token("uid-123", u.email, later, "cadastre-platform", "outra")))
            ->status == 401);
  CHECK(f.request("POST", "/login/oAuth", {}, body(token("uid-123", u.email, earlier, "cadastre-platform", secret)))
            ->status == 401);
  CHECK(f.request("POST", "/login/oAuth", {}, body(token("uid-123", u.email, later, "outro-sistema", secret)))
            ->status == 401);
  CHECK(f.request("POST", "/login/oAuth", {}, body(token("uid-123", u.email, later, "cadastre-platform", secret), "uid-999"))
            ->status == 401);
  CHECK(f.request("POST", "/login/oAuth", {},
                  body(token("uid-123", "outro@alfa.gov.br", later, "cadastre-platform", secret)))
            ->status == 401);
  auto none = f.request("POST", "/login/oAuth", {},
                        body(test::make_hs256_jwt(R"({"sub":"uid-123","exp":9999999999})", "", R"({"alg":"none"})")));
  CHECK(none->status == 401);
}

TEST_CASE_FIXTURE(PlatformFixture, "oAuth does not tell an anonymous caller whether an e-mail exists") {
  auto known = request("GET", "/oAuth?email=" + http::percent_encode(stack->user("alfa").email), {});
  auto unknown = request("GET", "/oAuth?email=ninguem%40alfa.gov.br", {});
  REQUIRE(known->status == 200);
  auto methods = [](test::Answer& a) {
    std::vector<std::string> out;
    for (auto m : a.json()["metodos"].get_array()) out.emplace_back(std::string_view(m));
    return out;
  };
  CHECK(methods(*known) == methods(*unknown));
  CHECK_FALSE(bool(known->json()["doUsuario"]));
  CHECK(request("POST", "/login/oAuth", {}, R"({"email":"a@b.c","uid":"x","id_token":"y"})")->status == 503);
  // An administrator of the tenant sees the user's own methods.
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  auto seen = get("/oAuth?email=" + http::percent_encode(stack->user("alfa").email), adm);
  CHECK(bool(seen->json()["doUsuario"]));
  CHECK(request("GET", "/oAuth", {})->codigo() == "campo_obrigatorio");
}
