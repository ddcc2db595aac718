// Accounts by e-mail: self-service sign-up (POST /nova-conta and its older form POST /email),
// the confirmation link (GET /nova-conta/confirmar), password recovery (POST /recuperarsenha)
// and an administrator's message to the tenant's users (POST /email/personalizado). Checked
// over HTTP, in the platform database and in the private SMTP server's mailbox.
#include <set>

#include "fixture.hpp"
#include "platform/rules.hpp"

using namespace cadastre;
using test::refused;
using test::PlatformFixture;
using test::Session;

namespace {

std::string sha256_of(const PlatformFixture& f, const std::string& token) {
  return f.platform_db("select encode(sha256('" + token + "'::bytea), 'hex')");
}

std::string sign_up_body(const std::string& email, const std::string& municipio,
                         const std::string& senha = "senha-forte-1") {
  return R"({"nome": "Gestora Teste", "email": ")" + email + R"(", "senha": ")" + senha +
         R"(", "empresa": "Prefeitura de Teste", "cnpj": "12.345.678/0001-95", "telefone": "48 3333-0000",)"
         R"( "municipio": ")" +
         municipio + R"(", "uf": "SC"})";
}

// A user of `slug` and their session, made inactive afterwards (the session stays in the store).
Session inactive_user(PlatformFixture& f, const std::string& slug, const std::string& email,
                      bool admin) {
  test::TestUser u = f.stack->add_user(slug, email, {"*:r"}, admin);
  Session s = f.login(u.email, u.password);
  f.platform_db("update plataforma.usuarios set ativo = false where id = " +
                std::to_string(s.user_id) + " returning id");
  return s;
}

