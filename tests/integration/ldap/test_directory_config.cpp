// The other ways the directory can be set up or fail: direct bind by DN template, no
// directory at all, a directory that is down, hangs, or refuses the service account.
#include "fixture.hpp"

using namespace ldap_test;
using cadastre::test::Stack;

TEST_CASE("direct bind through a DN template logs in and escapes the username as a DN value") {
  cadastre::server::AppOptions o;
  o.ldap.uri = directory().uri();
  o.ldap.base_dn = kSuffix;
  o.ldap.user_dn_template = std::string("uid=%s,ou=pessoas,") + kSuffix;
  o.ldap.new_user_permission = "lote:rw";
  Stack stack({"alfa", "beta"}, o);

  auto a = login(stack, login_body("maria", "senha-maria"));
  INFO(a->body);
  REQUIRE(a->status == 200);
  CHECK(bool(a->json()["usuario"]["criado"]));
  CHECK(platform(stack, "select p.camada || ':' || p.leitura::text || ':' || p.escrita::text from "
                        "plataforma.permissoes_camada p join plataforma.usuarios u on u.id = p.usuario_id "
                        "where u.email = 'maria@alfa.gov.br'") == "lote:true:true");

  // Without escaping, "maria,ou=pessoas,dc=cadastre,dc=test" or a '+' would build another DN.
  for (const char* user : {"maria,ou=pessoas,dc=cadastre,dc=test", "maria+cn=x", "*", "maria\\"}) {
    INFO(user);
    auto refused = login(stack, login_body(user, "senha-maria"));
    CHECK(refused->status == 401);
  }
  CHECK(login(stack, login_body("maria", ""))->status == 401);
  CHECK(login(stack, login_body("maria", "senha-errada"))->status == 401);
}

TEST_CASE("without a configured directory the route answers 503 in the error shape, once the body is well-formed") {
  Stack stack({"alfa"});
  auto a = login(stack, login_body("maria", "senha-maria"));
  CHECK(a->status == 503);
  CHECK(a->codigo() == "servico_indisponivel");
  CHECK(a->mensagem().find("não configurado") != std::string::npos);
  auto malformed = login(stack, "{");
  CHECK(malformed->status == 400);
  CHECK(malformed->codigo() == "json_invalido");
  CHECK(login(stack, R"({"username": "maria", "username": "joao", "password": "x"})")->status == 400);
  CHECK(login(stack, R"({"username": "maria"})")->codigo() == "campo_obrigatorio");
}

TEST_CASE("a directory that is down answers 502, one that hangs 504 within the time-out") {
  SUBCASE("down") {
    auto o = search_options("ldap://127.0.0.1:" + std::to_string(free_port()));
    Stack stack({"alfa"}, o);
    auto a = login(stack, login_body("maria", "senha-maria"));
    CHECK(a->status == 502);
    CHECK(a->codigo() == "falha_no_servico_externo");
  }
  SUBCASE("hangs") {
    SilentListener hung;
    auto o = search_options(hung.uri());
    o.ldap.timeout = std::chrono::milliseconds(600);
    Stack stack({"alfa"}, o);
    auto started = std::chrono::steady_clock::now();
    auto a = login(stack, login_body("maria", "senha-maria"));
    auto elapsed = std::chrono::steady_clock::now() - started;
    CHECK(a->status == 504);
    CHECK(a->codigo() == "tempo_esgotado_no_servico_externo");
    CHECK(elapsed < std::chrono::seconds(3));
  }
}

TEST_CASE("a service account the directory refuses is a directory failure (502), not a login failure") {
  auto o = search_options(directory().uri());
  o.ldap.bind_password = "senha-antiga";
  Stack stack({"alfa"}, o);
  auto a = login(stack, login_body("maria", "senha-maria"));
  CHECK(a->status == 502);
  CHECK(a->codigo() == "falha_no_servico_externo");
  CHECK(platform(stack, "select count(*) from plataforma.usuarios where email = 'maria@alfa.gov.br'") == "0");
}
