// /usuarios: a tenant's administrators list, create, read, change and inactivate its users
// and send them password links; platform administrators list everyone (/usuarios/all). The
// license's user quota holds under concurrent creations; inactivation ends sessions at once;
// another tenant's users are out of reach (404, nothing changed).
#include <atomic>
#include <set>
#include <thread>

#include "fixture.hpp"

using namespace cadastre;
using test::refused;
using test::PlatformFixture;
using test::Session;

namespace {

std::string of_user(const PlatformFixture& f, const std::string& expr, std::int64_t id) {
  return f.platform_db("select " + expr +
                       " from plataforma.usuarios where id = " + std::to_string(id));
}

// The callers every administrators' route refuses, with the answer each gets.
struct Intruders {
  Session revoked, inactive_admin, non_admin, other_tenant;
};

Intruders intruders(PlatformFixture& f, const Session& admin_of_alfa) {
  Intruders i;
  i.revoked = f.admin("alfa", "revogado@alfa.gov.br");
  REQUIRE(f.post("/logout", "", i.revoked)->status == 204);
  i.inactive_admin = f.admin("alfa", "inativo@alfa.gov.br");
  f.platform_db("update plataforma.usuarios set ativo = false where id = " +
                std::to_string(i.inactive_admin.user_id) + " returning id");
  i.non_admin =
      f.login(f.stack->add_user("alfa", "comum@alfa.gov.br", {"*:rw"}).email, "senha-alfa");
  Session beta = f.admin("beta", "chefe@beta.gov.br");
  i.other_tenant = {beta.token, admin_of_alfa.tn, beta.user_id};
  return i;
}

void check_refused(PlatformFixture& f, const Intruders& i, const std::string& method,
                   const std::string& path, const std::string& body, bool admins_only = true) {
  CAPTURE(method);
  CAPTURE(path);
  refused(*f.request(method, path, {}, body), 401, "nao_autenticado");
  refused(*f.request(method, path, PlatformFixture::headers(i.revoked), body), 401,
          "nao_autenticado");
  refused(*f.request(method, path, PlatformFixture::headers(i.inactive_admin), body), 401,
          "nao_autenticado");
  refused(*f.request(method, path, PlatformFixture::headers(i.other_tenant), body), 403,
          "municipio_nao_permitido");
  if (admins_only)
    refused(*f.request(method, path, PlatformFixture::headers(i.non_admin), body), 403,
            "acesso_negado");
}

std::string ids_of(test::Answer& a) { return test::ids(a.json()["content"]); }

}  // namespace

