// POST /ldap/login/ against a real slapd: who gets in, what the identity store keeps, and
// what stays out (wrong or empty passwords, filter and DN injection).
#include "fixture.hpp"

using namespace ldap_test;
using cadastre::test::call;
using cadastre::test::Stack;

namespace {

std::string permissions_email(Stack& stack, const std::string& slug, const std::string& token) {
  auto a = call(stack, "GET", "/geo/" + slug + "/usuarios/permissoes/", Stack::bearer(token));
  if (a->status != 200) return "HTTP " + std::to_string(a->status);
  return std::string(std::string_view(a->json()["usuario"]["email"]));
}

}  // namespace

TEST_CASE("a directory user of an access group logs in, is created on first login and the token works") {
  Stack& stack = ldap_stack();
  REQUIRE(platform(stack, "select count(*) from plataforma.usuarios where email = 'maria@alfa.gov.br'") == "0");

  auto a = login(stack, login_body("maria", "senha-maria"));
  INFO(a->body);
  REQUIRE(a->status == 200);
  auto j = a->json();
  std::string token{std::string_view(j["auth_token"])};
  CHECK(token.size() == 64);
  CHECK(std::string_view(j["usuario"]["email"]) == "maria@alfa.gov.br");
  CHECK(std::string_view(j["usuario"]["nome"]) == "Pessoa maria");
  CHECK(bool(j["usuario"]["criado"]));
  CHECK_FALSE(bool(j["usuario"]["adm"]));
  CHECK(std::string_view(j["municipio"]["slug"]) == "alfa");

  // The store keeps the user in the tenant the directory named, without a password, with
  // the read rule new users get, and only the hash of the token.
  CHECK(platform(stack, "select t.slug || '|' || (u.senha_hash is null)::text || '|' || u.nome from plataforma.usuarios u "
                        "join plataforma.tenants t on t.id = u.tenant_id where u.email = 'maria@alfa.gov.br'") ==
        "alfa|true|Pessoa maria");
  CHECK(platform(stack, "select p.camada || ':' || p.leitura::text || ':' || p.escrita::text from "
                        "plataforma.permissoes_camada p join plataforma.usuarios u on u.id = p.usuario_id "
                        "where u.email = 'maria@alfa.gov.br'") == "*:true:false");
  CHECK(platform(stack, "select count(*) from plataforma.sessoes s join plataforma.usuarios u on u.id = s.usuario_id "
                        "where u.email = 'maria@alfa.gov.br' and s.revogada_em is null and s.token_hash = encode(sha256('" +
                            token + "'::bytea), 'hex')") == "1");
  CHECK(permissions_email(stack, "alfa", token) == "maria@alfa.gov.br");
  CHECK(permissions_email(stack, "beta", token) == "HTTP 403");

  SUBCASE("the next login finds the same user and opens another session beside the first") {
    std::string id = platform(stack, "select id from plataforma.usuarios where email = 'maria@alfa.gov.br'");
    auto again = login(stack, login_body("maria", "senha-maria"));
    REQUIRE(again->status == 200);
    CHECK_FALSE(bool(again->json()["usuario"]["criado"]));
    CHECK(std::to_string(std::int64_t(again->json()["usuario"]["id"])) == id);
    CHECK(platform(stack, "select count(*) from plataforma.usuarios where email = 'maria@alfa.gov.br'") == "1");
    std::string fresh{std::string_view(again->json()["auth_token"])};
    CHECK(fresh != token);
    CHECK(permissions_email(stack, "alfa", fresh) == "maria@alfa.gov.br");
    CHECK(permissions_email(stack, "alfa", token) == "maria@alfa.gov.br");
    CHECK(platform(stack, "select count(*) from plataforma.sessoes s join plataforma.usuarios u on u.id = s.usuario_id "
                          "where u.email = 'maria@alfa.gov.br' and s.origem = 'ldap' and s.revogada_em is null") == "2");
  }
}

TEST_CASE("a user the identity store already has logs in through the directory and keeps their record") {
  Stack& stack = ldap_stack();
  const auto& existing = stack.user("alfa");
  auto a = login(stack, login_body("usuario", "senha-usuario"));
  INFO(a->body);
  REQUIRE(a->status == 200);
  CHECK_FALSE(bool(a->json()["usuario"]["criado"]));
  CHECK(std::int64_t(a->json()["usuario"]["id"]) == existing.id);
  // Their own rule "*:rw" stays; the password set in the store stays too.
  CHECK(platform(stack, "select string_agg(camada || ':' || escrita::text, ',') from plataforma.permissoes_camada "
                        "where usuario_id = " + std::to_string(existing.id)) == "*:true");
  CHECK(platform(stack, "select (senha_hash is not null)::text from plataforma.usuarios where id = " +
                            std::to_string(existing.id)) == "true");
  CHECK(permissions_email(stack, "alfa", std::string(std::string_view(a->json()["auth_token"]))) ==
        "usuario@alfa.gov.br");
}

TEST_CASE("wrong, unknown and empty credentials get 401 and create nobody") {
  Stack& stack = ldap_stack();
  std::string before = platform(stack, "select count(*) from plataforma.usuarios");
  struct Case {
    const char* what;
    std::string user, password;
  };
  for (const auto& c : {Case{"senha errada", "maria", "senha-errada"}, Case{"usuário desconhecido", "zeca", "senha-zeca"},
                        // An empty password would be an unauthenticated bind, which some
                        // directories accept as anonymous: it must never log anyone in.
                        Case{"senha vazia", "maria", ""}, Case{"usuário vazio", "", "senha-maria"},
                        Case{"senha de outra pessoa", "maria", "senha-usuario"},
                        Case{"caractere de controle", std::string("maria\n"), "senha-maria"}}) {
    INFO(c.what);
    auto a = login(stack, login_body(c.user, c.password));
    CHECK(a->status == 401);
    CHECK(a->codigo() == "nao_autenticado");
    CHECK(a->text("tipo") == "erro");
  }
  CHECK(platform(stack, "select count(*) from plataforma.usuarios") == before);
}