Session revoked_session(PlatformFixture& f, const std::string& slug) {
  Session s = f.user(slug);
  REQUIRE(f.post("/logout", "", s)->status == 204);
  return s;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture,
                  "sign-up creates a pending account and its confirmation link activates it with "
                  "its own database") {
  const std::string municipio = unique("Municipio Conta"),
                    email = "gestora." + std::to_string(::getpid()) + "@conta.test";
  const std::string slug = platform::slug_from(municipio);
  auto a = request("POST", "/nova-conta", {}, sign_up_body(email, municipio));
  REQUIRE_MESSAGE(a->status == 202, a->body);
  CHECK_FALSE(a->mensagem().empty());

  // Pending: an inactive tenant, its company, an unconfirmed administrator, a trial license.
  const std::string tid =
      platform_db("select id from plataforma.tenants where slug = '" + slug + "'");
  REQUIRE_FALSE(tid.empty());
  CHECK(platform_db(
            "select ativo::text || '|' || nome || '|' || uf from plataforma.tenants where id = " +
            tid) == "false|" + municipio + "|SC");
  CHECK(
      platform_db(
          "select nome || '|' || cnpj || '|' || email from plataforma.empresas where tenant_id = " +
          tid) == "Prefeitura de Teste|12345678000195|" + email);
  CHECK(
      platform_db("select adm::text || '|' || email_confirmado::text || '|' || (senha_hash like "
                  "'$argon2id$%')::text "
                  "|| '|' || (empresa_id = (select id from plataforma.empresas where tenant_id = " +
                  tid + "))::text from plataforma.usuarios where tenant_id = " + tid) ==
      "true|false|true|true");
  CHECK(platform_db("select plano || '|' || status || '|' || (fim = current_date + 30)::text || "
                    "'|' || max_usuarios "
                    "from plataforma.licencas where tenant_id = " +
                    tid) == "teste|teste|true|5");
  CHECK(try_login(email, "senha-forte-1")->status == 401);  // not before the confirmation

  // The mail: to the address, with a link to this platform's confirmation route.
  std::string link = link_in_mail(1);
  auto mail = sink->messages().front();
  CHECK(mail.to == email);
  CHECK(mail.subject == "Confirme seu cadastro");
  CHECK(link.rfind(app->public_url() + "/nova-conta/confirmar?token=", 0) == 0);
  std::string token = token_of(link);
  CHECK(platform_db("select finalidade from plataforma.tokens_uso_unico where token_hash = '" +
                    sha256_of(*this, token) + "'") == "confirmar_conta");
  CHECK(platform_db("select count(*) from plataforma.tokens_uso_unico where token_hash = '" +
                    token + "'") == "0");

  auto confirmed = request("GET", path_of(link), {});
  REQUIRE_MESSAGE(confirmed->status == 200, confirmed->body);
  CHECK(confirmed->text("email") == email);
  CHECK(store::decode_tenant_token(confirmed->text("tnToken")) == std::stoll(tid));
  CHECK(platform_db("select ativo::text || '|' || (dsn like '%cad_" + slug +
                    "%')::text from plataforma.tenants "
                    "where id = " +
                    tid) == "true|true");
  CHECK(platform_db("select email_confirmado::text from plataforma.usuarios where tenant_id = " +
                    tid) == "true");
  CHECK(test::query_value(test::cluster_dsn(),
                          "select count(*) from pg_database where datname = 'cad_" + slug + "'") ==
        "1");

  // The account works: its administrator signs in to a trial license.
  auto login = try_login(email, "senha-forte-1");
  REQUIRE_MESSAGE(login->status == 200, login->body);
  CHECK(login->text("statusLicenca") == "teste");
  CHECK(bool(login->json()["adm"]));
  Session s = session_of(*login);
  auto config = get("/tenants/config", s);
  CHECK(std::string_view(config->json()["tenant"]["slug"]) == slug);

  // The link works once.
  refused(*request("GET", path_of(link), {}), 400, "parametro_invalido", "token");

  {  // A second account of the same municipality name gets the next free name (POST /email, the
     // older form).
    const std::string other = "outra." + std::to_string(::getpid()) + "@conta.test";
    auto b = request("POST", "/email", {}, sign_up_body(other, municipio));
    REQUIRE_MESSAGE(b->status == 202, b->body);
    CHECK(b->body == a->body);
    CHECK(platform_db("select t.slug from plataforma.tenants t join plataforma.usuarios u on "
                      "u.tenant_id = t.id "
                      "where u.email = '" +
                      other + "'") == slug + "_2");
    std::string second = link_in_mail(2);
    CHECK(sink->messages().back().to == other);
    auto ok = request("GET", path_of(second), {});
    REQUIRE_MESSAGE(ok->status == 200, ok->body);
    CHECK(test::query_value(
              test::cluster_dsn(),
              "select count(*) from pg_database where datname = 'cad_" + slug + "_2'") == "1");
  }
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "a second sign-up of a pending e-mail replaces the pending account and its link") {
  const std::string municipio = unique("Municipio Pendente"),
                    email = "pendente." + std::to_string(::getpid()) + "@conta.test";
  REQUIRE(request("POST", "/nova-conta", {}, sign_up_body(email, municipio, "primeira-senha"))
              ->status == 202);
  std::string first = link_in_mail(1);
  // The confirmation was lost: signing up again sends a fresh link, for the latest request.
  auto again = request("POST", "/nova-conta", {}, sign_up_body(email, municipio, "segunda-senha"));
  REQUIRE_MESSAGE(again->status == 202, again->body);
  std::string second = link_in_mail(2);
  CHECK(sink->messages().back().to == email);
  CHECK(sink->messages().back().subject == "Confirme seu cadastro");
  CHECK(platform_db("select count(*) from plataforma.usuarios where email = '" + email + "'") ==
        "1");
  CHECK(platform_db("select count(*) from plataforma.tenants where nome = '" + municipio + "'") ==
        "1");
  refused(*request("GET", path_of(first), {}), 400, "parametro_invalido", "token");
  REQUIRE(request("GET", path_of(second), {})->status == 200);
  CHECK(try_login(email, "primeira-senha")->status == 401);
  CHECK(try_login(email, "segunda-senha")->status == 200);
  // Confirmed, the account is no longer replaced: a third sign-up gets a reset link instead.
  REQUIRE(request("POST", "/nova-conta", {}, sign_up_body(email, municipio, "terceira-senha"))
              ->status == 202);
  link_in_mail(3);
  CHECK(sink->messages().back().subject == "Redefinição de senha");
  CHECK(try_login(email, "segunda-senha")->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "sign-up and recovery answer alike whether or not the e-mail has an account") {
  const auto& existing = stack->user("alfa");
  const std::string tenants = platform_db("select count(*) from plataforma.tenants");

  // Sign-up: an existing address gets a password reset link instead of a second account.
  auto known = request("POST", "/nova-conta", {},
                       sign_up_body(existing.email, unique("Municipio Duplicado")));
  REQUIRE_MESSAGE(known->status == 202, known->body);
  CHECK(platform_db("select count(*) from plataforma.tenants") == tenants);
  CHECK(platform_db("select count(*) from plataforma.usuarios where lower(email) = '" +
                    existing.email + "'") == "1");
  std::string reset = link_in_mail(1);
  CHECK(sink->messages().back().to == existing.email);
  CHECK(sink->messages().back().subject == "Redefinição de senha");
  CHECK(reset.rfind(app->public_url() + "/redefinir-senha?token=", 0) == 0);
  CHECK(try_login(existing.email, existing.password)->status == 200);  // the password is unchanged

  auto fresh = request(
      "POST", "/nova-conta", {},
      sign_up_body("nova." + std::to_string(::getpid()) + "@conta.test", unique("Municipio Novo")));
  REQUIRE(fresh->status == 202);
  CHECK(fresh->body == known->body);
  link_in_mail(2);
  CHECK(sink->messages().back().subject == "Confirme seu cadastro");

  // Recovery: the same answer for a known address (any case) and an unknown one; mail only to the
  // first.
  auto ask = request("POST", "/recuperarsenha", {}, R"({"email": "  USUARIO@ALFA.GOV.BR "})");
  REQUIRE_MESSAGE(ask->status == 202, ask->body);
  link_in_mail(3);
  CHECK(sink->messages().back().to == existing.email);
  auto nobody = request("POST", "/recuperarsenha", {}, R"({"email": "ninguem@alfa.gov.br"})");
  CHECK(nobody->status == 202);
  CHECK(nobody->body == ask->body);
  // An inactive user is nobody too.
  inactive_user(*this, "alfa", "inativo@alfa.gov.br", false);
  CHECK(request("POST", "/recuperarsenha", {}, R"({"email": "inativo@alfa.gov.br"})")->body ==
        ask->body);
  CHECK(sink->messages().size() == 3);

  // Every accepted request counts against the address: after ten in the hour, 429.
  for (int i = 0; i < 5; ++i)
    CHECK(request("POST", "/recuperarsenha", {}, R"({"email": "ninguem@alfa.gov.br"})")->status ==
          202);
  refused(*request("POST", "/recuperarsenha", {}, R"({"email": "ninguem@alfa.gov.br"})"), 429,
          "muitas_requisicoes");
  refused(*request("POST", "/nova-conta", {},
                   sign_up_body("mais@conta.test", unique("Municipio Mais"))),
          429, "muitas_requisicoes");
  CHECK(platform_db("select count(*) from plataforma.usuarios where email = 'mais@conta.test'") ==
        "0");
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "a reset link sets a new password once, ends the sessions and expires") {
  const auto& u = stack->user("alfa");
  Session phone = user("alfa"), desk = user("alfa");
  auto ask = [&] {
    REQUIRE(request("POST", "/recuperarsenha", {}, R"({"email": ")" + u.email + R"("})")->status ==
            202);
  };
  auto reset = [&](const std::string& token, const std::string& senha) {
    return request("POST", "/recuperarsenha", {},
                   R"({"token": ")" + token + R"(", "senha": ")" + senha + R"("})");
  };
  ask();
  std::string token = token_of(link_in_mail(1));
  CHECK(sink->messages().back().to == u.email);
  CHECK(platform_db(
            "select finalidade || '|' || (expira_em > now() + interval '59 minutes')::text from "
            "plataforma.tokens_uso_unico where token_hash = '" +
            sha256_of(*this, token) + "'") == "recuperar_senha|true");

  auto done = reset(token, "nova-senha-123");
  REQUIRE_MESSAGE(done->status == 200, done->body);
  CHECK(get("/minha-conta", phone)->status == 401);
  CHECK(get("/minha-conta", desk)->status == 401);
  CHECK(platform_db("select count(*) from plataforma.sessoes where usuario_id = " +
                    std::to_string(u.id) + " and revogada_em is null") == "0");
  CHECK(try_login(u.email, u.password)->status == 401);
  CHECK(try_login(u.email, "nova-senha-123")->status == 200);

  // Single use.
  refused(*reset(token, "outra-senha-456"), 400, "parametro_invalido", "token");
  CHECK(try_login(u.email, "nova-senha-123")->status == 200);

  {  // An expired link does nothing.
    ask();
    std::string late = token_of(link_in_mail(2));
    platform_db(
        "update plataforma.tokens_uso_unico set expira_em = now() - interval '1 second' where "
        "token_hash = '" +
        sha256_of(*this, late) + "' returning 1");
    refused(*reset(late, "outra-senha-456"), 400, "parametro_invalido", "token");
    CHECK(try_login(u.email, "nova-senha-123")->status == 200);
  }
  {  // A newer link replaces the older.
    ask();
    std::string older = token_of(link_in_mail(3));
    ask();
    std::string newer = token_of(link_in_mail(4));
    refused(*reset(older, "outra-senha-456"), 400, "parametro_invalido", "token");
    CHECK(reset(newer, "outra-senha-456")->status == 200);
    CHECK(try_login(u.email, "outra-senha-456")->status == 200);
  }
  {  // A reset link is no confirmation link, and the attempt spends it.
    ask();
    std::string wrong = token_of(link_in_mail(5));
    refused(*request("GET", "/nova-conta/confirmar?token=" + wrong, {}), 400, "parametro_invalido",
            "token");
    refused(*reset(wrong, "outra-senha-456"), 400, "parametro_invalido", "token");
  }
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "the account routes refuse bad input in the error shape, naming the field") {
  const std::string tenants = platform_db("select count(*) from plataforma.tenants");
  const std::string users = platform_db("select count(*) from plataforma.usuarios");
  auto sign_up = [&](const std::string& body) { return request("POST", "/nova-conta", {}, body); };
  const std::string ok = sign_up_body("x@conta.test", "Municipio X");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string b = ok;
    b.replace(b.find(from), from.size(), to);
    return b;
  };
  refused(*sign_up(with(R"("nome": "Gestora Teste", )", "")), 400, "campo_obrigatorio", "nome");
  refused(*sign_up(with(R"("nome": "Gestora Teste")", R"("nome": "")")), 400, "campo_obrigatorio",
          "nome");
  refused(*sign_up(with("Gestora Teste", std::string(201, 'a'))), 400, "parametro_invalido",
          "nome");
  refused(*sign_up(with("x@conta.test", "sem-arroba")), 400, "parametro_invalido", "email");
  refused(*sign_up(with("x@conta.test", "a b@conta.test")), 400, "parametro_invalido", "email");
  refused(*sign_up(with("senha-forte-1", "curta")), 400, "parametro_invalido", "senha");
  refused(*sign_up(with("senha-forte-1", "        ")), 400, "parametro_invalido", "senha");
  refused(*sign_up(with(R"("empresa": "Prefeitura de Teste", )", "")), 400, "campo_obrigatorio",
          "empresa");
  refused(*sign_up(with("12.345.678/0001-95", "1234567800019")), 400, "parametro_invalido", "cnpj");
  refused(*sign_up(with(R"("uf": "SC")", R"("uf": "sc")")), 400, "parametro_invalido", "uf");
  refused(*sign_up(with(R"("uf": "SC")", R"("uf": "SCX")")), 400, "parametro_invalido", "uf");
  refused(*sign_up(with("48 3333-0000", std::string(41, '9'))), 400, "parametro_invalido",
          "telefone");
  refused(*sign_up(with(R"("uf": "SC")", R"("uf": "SC", "plano": "ouro")")), 400,
          "campo_desconhecido", "plano");
  refused(*sign_up(with(R"("nome": "Gestora Teste")", R"("nome": 7)")), 400, "parametro_invalido",
          "nome");
  refused(*sign_up("[]"), 400, "parametro_invalido", "corpo");
  refused(*sign_up("{"), 400, "json_invalido");
  refused(*request("POST", "/email", {}, "{}"), 400, "campo_obrigatorio", "nome");
  CHECK(request("POST", "/nova-conta", {}, "{\"nome\": \"" + std::string(17000, 'a') + "\"}")
            ->status == 413);

  auto recover = [&](const std::string& body) {
    return request("POST", "/recuperarsenha", {}, body);
  };
  const std::string token(64, 'a');
  refused(*recover("{}"), 400, "campo_obrigatorio", "email");
  refused(*recover(R"({"email": "nao-e-email"})"), 400, "parametro_invalido", "email");
  refused(*recover(R"({"token": ")" + token + R"("})"), 400, "campo_obrigatorio", "senha");
  refused(*recover(R"({"token": ")" + token + R"(", "senha": "curta"})"), 400, "parametro_invalido",
          "senha");
  refused(*recover(R"({"token": ")" + token + R"(", "senha": "senha-forte-1", "email": "a@b.c"})"),
          400, "parametro_invalido", "email");
  refused(*recover(R"({"token": ")" + std::string(65, 'a') + R"(", "senha": "senha-forte-1"})"),
          400, "parametro_invalido", "token");
  refused(*recover(R"({"token": ")" + token + R"(", "senha": "senha-forte-1"})"), 400,
          "parametro_invalido", "token");
  refused(*recover(R"({"email": "a@b.c", "nome": "x"})"), 400, "campo_desconhecido", "nome");

  refused(*request("GET", "/nova-conta/confirmar", {}), 400, "campo_obrigatorio", "token");
  refused(*request("GET", "/nova-conta/confirmar?token=", {}), 400, "campo_obrigatorio", "token");
  refused(*request("GET", "/nova-conta/confirmar?token=abc", {}), 400, "parametro_invalido",
          "token");
  refused(*request("GET", "/nova-conta/confirmar?token=" + token, {}), 400, "parametro_invalido",
          "token");
  refused(*request("GET", "/nova-conta/confirmar?token=" + token + "&x=1", {}), 400,
          "campo_desconhecido", "x");

  CHECK(platform_db("select count(*) from plataforma.tenants") == tenants);
  CHECK(platform_db("select count(*) from plataforma.usuarios") == users);
  CHECK(sink->messages().empty());
}