TEST_CASE_FIXTURE(
    PlatformFixture,
    "administrators page through their tenant's users; platform administrators through all") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  for (const char* e : {"b@alfa.gov.br", "c@alfa.gov.br", "d@alfa.gov.br"})
    stack->add_user("alfa", e, {"*:r"});
  platform_db(
      "update plataforma.usuarios set ativo = false where email = 'd@alfa.gov.br' returning id");
  const std::string alfa = std::to_string(tenant_id("alfa"));

  auto page = get("/usuarios", adm);
  REQUIRE_MESSAGE(page->status == 200, page->body);
  CHECK(ids_of(*page) ==
        platform_db("select string_agg(id::text, ',' order by id) from plataforma.usuarios "
                    "where tenant_id = " +
                    alfa));
  CHECK(int64_t(page->json()["totalElements"]) == 5);
  CHECK(int64_t(page->json()["pageNumber"]) == 1);
  CHECK(int64_t(page->json()["pageSize"]) == 10);
  CHECK(int64_t(page->json()["totalPages"]) == 1);
  CHECK(page->body.find("senha") == std::string::npos);
  CHECK(page->body.find("beta.gov.br") == std::string::npos);

  auto second = get("/usuarios?pageSize=2&pageNumber=2&orderBy=email&direction=desc", adm);
  REQUIRE_MESSAGE(second->status == 200, second->body);
  CHECK(test::ids(second->json()["content"], "email") ==
        platform_db(
            "select string_agg(email, ',' order by email desc, id) from (select email, id from "
            "plataforma.usuarios where tenant_id = " +
            alfa + " order by email desc, id limit 2 offset 2) p"));
  CHECK(int64_t(second->json()["totalPages"]) == 3);
  auto inactive = get("/usuarios?ativo=false", adm);
  CHECK(test::ids(inactive->json()["content"], "email") == "d@alfa.gov.br");
  CHECK(int64_t(get("/usuarios?ativo=true", adm)->json()["totalElements"]) == 4);
  auto beyond = get("/usuarios?pageNumber=2147483647&pageSize=1000", adm);
  REQUIRE_MESSAGE(beyond->status == 200, beyond->body);
  CHECK(beyond->json()["content"].get_array().size() == 0);
  CHECK(int64_t(beyond->json()["totalElements"]) == 5);

  for (const char* path : {"/usuarios", "/usuarios/all"}) {
    CAPTURE(path);
    Session who = std::string(path) == "/usuarios" ? adm : platform_admin();
    const std::string p = path;
    refused(*get(p + "?pageSize=0", who), 400, "parametro_invalido", "pageSize");
    refused(*get(p + "?pageSize=1001", who), 400, "parametro_invalido", "pageSize");
    refused(*get(p + "?pageSize=dez", who), 400, "parametro_invalido", "pageSize");
    refused(*get(p + "?pageNumber=0", who), 400, "parametro_invalido", "pageNumber");
    refused(*get(p + "?orderBy=senha_hash", who), 400, "parametro_invalido", "orderBy");
    refused(*get(p + "?orderBy=id%3Bdrop", who), 400, "parametro_invalido", "orderBy");
    refused(*get(p + "?direction=up", who), 400, "parametro_invalido", "direction");
    refused(*get(p + "?ativo=sim", who), 400, "parametro_invalido", "ativo");
    refused(*get(p + "?tenant=beta", who), 400, "campo_desconhecido", "tenant");
    refused(*get(p + "?pageSize=1&pageSize=2", who), 400, "parametro_invalido", "pageSize");
  }

  // Everyone, for platform administrators only.
  Session pa = platform_admin();
  auto all = get("/usuarios/all?pageSize=1000", pa);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(ids_of(*all) ==
        platform_db("select string_agg(id::text, ',' order by id) from plataforma.usuarios"));
  CHECK(all->body.find("usuario@beta.gov.br") != std::string::npos);
  refused(*get("/usuarios/all", adm), 403, "acesso_negado");
  // A platform administrator working in beta sees beta's users on /usuarios.
  auto in_beta = get("/usuarios", {pa.token, store::encode_tenant_token(tenant_id("beta"))});
  CHECK(test::ids(in_beta->json()["content"], "email") == "usuario@beta.gov.br");

  Intruders i = intruders(*this, adm);
  check_refused(*this, i, "GET", "/usuarios", "");
  check_refused(*this, i, "GET", "/usuarios/all", "");
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "an administrator creates a user, who gets a link to choose a password") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  auto made =
      post("/usuarios", R"({"nome": "Novo Fiscal", "email": "Novo@Alfa.gov.br", "cargo": "Fiscal",
                                    "telefone": "48 9999-0000", "permissoes": ["lote:rw", "*:r"]})",
           adm);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  auto u = made->json()["usuario"];
  const std::int64_t id = int64_t(u["id"]);
  CHECK(std::string_view(u["email"]) == "novo@alfa.gov.br");
  CHECK(int64_t(u["idTenant"]) == tenant_id("alfa"));
  CHECK_FALSE(bool(u["adm"]));
  CHECK(test::ids(u["permissoes"], "camada") == "*,lote");
  CHECK(bool(made->json()["linkDeSenhaEnviado"]));
  CHECK(made->body.find("senha\"") == std::string::npos);
  CHECK(of_user(*this, "coalesce(senha_hash, 'sem senha') || '|' || cargo || '|' || ativo", id) ==
        "sem senha|Fiscal|true");
  CHECK(platform_db(
            "select string_agg(camada || ':' || leitura || escrita, ',' order by camada) from "
            "plataforma.permissoes_camada where usuario_id = " +
            std::to_string(id)) == "*:truefalse,lote:truetrue");

  // The link: a reset link to the new user's address, which sets their first password.
  std::string link = link_in_mail(1);
  CHECK(sink->messages().back().to == "novo@alfa.gov.br");
  CHECK(sink->messages().back().subject == "Redefinição de senha");
  auto set = request("POST", "/recuperarsenha", {},
                     R"({"token": ")" + token_of(link) + R"(", "senha": "minha-senha-1"})");
  REQUIRE_MESSAGE(set->status == 200, set->body);
  auto first = try_login("novo@alfa.gov.br", "minha-senha-1");
  REQUIRE_MESSAGE(first->status == 200, first->body);
  CHECK_FALSE(bool(first->json()["adm"]));

  // Without permissoes, a user reads every layer.
  auto plain =
      post("/usuarios", R"({"nome": "Leitor", "email": "leitor@alfa.gov.br", "adm": true})", adm);
  REQUIRE_MESSAGE(plain->status == 201, plain->body);
  CHECK(test::ids(plain->json()["usuario"]["permissoes"], "camada") == "*");
  CHECK(bool(plain->json()["usuario"]["adm"]));

  const std::string users = platform_db("select count(*) from plataforma.usuarios");
  refused(*post("/usuarios", R"({"nome": "Dup", "email": "usuario@beta.gov.br"})", adm), 409,
          "conflito", "e-mail");
  refused(*post("/usuarios", R"({"email": "x@alfa.gov.br"})", adm), 400, "campo_obrigatorio",
          "nome");
  refused(*post("/usuarios", R"({"nome": "X"})", adm), 400, "campo_obrigatorio", "email");
  refused(*post("/usuarios", R"({"nome": "", "email": "x@alfa.gov.br"})", adm), 400,
          "parametro_invalido", "nome");
  refused(*post("/usuarios", R"({"nome": "X", "email": "x"})", adm), 400, "parametro_invalido",
          "email");
  refused(*post("/usuarios", R"({"nome": "X", "email": "x@alfa.gov.br", "senha": "s"})", adm), 400,
          "campo_desconhecido", "senha");
  refused(
      *post("/usuarios", R"({"nome": "X", "email": "x@alfa.gov.br", "admPlataforma": true})", adm),
      400, "campo_desconhecido", "admPlataforma");
  refused(*post("/usuarios", R"({"nome": "X", "email": "x@alfa.gov.br", "adm": "sim"})", adm), 400,
          "parametro_invalido", "adm");
  refused(*post("/usuarios",
                R"({"nome": ")" + std::string(201, 'n') + R"(", "email": "x@alfa.gov.br"})", adm),
          400, "parametro_invalido", "nome");
  refused(
      *post("/usuarios",
            R"({"nome": "X", "email": "x@alfa.gov.br", "cargo": ")" + std::string(101, 'c') + "\"}",
            adm),
      400, "parametro_invalido", "cargo");
  refused(*post("/usuarios", R"({"nome": "X", "email": "x@alfa.gov.br", "permissoes": ["lote:x"]})",
                adm),
          400, "parametro_invalido", "permissoes");
  refused(
      *post("/usuarios", R"({"nome": "X", "email": "x@alfa.gov.br", "permissoes": ["lote"]})", adm),
      400, "parametro_invalido", "permissoes");
  refused(*post("/usuarios",
                R"({"nome": "X", "email": "x@alfa.gov.br", "permissoes": ["lote;drop:r"]})", adm),
          400, "parametro_invalido", "permissoes");
  refused(
      *post("/usuarios",
            R"({"nome": "X", "email": "x@alfa.gov.br", "permissoes": ["lote:r", "lote:rw"]})", adm),
      400, "parametro_invalido", "permissoes");
  refused(
      *post("/usuarios", R"({"nome": "X", "email": "x@alfa.gov.br", "permissoes": "lote:r"})", adm),
      400, "parametro_invalido", "permissoes");
  refused(*post("/usuarios", "[]", adm), 400, "parametro_invalido", "corpo");
  CHECK(platform_db("select count(*) from plataforma.usuarios") == users);
  CHECK(sink->messages().size() == 2);

  Intruders i = intruders(*this, adm);
  check_refused(*this, i, "POST", "/usuarios",
                R"({"nome": "Intruso", "email": "intruso@alfa.gov.br"})");
  CHECK(platform_db(
            "select count(*) from plataforma.usuarios where email = 'intruso@alfa.gov.br'") == "0");
  CHECK(sink->messages().size() == 2);
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "the license's user quota: a full tenant refuses new users, and a race takes the "
                  "last seat once") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  const std::string alfa = std::to_string(tenant_id("alfa"));
  // Two active users now (the harness's and the administrator): room for one more.
  platform_db(
      "insert into plataforma.licencas (tenant_id, plano, status, fim, max_usuarios, "
      "max_armazenamento_mb) "
      "values (" +
      alfa + ", 'basico', 'ativa', current_date + 30, 3, 100) returning id");

  std::atomic<int> created{0}, full{0}, other{0};
  std::vector<std::thread> racers;
  for (int n = 0; n < 2; ++n)
    racers.emplace_back([&, n] {
      auto c = client();
      auto r = c.Post(
          "/usuarios", headers(adm),
          R"({"nome": "Corredor", "email": "corredor)" + std::to_string(n) + R"(@alfa.gov.br"})",
          "application/json");
      if (r && r->status == 201)
        ++created;
      else if (r && r->status == 403 && r->body.find("cota") != std::string::npos)
        ++full;
      else
        ++other;
    });
  for (auto& t : racers) t.join();
  CHECK(created == 1);
  CHECK(full == 1);
  CHECK(other == 0);
  CHECK(platform_db("select count(*) from plataforma.usuarios where tenant_id = " + alfa +
                    " and ativo") == "3");

  refused(*post("/usuarios", R"({"nome": "Mais Um", "email": "mais@alfa.gov.br"})", adm), 403,
          "cota_excedida", "cota");
  CHECK(platform_db("select count(*) from plataforma.usuarios where email = 'mais@alfa.gov.br'") ==
        "0");
  auto plan = get("/licencas/meu-plano", adm);
  CHECK(int64_t(plan->json()["usuarios"]["emUso"]) == 3);
  CHECK(int64_t(plan->json()["usuarios"]["limite"]) == 3);

  // Inactivating a user frees the seat.
  REQUIRE(
      put("/usuarios/" + std::to_string(stack->user("alfa").id) + "/inativar", "", adm)->status ==
      200);
  CHECK(post("/usuarios", R"({"nome": "Mais Um", "email": "mais@alfa.gov.br"})", adm)->status ==
        201);
  // Beta's quota is beta's: alfa's license does not bind it.
  Session beta = admin("beta", "chefe@beta.gov.br");
  CHECK(post("/usuarios", R"({"nome": "Beta Novo", "email": "novo@beta.gov.br"})", beta)->status ==
        201);
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "reading and changing a user: the tenant's administrators, the tenant's users only") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  const auto& plain = stack->user("alfa");
  const auto& foreign = stack->user("beta");
  const std::string p = "/usuarios/" + std::to_string(plain.id),
                    f = "/usuarios/" + std::to_string(foreign.id);

  auto one = get(p, adm);
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(one->text("email") == plain.email);
  CHECK(test::ids(one->json()["permissoes"], "camada") == "*");
  Session self = user("alfa");
  CHECK(get(p, self)->status == 200);  // a user reads their own record
  refused(*get("/usuarios/" + std::to_string(adm.user_id), self), 403, "acesso_negado");
  refused(*get(f, adm), 404, "nao_encontrado");
  refused(*get("/usuarios/abc", adm), 400, "parametro_invalido", "id");
  refused(*get("/usuarios/0", adm), 400, "parametro_invalido", "id");
  refused(*get("/usuarios/999999999", adm), 404, "nao_encontrado");

  auto changed =
      put(p, R"({"nome": "Fiscal Chefe", "cargo": "Chefe", "adm": true, "permissoes": ["lote:r"]})",
          adm);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(changed->text("nome") == "Fiscal Chefe");
  CHECK(bool(changed->json()["adm"]));
  CHECK(of_user(*this, "nome || '|' || cargo || '|' || adm", plain.id) ==
        "Fiscal Chefe|Chefe|true");
  CHECK(platform_db("select string_agg(camada || ':' || leitura || escrita, ',') from "
                    "plataforma.permissoes_camada "
                    "where usuario_id = " +
                    std::to_string(plain.id)) == "lote:truefalse");
  CHECK(bool(get("/minha-conta", self)->json()["adm"]));  // at once

  const std::string before = of_user(
      *this, "nome || '|' || coalesce(cargo, '') || '|' || adm || '|' || email", foreign.id);
  refused(*put(f, R"({"nome": "Tomado", "adm": true})", adm), 404, "nao_encontrado");
  CHECK(of_user(*this, "nome || '|' || coalesce(cargo, '') || '|' || adm || '|' || email",
                foreign.id) == before);
  refused(*put("/usuarios/" + std::to_string(adm.user_id), R"({"adm": false})", adm), 409,
          "conflito", "adm");
  refused(*put(p, R"({"email": "usuario@beta.gov.br"})", adm), 409, "conflito", "e-mail");
  refused(*put(p, R"({"nome": ""})", adm), 400, "parametro_invalido", "nome");
  refused(*put(p, R"({"senha": "x"})", adm), 400, "campo_desconhecido", "senha");
  refused(*put(p, R"({"ativo": true})", adm), 400, "campo_desconhecido", "ativo");
  refused(*put(p, R"({"telefone": ")" + std::string(41, '1') + "\"}", adm), 400,
          "parametro_invalido", "telefone");
  refused(*put(p, R"({"permissoes": ["lote:r", "lote:w"]})", adm), 400, "parametro_invalido",
          "permissoes");
  refused(*put("/usuarios/abc", "{}", adm), 400, "parametro_invalido", "id");
  CHECK(of_user(*this, "nome || '|' || cargo || '|' || adm || '|' || email", plain.id) ==
        "Fiscal Chefe|Chefe|true|" + plain.email);

  Intruders i = intruders(*this, adm);
  check_refused(*this, i, "GET", p, "", false);
  check_refused(*this, i, "PUT", p, R"({"nome": "Intruso"})");
  CHECK(platform_db("select count(*) from plataforma.usuarios where nome = 'Intruso'") == "0");
}

