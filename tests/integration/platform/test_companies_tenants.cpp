// /empresas (the company behind a tenant's account) and /tenants/config (the tenant's
// configuration, validated against its documented schema): read by the tenant's users,
// changed by its administrators, another tenant's out of reach.
#include "fixture.hpp"

using namespace cadastre;
using test::refused;
using test::PlatformFixture;
using test::Session;

namespace {

std::string company_of(PlatformFixture& f, const std::string& slug) {
  return f.platform_db("insert into plataforma.empresas (nome, cnpj, tenant_id) values ('Empresa " +
                       slug + "', null, " + std::to_string(f.tenant_id(slug)) + ") returning id");
}

}  // namespace

TEST_CASE_FIXTURE(
    PlatformFixture,
    "empresas: the tenant's company, read by its users and changed by its administrators") {
  const std::string alfa = company_of(*this, "alfa"), beta = company_of(*this, "beta");
  Session plain = user("alfa"), adm = admin("alfa", "chefe@alfa.gov.br");

  auto mine = get("/empresas", plain);
  REQUIRE_MESSAGE(mine->status == 200, mine->body);
  CHECK(test::ids(mine->json()) == alfa);
  CHECK(test::ids(mine->json(), "nome") == "Empresa alfa");
  Session pa = platform_admin();
  CHECK(test::ids(get("/empresas", pa)->json()) == alfa + "," + beta);

  auto changed =
      put("/empresas/" + alfa, R"({"nome": "Prefeitura de Alfa", "cnpj": "12.345.678/0001-95",
                                              "email": " Contato@Alfa.gov.br", "telefone": "48 3333-0000",
                                              "endereco": "Praça XV, 1", "site": "https://alfa.gov.br"})",
          adm);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(changed->text("cnpj") == "12345678000195");
  CHECK(changed->text("email") == "contato@alfa.gov.br");
  CHECK(platform_db("select nome || '|' || cnpj || '|' || email || '|' || telefone || '|' || "
                    "endereco || '|' || site "
                    "from plataforma.empresas where id = " +
                    alfa) ==
        "Prefeitura de Alfa|12345678000195|contato@alfa.gov.br|48 3333-0000|Praça XV, "
        "1|https://alfa.gov.br");
  // An empty text clears an optional field; what is not sent stays.
  REQUIRE(put("/empresas/" + alfa, R"({"site": ""})", adm)->status == 200);
  CHECK(platform_db(
            "select nome || '|' || coalesce(site, 'null') from plataforma.empresas where id = " +
            alfa) == "Prefeitura de Alfa|null");

  // Another tenant's company: 404 and unchanged; a platform administrator reaches it.
  refused(*put("/empresas/" + beta, R"({"nome": "Tomada"})", adm), 404, "nao_encontrado");
  CHECK(platform_db("select nome from plataforma.empresas where id = " + beta) == "Empresa beta");
  CHECK(put("/empresas/" + beta, R"({"telefone": "11 4000-0000"})", pa)->status == 200);
  CHECK(platform_db("select telefone from plataforma.empresas where id = " + beta) ==
        "11 4000-0000");

  const std::string before =
      platform_db("select row(e.*)::text from plataforma.empresas e where id = " + alfa);
  refused(*put("/empresas/" + alfa, R"({"nome": ""})", adm), 400, "parametro_invalido", "nome");
  refused(*put("/empresas/" + alfa, R"({"nome": 1})", adm), 400, "parametro_invalido", "nome");
  refused(*put("/empresas/" + alfa, R"({"cnpj": "1234567800019"})", adm), 400, "parametro_invalido",
          "cnpj");
  refused(*put("/empresas/" + alfa, R"({"cnpj": "1234567800019X"})", adm), 400,
          "parametro_invalido", "cnpj");
  refused(*put("/empresas/" + alfa, R"({"email": "sem-arroba"})", adm), 400, "parametro_invalido",
          "email");
  refused(*put("/empresas/" + alfa, R"({"idTenant": 2})", adm), 400, "campo_desconhecido",
          "idTenant");
  refused(*put("/empresas/" + alfa, R"({"endereco": ")" + std::string(301, 'e') + "\"}", adm), 400,
          "parametro_invalido", "endereco");
  refused(*put("/empresas/" + alfa, "[]", adm), 400, "parametro_invalido", "corpo");
  refused(*put("/empresas/abc", "{}", adm), 400, "parametro_invalido", "id");
  refused(*put("/empresas/999999999", "{}", adm), 404, "nao_encontrado");
  CHECK(put("/empresas/" + alfa, "{\"nome\": \"" + std::string(17000, 'n') + "\"}", adm)->status ==
        413);
  CHECK(platform_db("select row(e.*)::text from plataforma.empresas e where id = " + alfa) ==
        before);

  Session gone = admin("alfa", "saiu@alfa.gov.br");
  REQUIRE(post("/logout", "", gone)->status == 204);
  Session inactive = admin("alfa", "inativo@alfa.gov.br");
  platform_db("update plataforma.usuarios set ativo = false where id = " +
              std::to_string(inactive.user_id) + " returning id");
  Session beta_admin = admin("beta", "chefe@beta.gov.br");
  for (const char* method : {"GET", "PUT"}) {
    CAPTURE(method);
    const std::string path = std::string(method) == "GET" ? "/empresas" : "/empresas/" + alfa;
    const std::string body = R"({"nome": "Intrusa"})";
    refused(*request(method, path, {}, body), 401, "nao_autenticado");
    refused(*request(method, path, headers(gone), body), 401, "nao_autenticado");
    refused(*request(method, path, headers(inactive), body), 401, "nao_autenticado");
    refused(*request(method, path, headers({beta_admin.token, adm.tn}), body), 403,
            "municipio_nao_permitido");
  }
  refused(*put("/empresas/" + alfa, R"({"nome": "Intrusa"})", plain), 403, "acesso_negado");
  CHECK(platform_db("select row(e.*)::text from plataforma.empresas e where id = " + alfa) ==
        before);
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "tenants/config is read by the tenant and replaced by its administrators under the schema") {
  Session plain = user("alfa"), adm = admin("alfa", "chefe@alfa.gov.br");
  const std::string alfa = std::to_string(tenant_id("alfa"));
  auto empty = get("/tenants/config", plain);
  REQUIRE_MESSAGE(empty->status == 200, empty->body);
  CHECK(std::string_view(empty->json()["tenant"]["slug"]) == "alfa");
  CHECK(int64_t(empty->json()["tenant"]["id"]) == tenant_id("alfa"));
  CHECK(simdjson::minify(empty->json()["config"]) == "{}");

  const std::string config =
      R"({"mapa": {"centro": [-48.55, -27.6], "zoom": 14, "mapaBase": "osm"},)"
      R"( "tema": {"corPrimaria": "#1A2B3C", "corSecundaria": "#ffffff", "logo": "https://alfa.gov.br/logo.png"},)"
      R"( "contato": {"email": "sig@alfa.gov.br", "telefone": "48 3333-0000", "site": "https://alfa.gov.br"},)"
      R"( "modulos": ["cadastro", "mapa"]})";
  auto saved = put("/tenants/config", config, adm);
  REQUIRE_MESSAGE(saved->status == 200, saved->body);
  CHECK(int64_t(saved->json()["config"]["mapa"]["zoom"]) == 14);
  CHECK(platform_db("select config = '" + config +
                    "'::jsonb from plataforma.tenants where id = " + alfa) == "t");
  CHECK(int64_t(get("/tenants/config", plain)->json()["config"]["mapa"]["zoom"]) == 14);
  // Member by member: a member sent replaces its value, null removes it, the rest stays.
  REQUIRE(put("/tenants/config", R"({"modulos": []})", adm)->status == 200);
  CHECK(platform_db("select (config->'modulos')::text || ' ' || (config #>> '{mapa,zoom}') from plataforma.tenants "
                    "where id = " + alfa) == "[] 14");
  const std::string kept = platform_db("select config::text from plataforma.tenants where id = " + alfa);
  REQUIRE(put("/tenants/config", "{}", adm)->status == 200);  // changes nothing (it used to erase everything)
  CHECK(platform_db("select config::text from plataforma.tenants where id = " + alfa) == kept);
  REQUIRE(put("/tenants/config", R"({"tema": null})", adm)->status == 200);
  CHECK(platform_db("select (config ? 'tema')::text || ' ' || (config ? 'mapa')::text from plataforma.tenants where id = " +
                    alfa) == "false true");
  REQUIRE(put("/tenants/config", config, adm)->status == 200);

  // Every violation is a 400 naming the member's path; nothing is stored.
  const std::string stored =
      platform_db("select config::text from plataforma.tenants where id = " + alfa);
  struct Bad {
    std::string body, path;
  };
  for (const Bad& b :
       {Bad{R"({"mapa": {"zoom": 23}})", "mapa.zoom"},
        Bad{R"({"mapa": {"zoom": -1}})", "mapa.zoom"},
        Bad{R"({"mapa": {"zoom": 2.5}})", "mapa.zoom"},
        Bad{R"({"mapa": {"zoom": "14"}})", "mapa.zoom"},
        Bad{R"({"mapa": {"centro": [200, 0]}})", "mapa.centro"},
        Bad{R"({"mapa": {"centro": [0, 91]}})", "mapa.centro"},
        Bad{R"({"mapa": {"centro": [0]}})", "mapa.centro"},
        Bad{R"({"mapa": {"centro": [0, "a"]}})", "mapa.centro"},
        Bad{R"({"mapa": []})", "mapa"},
        Bad{R"({"tema": {"corPrimaria": "red"}})", "tema.corPrimaria"},
        Bad{R"({"tema": {"corSecundaria": "#12345"}})", "tema.corSecundaria"},
        Bad{R"({"tema": {"logo": ")" + std::string(501, 'l') + "\"}}", "tema.logo"},
        Bad{R"({"contato": {"email": "nao-e-email"}})", "contato.email"},
        Bad{R"({"contato": {"email": 1}})", "contato.email"},
        Bad{R"({"contato": {"telefone": ")" + std::string(41, '9') + "\"}}", "contato.telefone"},
        Bad{R"({"modulos": "cadastro"})", "modulos"},
        Bad{R"({"modulos": [1]})", "modulos"},
        Bad{R"({"rastreador": {"url": "ftp://x"}})", "rastreador.url"},
        Bad{R"({"rastreador": {"timeout_ms": 5}})", "rastreador.timeout_ms"},
        Bad{R"({"integracao_rest": {"url": "https://x"}})", "integracao_rest"},
        Bad{R"({"integracao_rest": null})", "integracao_rest"},
        Bad{"[]", "corpo"},
        Bad{"\"texto\"", "corpo"}}) {
    CAPTURE(b.body);
    refused(*put("/tenants/config", b.body, adm), 400, "parametro_invalido", b.path);
  }
  // A member the document does not have, at any depth: the platform's unknown member.
  for (const Bad& b : {Bad{R"({"mapa": {"cor": "azul"}})", "mapa.cor"}, Bad{R"({"outra": 1})", "outra"},
                       Bad{R"({"rastreador": {"senha": "x"}})", "rastreador.senha"}}) {
    CAPTURE(b.body);
    refused(*put("/tenants/config", b.body, adm), 400, "campo_desconhecido", b.path);
  }
  refused(*put("/tenants/config", "{", adm), 400, "json_invalido");
  CHECK(
      put("/tenants/config", "{\"modulos\": [\"" + std::string(70000, 'm') + "\"]}", adm)->status ==
      413);
  CHECK(platform_db("select config::text from plataforma.tenants where id = " + alfa) == stored);

  // A platform administrator configures beta through beta's tnToken; beta's users see it, alfa's
  // stays.
  Session pa = platform_admin();
  REQUIRE(put("/tenants/config", R"({"mapa": {"zoom": 9}})",
              {pa.token, store::encode_tenant_token(tenant_id("beta"))})
              ->status == 200);
  CHECK(int64_t(get("/tenants/config", user("beta"))->json()["config"]["mapa"]["zoom"]) == 9);
  CHECK(platform_db("select config::text from plataforma.tenants where id = " + alfa) == stored);

  Session gone = admin("alfa", "saiu@alfa.gov.br");
  REQUIRE(post("/logout", "", gone)->status == 204);
  Session inactive = admin("alfa", "inativo@alfa.gov.br");
  platform_db("update plataforma.usuarios set ativo = false where id = " +
              std::to_string(inactive.user_id) + " returning id");
  Session beta_admin = admin("beta", "chefe@beta.gov.br");
  for (const char* method : {"GET", "PUT"}) {
    CAPTURE(method);
    const std::string body = R"({"mapa": {"zoom": 1}})";
    refused(*request(method, "/tenants/config", {}, body), 401, "nao_autenticado");
    refused(*request(method, "/tenants/config", headers(gone), body), 401, "nao_autenticado");
    refused(*request(method, "/tenants/config", headers(inactive), body), 401, "nao_autenticado");
    refused(*request(method, "/tenants/config", headers({beta_admin.token, adm.tn}), body), 403,
            "municipio_nao_permitido");
  }
  refused(*put("/tenants/config", R"({"mapa": {"zoom": 1}})", plain), 403, "acesso_negado");
  CHECK(platform_db("select config::text from plataforma.tenants where id = " + alfa) == stored);
}

TEST_CASE_FIXTURE(PlatformFixture, "tenants/config keeps the credentials of other systems, never answers them, and "
                                   "audits every change without them") {
  Session plain = user("alfa"), adm = admin("alfa", "chefe@alfa.gov.br");
  const std::string alfa = std::to_string(tenant_id("alfa"));
  platform_db(R"(update plataforma.tenants set config = '{"modulos": ["ouvidoria"], )"
              R"("rastreador": {"url": "https://issues.alfa.gov.br", "token": "segredo-1", "timeout_ms": 3000}, )"
              R"("integracao_rest": {"url": "https://db.alfa.gov.br", "token_sha256": "abc123", "token_destino": "segredo-2"}}' )"
              "where id = " + alfa + " returning id");
  for (const Session* who : {&plain, &adm}) {
    auto a = get("/tenants/config", *who);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    for (const char* secret : {"segredo-1", "segredo-2", "abc123", "token"})
      CHECK_MESSAGE(a->body.find(secret) == std::string::npos, secret);
    CHECK(std::string_view(a->json()["config"]["rastreador"]["url"]) == "https://issues.alfa.gov.br");
  }
  // An empty document, or a change of another member, keeps them.
  auto a = put("/tenants/config", R"({"mapa": {"zoom": 12}})", adm);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->body.find("segredo") == std::string::npos);
  CHECK(platform_db("select concat_ws(' ', config #>> '{rastreador,token}', config #>> '{integracao_rest,token_sha256}', "
                    "config #>> '{integracao_rest,token_destino}', config #>> '{modulos,0}') from plataforma.tenants "
                    "where id = " + alfa) == "segredo-1 abc123 segredo-2 ouvidoria");
  // Replaced explicitly, then removed explicitly.
  REQUIRE(put("/tenants/config", R"({"rastreador": {"url": "https://novo.alfa.gov.br", "token": "segredo-3"}})", adm)
              ->status == 200);
  CHECK(platform_db("select config #>> '{rastreador,token}' from plataforma.tenants where id = " + alfa) == "segredo-3");
  REQUIRE(put("/tenants/config", R"({"rastreador": null})", adm)->status == 200);
  CHECK(platform_db("select (config ? 'rastreador')::text || ' ' || (config #>> '{integracao_rest,token_sha256}') "
                    "from plataforma.tenants where id = " + alfa) == "false abc123");
  // Only administrators change it.
  refused(*put("/tenants/config", "{}", plain), 403, "acesso_negado");
  // Every change audited: who, before and after, never a credential.
  CHECK(platform_db("select count(*) from plataforma.configuracoes_auditoria where tenant_id = " + alfa +
                    " and usuario_id = " + std::to_string(adm.user_id)) == "3");
  CHECK(platform_db("select count(*) from plataforma.configuracoes_auditoria where (antes::text || depois::text) ~ "
                    "'segredo|abc123|token'") == "0");
  CHECK(platform_db("select concat_ws(' ', antes #>> '{mapa,zoom}', depois #>> '{mapa,zoom}', depois #>> "
                    "'{rastreador,url}') from plataforma.configuracoes_auditoria where tenant_id = " + alfa +
                    " order by id limit 1") == "12 https://issues.alfa.gov.br");
}