TEST_CASE("filter injection in the username is escaped and logs nobody in") {
  Stack& stack = ldap_stack();
  std::string before = platform(stack, "select count(*) from plataforma.usuarios");
  // Unescaped, "mari*" would match maria alone and bind with her password; "*)(uid=*" and
  // "maria)(|(password=*" would rewrite the filter.
  for (const char* user : {"mari*", "*", "*)(uid=*", "maria)(|(password=*", "maria)(uid=maria", "maria\\2a",
                           "*)(|(objectClass=*"}) {
    INFO(user);
    auto a = login(stack, login_body(user, "senha-maria"));
    CHECK(a->status == 401);
    CHECK(a->codigo() == "nao_autenticado");
  }
  CHECK(platform(stack, "select count(*) from plataforma.usuarios") == before);
}

TEST_CASE("the directory decides the municipality: no access group, no mail or another tenant are refused") {
  Stack& stack = ldap_stack();
  std::string before = platform(stack, "select count(*) from plataforma.usuarios");

  auto none = login(stack, login_body("pedro", "senha-pedro"));
  CHECK(none->status == 403);
  CHECK(none->codigo() == "acesso_negado");
  auto other_group = login(stack, login_body("luiz", "senha-luiz"));
  CHECK(other_group->status == 403);
  auto no_mail = login(stack, login_body("semmail", "senha-semmail"));
  CHECK(no_mail->status == 403);
  CHECK(no_mail->mensagem().find("mail") != std::string::npos);
  // beto's mail belongs to beta's user in the store; the directory puts him in alfa.
  auto elsewhere = login(stack, login_body("beto", "senha-beto"));
  CHECK(elsewhere->status == 403);
  CHECK(elsewhere->codigo() == "municipio_nao_permitido");
  CHECK(platform(stack, "select count(*) from plataforma.usuarios") == before);
  CHECK(platform(stack, "select t.slug from plataforma.usuarios u join plataforma.tenants t on t.id = u.tenant_id "
                        "where u.email = 'usuario@beta.gov.br'") == "beta");
}

TEST_CASE("a user of two municipalities names one; a municipality the directory does not grant is refused") {
  Stack& stack = ldap_stack();
  auto ambiguous = login(stack, login_body("ana", "senha-ana"));
  CHECK(ambiguous->status == 400);
  CHECK(ambiguous->codigo() == "campo_obrigatorio");
  auto not_granted = login(stack, login_body("maria", "senha-maria", R"(, "municipio": "beta")"));
  CHECK(not_granted->status == 403);
  CHECK(not_granted->codigo() == "municipio_nao_permitido");

  auto a = login(stack, login_body("ana", "senha-ana", R"(, "municipio": "beta")"));
  INFO(a->body);
  REQUIRE(a->status == 200);
  CHECK(std::string_view(a->json()["municipio"]["slug"]) == "beta");
  CHECK(platform(stack, "select t.slug from plataforma.usuarios u join plataforma.tenants t on t.id = u.tenant_id "
                        "where u.email = 'ana@regiao.gov.br'") == "beta");
  CHECK(permissions_email(stack, "beta", std::string(std::string_view(a->json()["auth_token"]))) ==
        "ana@regiao.gov.br");
}

TEST_CASE("malformed login bodies are 400 in the error shape") {
  Stack& stack = ldap_stack();
  auto missing = login(stack, R"({"username": "maria"})");
  CHECK(missing->status == 400);
  CHECK(missing->codigo() == "campo_obrigatorio");
  auto unknown = login(stack, R"({"username": "maria", "password": "senha-maria", "senha": "x"})");
  CHECK(unknown->status == 400);
  CHECK(unknown->codigo() == "campo_desconhecido");
  auto not_json = login(stack, "username=maria&password=senha-maria");
  CHECK(not_json->status == 400);
  CHECK(not_json->codigo() == "json_invalido");
  auto wrong_type = login(stack, R"({"username": "maria", "password": 123})");
  CHECK(wrong_type->status == 400);
}

TEST_CASE("directory names are one account however spelt: \" maria\", \"maria \" and \"Maria\" count together") {
  Stack& stack = ldap_stack();
  platform(stack, "delete from plataforma.tentativas");
  // The same user, trimmed and folded, logs in...
  CHECK(login(stack, login_body(" Maria ", "senha-maria"))->status == 200);
  // ...and the failures of every spelling count on one key (5 at one address: locked).
  for (const char* u : {" maria", "maria ", "Maria", "MARIA", "maria"})
    CHECK(login(stack, login_body(u, "senha-errada"))->status == 401);
  auto locked = login(stack, login_body("maria", "senha-maria"));
  CHECK(locked->status == 429);
  CHECK(locked->codigo() == "muitas_requisicoes");
  CHECK(!locked->header("Retry-After").empty());
  CHECK(platform(stack, "select falhas || '/' || (bloqueado_ate > now()) from plataforma.tentativas "
                        "where chave = 'c|ldap:maria'") == "5/true");
  platform(stack, "delete from plataforma.tentativas");  // the suite's other tests start clean
}