TEST_CASE_FIXTURE(PlatformFixture, "inactivating a user ends their sessions at once") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  const auto& target = stack->user("alfa");
  Session phone = user("alfa"), desk = user("alfa");
  CHECK(get("/minha-conta", phone)->status == 200);
  const std::string path = "/usuarios/" + std::to_string(target.id) + "/inativar";

  auto done = put(path, "", adm);
  REQUIRE_MESSAGE(done->status == 200, done->body);
  CHECK_FALSE(bool(done->json()["ativo"]));
  CHECK(of_user(*this, "ativo", target.id) == "f");
  refused(*get("/minha-conta", phone), 401, "nao_autenticado");
  refused(*get("/minha-conta", desk), 401, "nao_autenticado");
  CHECK(platform_db("select count(*) from plataforma.sessoes where usuario_id = " +
                    std::to_string(target.id) + " and revogada_em is null") == "0");
  CHECK(try_login(target.email, target.password)->status == 401);
  CHECK(int64_t(get("/usuarios?ativo=false", adm)->json()["totalElements"]) == 1);

  refused(*put("/usuarios/" + std::to_string(adm.user_id) + "/inativar", "", adm), 409, "conflito");
  const auto& foreign = stack->user("beta");
  Session beta_session = user("beta");
  refused(*put("/usuarios/" + std::to_string(foreign.id) + "/inativar", "", adm), 404,
          "nao_encontrado");
  CHECK(of_user(*this, "ativo", foreign.id) == "t");
  CHECK(get("/minha-conta", beta_session)->status == 200);
  refused(*put("/usuarios/x/inativar", "", adm), 400, "parametro_invalido", "id");

  test::TestUser other = stack->add_user("alfa", "outro@alfa.gov.br", {"*:r"});
  Intruders i = intruders(*this, adm);
  check_refused(*this, i, "PUT", "/usuarios/" + std::to_string(other.id) + "/inativar", "");
  CHECK(of_user(*this, "ativo", other.id) == "t");
}

