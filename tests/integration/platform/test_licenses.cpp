// Licenses: platform administrators create, list and change them (/licencas, /adm/licencas*);
// a tenant reads its plan (/licencas/meu-plano) and its administrators manage the license's
// API tokens (/licencas/tokens), shown once and stored as a hash. The login answer's
// statusLicenca follows the license.
#include "fixture.hpp"

using namespace cadastre;
using test::refused;
using test::PlatformFixture;
using test::Session;

namespace {

std::string license_body(std::int64_t tenant, const std::string& extra = "") {
  return R"({"idTenant": )" + std::to_string(tenant) +
         R"(, "plano": "basico", "fim": "2099-12-31", "maxUsuarios": 10, "maxArmazenamentoMb": 500)" +
         extra + "}";
}

const std::string kBuilt =
    R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})";

// A valuation call on cadastre-server with an API token: the proof that a token works.
int valuation_with(PlatformFixture& f, const std::string& token) {
  auto c = f.stack->client();
  auto r = c.Post("/equacao/calculo/alfa/construcao/calcularvalor/",
                  {{"Authorization", "Bearer " + token}}, kBuilt, "application/json");
  REQUIRE(r);
  return r->status;
}

}  // namespace

TEST_CASE_FIXTURE(
    PlatformFixture,
    "platform administrators create, list and change licenses; the login reports their status") {
  Session pa = platform_admin();
  const std::int64_t beta = tenant_id("beta");
  const auto& beta_user = stack->user("beta");
  CHECK(try_login(beta_user.email, beta_user.password)->text("statusLicenca") == "sem_licenca");

  auto made = post("/licencas", license_body(beta, R"(, "observacao": "contrato 12/2024")"), pa);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  const std::int64_t id = int64_t(made->json()["id"]);
  CHECK(made->text("status") == "ativa");
  CHECK(made->text("statusEfetivo") == "ativa");
  CHECK(made->text("fim") == "2099-12-31");
  CHECK(
      platform_db(
          "select tenant_id || '|' || plano || '|' || status || '|' || (inicio = "
          "current_date)::text || '|' "
          "|| fim || '|' || max_usuarios || '|' || max_armazenamento_mb || '|' || observacao from "
          "plataforma.licencas where id = " +
          std::to_string(id)) ==
      std::to_string(beta) + "|basico|ativa|true|2099-12-31|10|500|contrato 12/2024");
  CHECK(try_login(beta_user.email, beta_user.password)->text("statusLicenca") == "ativa");

  auto trial =
      post("/licencas",
           license_body(tenant_id("alfa"), R"(, "status": "teste", "inicio": "2024-01-01")"), pa);
  REQUIRE_MESSAGE(trial->status == 201, trial->body);
  CHECK(trial->text("inicio") == "2024-01-01");

  // The list, paged and ordered by the declared columns only.
  auto all = get("/adm/licencas", pa);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(int64_t(all->json()["totalElements"]) == 2);
  CHECK(test::ids(all->json()["content"], "tenant") == "beta,alfa");
  auto by_tenant = get("/adm/licencas?orderBy=tenant&direction=asc&pageSize=1", pa);
  CHECK(test::ids(by_tenant->json()["content"], "tenant") == "alfa");
  CHECK(int64_t(by_tenant->json()["totalPages"]) == 2);
  for (const char* bad : {"pageSize=0", "pageSize=1001", "pageNumber=0", "orderBy=observacao",
                          "direction=cima", "orderBy=id%20desc"}) {
    CAPTURE(bad);
    std::string q = bad;
    refused(*get("/adm/licencas?" + q, pa), 400, "parametro_invalido", q.substr(0, q.find('=')));
  }

  // One tenant's licenses, newest first.
  auto newer = post(
      "/licencas",
      R"({"idTenant": )" + std::to_string(beta) +
          R"(, "plano": "ouro", "fim": "2099-12-31", "maxUsuarios": 20, "maxArmazenamentoMb": 900})",
      pa);
  REQUIRE_MESSAGE(newer->status == 201, newer->body);
  auto of_beta = get("/adm/licencas/tenant/" + std::to_string(beta), pa);
  REQUIRE_MESSAGE(of_beta->status == 200, of_beta->body);
  CHECK(test::ids(of_beta->json(), "plano") == "ouro,basico");
  refused(*get("/adm/licencas/tenant/999999999", pa), 404, "nao_encontrado");
  refused(*get("/adm/licencas/tenant/abc", pa), 400, "parametro_invalido", "id");

  // Changes; the login reports the current (latest) license's status.
  const std::string current = std::to_string(int64_t(newer->json()["id"]));
  auto suspended = put("/adm/licencas/" + current, R"({"status": "suspensa"})", pa);
  REQUIRE_MESSAGE(suspended->status == 200, suspended->body);
  CHECK(suspended->text("status") == "suspensa");
  CHECK(platform_db("select status from plataforma.licencas where id = " + current) == "suspensa");
  CHECK(try_login(beta_user.email, beta_user.password)->text("statusLicenca") == "suspensa");
  auto ended = put("/adm/licencas/" + current,
                   R"({"status": "ativa", "inicio": "2020-01-01", "fim": "2020-12-31"})", pa);
  REQUIRE_MESSAGE(ended->status == 200, ended->body);
  CHECK(ended->text("status") == "ativa");
  CHECK(ended->text("statusEfetivo") == "expirada");
  CHECK(try_login(beta_user.email, beta_user.password)->text("statusLicenca") == "expirada");
  refused(*put("/adm/licencas/999999999", R"({"status": "ativa"})", pa), 404, "nao_encontrado");

  // Bad input names the field and changes nothing.
  const std::string licenses = platform_db("select count(*) from plataforma.licencas");
  const std::string row =
      platform_db("select row(l.*)::text from plataforma.licencas l where id = " + current);
  auto create = [&](const std::string& body) { return post("/licencas", body, pa); };
  auto change = [&](const std::string& body) { return put("/adm/licencas/" + current, body, pa); };
  refused(
      *create(
          R"({"plano": "basico", "fim": "2099-12-31", "maxUsuarios": 1, "maxArmazenamentoMb": 1})"),
      400, "campo_obrigatorio", "idTenant");
  refused(
      *create(
          R"({"idTenant": 999999999, "plano": "b", "fim": "2099-12-31", "maxUsuarios": 1, "maxArmazenamentoMb": 1})"),
      404, "nao_encontrado", "");
  refused(
      *create(R"({"idTenant": 1, "fim": "2099-12-31", "maxUsuarios": 1, "maxArmazenamentoMb": 1})"),
      400, "campo_obrigatorio", "plano");
  refused(*create(R"({"idTenant": 1, "plano": "b", "maxUsuarios": 1, "maxArmazenamentoMb": 1})"),
          400, "campo_obrigatorio", "fim");
  refused(*create(R"({"idTenant": 1, "plano": "b", "fim": "2099-12-31", "maxArmazenamentoMb": 1})"),
          400, "campo_obrigatorio", "maxUsuarios");
  refused(
      *create(
          R"({"idTenant": "beta", "plano": "b", "fim": "2099-12-31", "maxUsuarios": 1, "maxArmazenamentoMb": 1})"),
      400, "parametro_invalido", "idTenant");
  refused(*create(license_body(beta, R"(, "desconto": 10)")), 400, "campo_desconhecido",
          "desconto");
  refused(*change(R"({"fim": "31/12/2099"})"), 400, "parametro_invalido", "fim");
  refused(*change(R"({"fim": "2099-13-01"})"), 400, "parametro_invalido", "fim");
  refused(*change(R"({"fim": "2099-02-30"})"), 400, "parametro_invalido", "fim");
  refused(*change(R"({"inicio": "2023-02-29"})"), 400, "parametro_invalido", "inicio");
  refused(*change(R"({"fim": "2019-12-31"})"), 400, "parametro_invalido", "fim");  // before inicio
  refused(*change(R"({"inicio": "2030-01-01", "fim": "2029-01-01"})"), 400, "parametro_invalido",
          "fim");
  refused(*change(R"({"status": "gratis"})"), 400, "parametro_invalido", "status");
  refused(*change(R"({"status": "expirada"})"), 400, "parametro_invalido",
          "status");  // a reading, not a state
  refused(*change(R"({"maxUsuarios": 0})"), 400, "parametro_invalido", "maxUsuarios");
  refused(*change(R"({"maxUsuarios": 99999999999})"), 400, "parametro_invalido", "maxUsuarios");
  refused(*change(R"({"maxArmazenamentoMb": -1})"), 400, "parametro_invalido",
          "maxArmazenamentoMb");
  refused(*change(R"({"maxUsuarios": "10"})"), 400, "parametro_invalido", "maxUsuarios");
  refused(*change(R"({"plano": ""})"), 400, "parametro_invalido", "plano");
  refused(*change(R"({"plano": ")" + std::string(101, 'p') + "\"}"), 400, "parametro_invalido",
          "plano");
  refused(*change(R"({"observacao": ")" + std::string(4001, 'o') + "\"}"), 400,
          "parametro_invalido", "observacao");
  refused(*change(R"({"idTenant": 1})"), 400, "campo_desconhecido", "idTenant");
  refused(*change("[]"), 400, "parametro_invalido", "corpo");
  refused(*put("/adm/licencas/abc", "{}", pa), 400, "parametro_invalido", "id");
  CHECK(platform_db("select count(*) from plataforma.licencas") == licenses);
  CHECK(platform_db("select row(l.*)::text from plataforma.licencas l where id = " + current) ==
        row);

  // Platform administrators only: a tenant administrator is refused, and so is everyone else.
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  Session gone = platform_admin();
  REQUIRE(post("/logout", "", gone)->status == 204);
  // A platform administrator made inactive, and a tenant administrator of beta presenting alfa.
  test::TestUser ex = stack->add_user("beta", "ex-plataforma@cadastre.test", {"*:rw"}, true);
  platform_db("update plataforma.usuarios set adm_plataforma = true where id = " +
              std::to_string(ex.id) + " returning id");
  Session inactive = login(ex.email, ex.password);
  platform_db("update plataforma.usuarios set ativo = false where id = " + std::to_string(ex.id) +
              " returning id");
  Session beta_admin = admin("beta", "chefe@beta.gov.br");
  struct Call {
    const char* method;
    std::string path, body;
  };
  for (const Call& c : {Call{"POST", "/licencas", license_body(tenant_id("alfa"))},
                        Call{"GET", "/adm/licencas", ""},
                        Call{"GET", "/adm/licencas/tenant/" + std::to_string(beta), ""},
                        Call{"PUT", "/adm/licencas/" + current, R"({"status": "ativa"})"}}) {
    CAPTURE(c.path);
    refused(*request(c.method, c.path, {}, c.body), 401, "nao_autenticado");
    refused(*request(c.method, c.path, headers(gone), c.body), 401, "nao_autenticado");
    refused(*request(c.method, c.path, headers(inactive), c.body), 401, "nao_autenticado");
    refused(*request(c.method, c.path, headers({beta_admin.token, adm.tn}), c.body), 403,
            "municipio_nao_permitido");
    refused(*request(c.method, c.path, headers(adm), c.body), 403, "acesso_negado");
    refused(*request(c.method, c.path, headers(user("alfa")), c.body), 403, "acesso_negado");
  }
  CHECK(platform_db("select count(*) from plataforma.licencas") == licenses);
  CHECK(platform_db("select row(l.*)::text from plataforma.licencas l where id = " + current) ==
        row);
}