TEST_CASE("a sign-up whose confirmation cannot be sent leaves no account behind") {
  // One fixture at a time: the harness names its databases after the process.
  std::string tenants;
  {
    PlatformFixture f([](platform::AppOptions& o) {
      o.smtp.url = "smtp://127.0.0.1:9";
    });  // nothing listens there
    const std::string users = f.platform_db("select count(*) from plataforma.usuarios");
    tenants = f.platform_db("select count(*) from plataforma.tenants");
    auto a = f.request("POST", "/nova-conta", {},
                       sign_up_body("perdida@conta.test", PlatformFixture::unique("Municipio P")));
    refused(*a, 503, "servico_indisponivel");
    CHECK(f.platform_db("select count(*) from plataforma.usuarios") == users);
    CHECK(f.platform_db("select count(*) from plataforma.tenants") == tenants);
    CHECK(f.platform_db("select count(*) from plataforma.tokens_uso_unico") == "0");
    // An administrator's message reports each address that failed, and goes on with the others.
    Session adm = f.admin("alfa", "chefe@alfa.gov.br");
    auto sent = f.post("/email/personalizado", R"({"assunto": "Aviso", "mensagem": "Texto"})", adm);
    REQUIRE_MESSAGE(sent->status == 200, sent->body);
    CHECK(int64_t(sent->json()["enviados"]) == 0);
    CHECK(int64_t(sent->json()["destinatarios"]) == 2);
    CHECK(test::ids(sent->json()["falhas"], "idUsuario") ==
          std::to_string(f.stack->user("alfa").id) + "," + std::to_string(adm.user_id));
  }
  // Without any mailer, the e-mail routes answer 503 before doing anything.
  PlatformFixture none([](platform::AppOptions& o) { o.smtp.url.clear(); });
  refused(*none.request("POST", "/nova-conta", {}, sign_up_body("x@conta.test", "Municipio Y")),
          503, "servico_indisponivel");
  refused(*none.request("POST", "/recuperarsenha", {}, R"({"email": "usuario@alfa.gov.br"})"), 503,
          "servico_indisponivel");
  CHECK(none.platform_db("select count(*) from plataforma.tenants") == tenants);
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "an administrator's message reaches the active users of their own tenant only") {
  Session adm = admin("alfa", "chefe@alfa.gov.br");
  test::TestUser outro = stack->add_user("alfa", "outro@alfa.gov.br", {"*:r"});
  inactive_user(*this, "alfa", "inativo@alfa.gov.br", false);
  const std::string path = "/email/personalizado";

  auto all = post(
      path, R"({"assunto": "Aviso de manutenção", "mensagem": "O sistema para às 22h."})", adm);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(int64_t(all->json()["enviados"]) == 3);
  CHECK(int64_t(all->json()["destinatarios"]) == 3);
  CHECK(all->json()["falhas"].get_array().size() == 0);
  REQUIRE(sink->wait_for(3, std::chrono::seconds(10)));
  std::set<std::string> to;
  for (const auto& m : sink->messages()) {
    to.insert(m.to);
    CHECK(m.subject == "Aviso de manutenção");
    CHECK(m.body.find("O sistema para às 22h.") != std::string::npos);
  }
  CHECK(to ==
        std::set<std::string>{"usuario@alfa.gov.br", "chefe@alfa.gov.br", "outro@alfa.gov.br"});

  // Named recipients: another tenant's ids are ignored.
  const std::string beta = std::to_string(stack->user("beta").id);
  auto some = post(path,
                   R"({"assunto": "Só você", "mensagem": "Olá", "destinatarios": [)" +
                       std::to_string(outro.id) + ", " + beta + "]}",
                   adm);
  REQUIRE_MESSAGE(some->status == 200, some->body);
  CHECK(int64_t(some->json()["enviados"]) == 1);
  REQUIRE(sink->wait_for(4, std::chrono::seconds(10)));
  CHECK(sink->messages().back().to == "outro@alfa.gov.br");
  auto foreign = post(
      path, R"({"assunto": "Só eles", "mensagem": "Olá", "destinatarios": [)" + beta + "]}", adm);
  CHECK(int64_t(foreign->json()["enviados"]) == 0);

  {  // Bad input is a 400 naming the field, and sends nothing.
    refused(*post(path, R"({"mensagem": "x"})", adm), 400, "campo_obrigatorio", "assunto");
    refused(*post(path, R"({"assunto": "x"})", adm), 400, "campo_obrigatorio", "mensagem");
    refused(*post(path, R"({"assunto": "Linha\r\nBcc: todos@fora.test", "mensagem": "x"})", adm),
            400, "parametro_invalido", "assunto");
    refused(*post(path, R"({"assunto": ")" + std::string(201, 'a') + R"(", "mensagem": "x"})", adm),
            400, "parametro_invalido", "assunto");
    refused(
        *post(path, R"({"assunto": "x", "mensagem": ")" + std::string(20001, 'a') + R"("})", adm),
        400, "parametro_invalido", "mensagem");
    refused(*post(path, R"({"assunto": "x", "mensagem": "y", "destinatarios": []})", adm), 400,
            "parametro_invalido", "destinatarios");
    refused(*post(path, R"({"assunto": "x", "mensagem": "y", "destinatarios": ["1"]})", adm), 400,
            "parametro_invalido", "destinatarios");
    refused(*post(path, R"({"assunto": "x", "mensagem": "y", "destinatarios": [0]})", adm), 400,
            "parametro_invalido", "destinatarios");
    refused(*post(path, R"({"assunto": "x", "mensagem": "y", "cc": "a@b.c"})", adm), 400,
            "campo_desconhecido", "cc");
    CHECK(post(path, "{\"assunto\": \"" + std::string(70000, 'a') + "\"}", adm)->status == 413);
    CHECK(sink->messages().size() == 4);
  }
  {  // Only a signed-in administrator of the tenant sends.
    const std::string body = R"({"assunto": "x", "mensagem": "y"})";
    refused(*request("POST", path, {}, body), 401, "nao_autenticado");
    refused(*post(path, body, revoked_session(*this, "alfa")), 401, "nao_autenticado");
    refused(*post(path, body, inactive_user(*this, "alfa", "ex-chefe@alfa.gov.br", true)), 401,
            "nao_autenticado");
    refused(*post(path, body, user("alfa")), 403, "acesso_negado");
    Session beta_admin = admin("beta", "chefe@beta.gov.br");
    refused(*post(path, body, {beta_admin.token, adm.tn}), 403, "municipio_nao_permitido");
    CHECK(sink->messages().size() == 4);
  }
}