TEST_CASE_FIXTURE(PlatformFixture, "gerar-senha sends the user a reset link and never a password") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  const auto& target = stack->user("alfa");
  Session old = user("alfa");
  const std::string path = "/usuarios/" + std::to_string(target.id) + "/gerar-senha";
  auto sent = post(path, "", adm);
  REQUIRE_MESSAGE(sent->status == 202, sent->body);
  CHECK(sent->body.find("senha\":") == std::string::npos);
  std::string link = link_in_mail(1);
  CHECK(sink->messages().back().to == target.email);
  CHECK(sink->messages().back().subject == "Redefinição de senha");
  CHECK(try_login(target.email, target.password)->status ==
        200);  // nothing changes until the link is used
  auto set = request("POST", "/recuperarsenha", {},
                     R"({"token": ")" + token_of(link) + R"(", "senha": "escolhida-1"})");
  REQUIRE_MESSAGE(set->status == 200, set->body);
  CHECK(get("/minha-conta", old)->status == 401);
  CHECK(try_login(target.email, "escolhida-1")->status == 200);

  refused(*post("/usuarios/" + std::to_string(stack->user("beta").id) + "/gerar-senha", "", adm),
          404, "nao_encontrado");
  test::TestUser gone = stack->add_user("alfa", "saiu@alfa.gov.br", {"*:r"});
  platform_db("update plataforma.usuarios set ativo = false where id = " + std::to_string(gone.id) +
              " returning id");
  refused(*post("/usuarios/" + std::to_string(gone.id) + "/gerar-senha", "", adm), 404,
          "nao_encontrado");
  Intruders i = intruders(*this, adm);
  check_refused(*this, i, "POST", path, "");
  CHECK(sink->messages().size() == 1);
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "a tenant administrator cannot take over a platform administrator of the tenant") {
  Session pa = platform_admin();  // a user of alfa
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  const std::string p = "/usuarios/" + std::to_string(pa.user_id);
  const std::string before =
      of_user(*this, "email || '|' || adm || '|' || ativo || '|' || nome", pa.user_id);
  refused(*put(p, R"({"email": "chefe2@alfa.gov.br"})", adm), 403, "acesso_negado");
  refused(*put(p, R"({"adm": false, "nome": "Rebaixado"})", adm), 403, "acesso_negado");
  refused(*put(p + "/inativar", "", adm), 403, "acesso_negado");
  refused(*post(p + "/gerar-senha", "", adm), 403, "acesso_negado");
  CHECK(of_user(*this, "email || '|' || adm || '|' || ativo || '|' || nome", pa.user_id) == before);
  CHECK(get("/minha-conta", pa)->status == 200);
  CHECK(sink->messages().empty());
  // The tenant administrator still reads them, and a platform administrator manages them.
  CHECK(get(p, adm)->status == 200);
  CHECK(put(p, R"({"cargo": "Plataforma"})", pa)->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "a platform administrator manages another tenant's users through its tnToken") {
  Session pa = platform_admin();
  Session in_beta{pa.token, store::encode_tenant_token(tenant_id("beta")), pa.user_id};
  auto made = post("/usuarios", R"({"nome": "Beta Dois", "email": "dois@beta.gov.br"})", in_beta);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  CHECK(platform_db("select t.slug from plataforma.usuarios u join plataforma.tenants t on t.id = "
                    "u.tenant_id "
                    "where u.email = 'dois@beta.gov.br'") == "beta");
  const std::string b = "/usuarios/" + std::to_string(stack->user("beta").id);
  CHECK(put(b, R"({"cargo": "Auditor"})", in_beta)->status == 200);
  CHECK(of_user(*this, "cargo", stack->user("beta").id) == "Auditor");
  // In alfa, the same id is another tenant's.
  refused(*put(b, R"({"cargo": "Outro"})", pa), 404, "nao_encontrado");
}

TEST_CASE(
    "a user created while the mail server is down exists, and the answer says the link was not "
    "sent") {
  PlatformFixture f(
      [](platform::AppOptions& o) { o.smtp.url = "smtp://127.0.0.1:9"; });  // nothing listens there
  Session adm = f.admin("alfa", "chefe@alfa.gov.br");
  auto made = f.post("/usuarios", R"({"nome": "Sem Link", "email": "semlink@alfa.gov.br"})", adm);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  CHECK_FALSE(bool(made->json()["linkDeSenhaEnviado"]));
  const std::int64_t id = int64_t(made->json()["usuario"]["id"]);
  CHECK(of_user(f, "email || '|' || ativo", id) == "semlink@alfa.gov.br|true");
  // gerar-senha says the mail could not go.
  refused(*f.post("/usuarios/" + std::to_string(id) + "/gerar-senha", "", adm), 503,
          "servico_indisponivel");
}