TEST_CASE_FIXTURE(PlatformFixture, "meu-plano shows the tenant's plan, its quotas and their use") {
  Session s = user("alfa");
  auto none = get("/licencas/meu-plano", s);
  REQUIRE_MESSAGE(none->status == 200, none->body);
  CHECK(none->text("status") == "sem_licenca");
  CHECK(none->json()["licenca"].is_null());

  const std::string alfa = std::to_string(tenant_id("alfa"));
  platform_db(
      "insert into plataforma.licencas (tenant_id, plano, status, fim, max_usuarios, "
      "max_armazenamento_mb) "
      "values (" +
      alfa + ", 'basico', 'ativa', current_date + 30, 7, 250) returning id");
  test::query_value(
      stack->tenant_dsn("alfa"),
      "insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256) values "
      "('a1', 'planta', '.pdf', 'application/pdf', 1500, repeat('a', 64)), "
      "('a2', 'foto', '.jpg', 'image/jpeg', 2500, repeat('b', 64)) returning id");
  stack->add_user("alfa", "outro@alfa.gov.br", {"*:r"});
  auto plan = get("/licencas/meu-plano", s);
  REQUIRE_MESSAGE(plan->status == 200, plan->body);
  CHECK(plan->text("status") == "ativa");
  CHECK(std::string_view(plan->json()["licenca"]["plano"]) == "basico");
  CHECK(int64_t(plan->json()["usuarios"]["limite"]) == 7);
  CHECK(int64_t(plan->json()["usuarios"]["emUso"]) == 2);
  CHECK(int64_t(plan->json()["armazenamento"]["limiteMb"]) == 250);
  CHECK(int64_t(plan->json()["armazenamento"]["emUsoBytes"]) == 4000);
  CHECK(std::string_view(plan->json()["licenca"]["fim"]) ==
        platform_db("select (current_date + 30)::text"));

  // Once fim has passed, the plan and the login read 'expirada'.
  platform_db(
      "update plataforma.licencas set inicio = current_date - 60, fim = current_date - 1 where "
      "tenant_id = " +
      alfa + " returning id");
  CHECK(get("/licencas/meu-plano", s)->text("status") == "expirada");
  const auto& u = stack->user("alfa");
  CHECK(try_login(u.email, u.password)->text("statusLicenca") == "expirada");
  // Beta's plan is beta's.
  CHECK(get("/licencas/meu-plano", user("beta"))->text("status") == "sem_licenca");

  Session gone = user("alfa");
  REQUIRE(post("/logout", "", gone)->status == 204);
  refused(*request("GET", "/licencas/meu-plano", {}), 401, "nao_autenticado");
  refused(*get("/licencas/meu-plano", gone), 401, "nao_autenticado");
  refused(*get("/licencas/meu-plano", {user("beta").token, s.tn}), 403, "municipio_nao_permitido");
  Session inactive =
      login(stack->add_user("alfa", "saiu@alfa.gov.br", {"*:r"}).email, "senha-alfa");
  platform_db(
      "update plataforma.usuarios set ativo = false where email = 'saiu@alfa.gov.br' returning id");
  refused(*get("/licencas/meu-plano", inactive), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "API tokens are listed without secrets, rotated by PUT, shown once and stored as a hash") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  auto empty = get("/licencas/tokens", adm);
  REQUIRE_MESSAGE(empty->status == 200, empty->body);
  CHECK(empty->body == "[]");

  auto issued = put("/licencas/tokens", R"({"nome": "erp", "escopo": "avaliacao"})", adm);
  REQUIRE_MESSAGE(issued->status == 200, issued->body);
  const std::string first = issued->text("token");
  const std::int64_t id = int64_t(issued->json()["id"]);
  CHECK(first.size() == 64);
  CHECK(issued->text("escopo") == "avaliacao");
  const std::string where = " from plataforma.clientes_api where id = " + std::to_string(id);
  CHECK(platform_db("select segredo_hash" + where) == store::sha256_hex(first));
  CHECK(platform_db("select count(*) from plataforma.clientes_api where segredo_hash = '" + first +
                    "'") == "0");
  CHECK(platform_db("select tenant_id" + where) == std::to_string(tenant_id("alfa")));

  auto listed = get("/licencas/tokens", adm);
  CHECK(test::ids(listed->json(), "nome") == "erp");
  CHECK(listed->body.find(first) == std::string::npos);
  CHECK(listed->body.find(store::sha256_hex(first)) == std::string::npos);
  CHECK(listed->body.find("token") == std::string::npos);

  // Rotation by id: a new secret; the old one (never used, so never cached) stops working.
  auto rotated = put("/licencas/tokens", R"({"id": )" + std::to_string(id) + "}", adm);
  REQUIRE_MESSAGE(rotated->status == 200, rotated->body);
  const std::string second = rotated->text("token");
  CHECK(second != first);
  CHECK(int64_t(rotated->json()["id"]) == id);
  CHECK(platform_db("select segredo_hash" + where) == store::sha256_hex(second));
  CHECK(valuation_with(*this, first) == 401);
  CHECK(valuation_with(*this, second) == 200);
  // Issuing the same name again rotates that token instead of adding another.
  auto again = put("/licencas/tokens", R"({"nome": "erp", "escopo": "avaliacao"})", adm);
  CHECK(int64_t(again->json()["id"]) == id);
  CHECK(platform_db("select count(*) from plataforma.clientes_api where tenant_id = " +
                    std::to_string(tenant_id("alfa"))) == "1");
  CHECK(platform_db("select segredo_hash" + where) == store::sha256_hex(again->text("token")));

  // Another tenant's token: 404, and its secret is unchanged.
  Session beta = admin("beta", "chefe@beta.gov.br");
  auto theirs = put("/licencas/tokens", R"({"nome": "sig", "escopo": "integracao"})", beta);
  REQUIRE(theirs->status == 200);
  const std::string their_id = std::to_string(int64_t(theirs->json()["id"]));
  const std::string their_hash =
      platform_db("select segredo_hash from plataforma.clientes_api where id = " + their_id);
  refused(*put("/licencas/tokens", R"({"id": )" + their_id + "}", adm), 404, "nao_encontrado");
  CHECK(platform_db("select segredo_hash from plataforma.clientes_api where id = " + their_id) ==
        their_hash);
  CHECK(get("/licencas/tokens", adm)->body.find("sig") == std::string::npos);

  const std::string hash = platform_db("select segredo_hash" + where);
  refused(*put("/licencas/tokens", "{}", adm), 400, "campo_obrigatorio", "nome");
  refused(*put("/licencas/tokens", R"({"nome": "x"})", adm), 400, "campo_obrigatorio", "escopo");
  refused(*put("/licencas/tokens", R"({"nome": "x", "escopo": "provas_digitais"})", adm), 400,
          "parametro_invalido", "escopo");
  refused(*put("/licencas/tokens", R"({"nome": "", "escopo": "avaliacao"})", adm), 400,
          "parametro_invalido", "nome");
  refused(*put("/licencas/tokens",
               R"({"nome": ")" + std::string(101, 'n') + R"(", "escopo": "avaliacao"})", adm),
          400, "parametro_invalido", "nome");
  refused(*put("/licencas/tokens", R"({"id": "1"})", adm), 400, "parametro_invalido", "id");
  refused(*put("/licencas/tokens", R"({"id": 1, "segredo": "x"})", adm), 400, "campo_desconhecido",
          "segredo");
  refused(*put("/licencas/tokens", R"({"id": 999999999})", adm), 404, "nao_encontrado");
  CHECK(platform_db("select segredo_hash" + where) == hash);
  CHECK(platform_db("select count(*) from plataforma.clientes_api") == "2");

  Session plain = user("alfa");
  Session gone = admin("alfa", "saiu@alfa.gov.br");
  REQUIRE(post("/logout", "", gone)->status == 204);
  Session inactive = admin("alfa", "inativo@alfa.gov.br");
  platform_db("update plataforma.usuarios set ativo = false where id = " +
              std::to_string(inactive.user_id) + " returning id");
  for (const char* method : {"GET", "PUT"}) {
    CAPTURE(method);
    const std::string body = R"({"id": )" + std::to_string(id) + "}";
    refused(*request(method, "/licencas/tokens", {}, body), 401, "nao_autenticado");
    refused(*request(method, "/licencas/tokens", headers(gone), body), 401, "nao_autenticado");
    refused(*request(method, "/licencas/tokens", headers(inactive), body), 401, "nao_autenticado");
    refused(*request(method, "/licencas/tokens", headers(plain), body), 403, "acesso_negado");
    refused(*request(method, "/licencas/tokens", headers({beta.token, adm.tn}), body), 403,
            "municipio_nao_permitido");
  }
  CHECK(platform_db("select segredo_hash" + where) == hash);
}
