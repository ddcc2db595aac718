// /minha-conta: the caller's own profile. Reading it, changing its fields, changing the
// password (the current one is required; the other sessions end) and changing the e-mail
// (only once the link sent to the new address is followed).
#include "fixture.hpp"

using namespace cadastre;
using test::refused;
using test::PlatformFixture;
using test::Session;

namespace {

std::string column(const PlatformFixture& f, const std::string& expr, std::int64_t user) {
  return f.platform_db("select " + expr +
                       " from plataforma.usuarios where id = " + std::to_string(user));
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture,
                  "minha-conta shows the caller's own profile, to the caller's session only") {
  const auto& u = stack->user("alfa");
  Session s = user("alfa");
  auto me = get("/minha-conta", s);
  REQUIRE_MESSAGE(me->status == 200, me->body);
  CHECK(int64_t(me->json()["id"]) == u.id);
  CHECK(me->text("email") == u.email);
  CHECK(me->text("nome") == "Usuário alfa");
  CHECK_FALSE(bool(me->json()["adm"]));
  CHECK_FALSE(bool(me->json()["admPlataforma"]));
  CHECK(me->json()["emailPendente"].is_null());
  CHECK(std::string_view(me->json()["tenant"]["slug"]) == "alfa");
  CHECK(me->body.find("senha") == std::string::npos);
  CHECK(me->body.find("argon2") == std::string::npos);

  // A platform administrator working in beta sees their own profile, in beta.
  Session pa = platform_admin();
  auto in_beta = get("/minha-conta", {pa.token, store::encode_tenant_token(tenant_id("beta"))});
  REQUIRE_MESSAGE(in_beta->status == 200, in_beta->body);
  CHECK(int64_t(in_beta->json()["id"]) == pa.user_id);
  CHECK(bool(in_beta->json()["admPlataforma"]));
  CHECK(std::string_view(in_beta->json()["tenant"]["slug"]) == "beta");

  // The auth failures, for both methods.
  Session gone = user("alfa");
  REQUIRE(post("/logout", "", gone)->status == 204);
  Session later = login(stack->add_user("alfa", "saiu@alfa.gov.br", {"*:r"}).email, "senha-alfa");
  platform_db(
      "update plataforma.usuarios set ativo = false where email = 'saiu@alfa.gov.br' returning id");
  Session beta = user("beta");
  for (const char* method : {"GET", "PUT"}) {
    CAPTURE(method);
    const std::string body = R"({"nome": "Invasor"})";
    refused(*request(method, "/minha-conta", {}, body), 401, "nao_autenticado");
    refused(*request(method, "/minha-conta",
                     {{"X-Auth-Token", std::string(64, 'a')}, {"X-Tn-Token", s.tn}}, body),
            401, "nao_autenticado");
    refused(*request(method, "/minha-conta", headers(gone), body), 401, "nao_autenticado");
    refused(*request(method, "/minha-conta", headers(later), body), 401, "nao_autenticado");
    refused(*request(method, "/minha-conta", headers({beta.token, s.tn}), body), 403,
            "municipio_nao_permitido");
  }
  CHECK(platform_db("select count(*) from plataforma.usuarios where nome = 'Invasor'") == "0");
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "PUT minha-conta changes the caller's own fields and refuses anything else") {
  const auto& u = stack->user("alfa");
  Session s = user("alfa");
  auto changed = put("/minha-conta",
                     R"({"nome": "Ana Souza", "telefone": "48 3333-0000", "cargo": "Fiscal"})", s);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(changed->text("nome") == "Ana Souza");
  CHECK(changed->text("cargo") == "Fiscal");
  CHECK(column(*this, "nome || '|' || telefone || '|' || cargo", u.id) ==
        "Ana Souza|48 3333-0000|Fiscal");
  // Only what is sent changes; an empty text clears an optional field.
  REQUIRE(put("/minha-conta", R"({"telefone": ""})", s)->status == 200);
  CHECK(column(*this, "nome || '|' || coalesce(telefone, 'null') || '|' || cargo", u.id) ==
        "Ana Souza|null|Fiscal");
  // Sending the current e-mail (in any case) is no change, and sends nothing.
  REQUIRE(put("/minha-conta", R"({"email": "USUARIO@alfa.gov.br"})", s)->status == 200);
  CHECK(sink->messages().empty());

  const std::string before =
      column(*this,
             "nome || '|' || coalesce(telefone, '') || '|' || cargo || '|' || adm || "
             "'|' || senha_hash || '|' || email",
             u.id);
  refused(*put("/minha-conta", R"({"adm": true})", s), 400, "campo_desconhecido", "adm");
  refused(*put("/minha-conta", R"({"admPlataforma": true})", s), 400, "campo_desconhecido",
          "admPlataforma");
  refused(*put("/minha-conta", R"({"nome": "X", "senha": "nova-senha-123"})", s), 400,
          "campo_desconhecido", "senha");
  refused(*put("/minha-conta", R"({"nome": ""})", s), 400, "parametro_invalido", "nome");
  refused(*put("/minha-conta", R"({"nome": 1})", s), 400, "parametro_invalido", "nome");
  refused(*put("/minha-conta", R"({"nome": ")" + std::string(201, 'a') + R"("})", s), 400,
          "parametro_invalido", "nome");
  refused(*put("/minha-conta", R"({"telefone": ")" + std::string(41, '9') + R"("})", s), 400,
          "parametro_invalido", "telefone");
  refused(*put("/minha-conta", R"({"cargo": ")" + std::string(101, 'c') + R"("})", s), 400,
          "parametro_invalido", "cargo");
  refused(*put("/minha-conta", R"({"email": "nao-e-email"})", s), 400, "parametro_invalido",
          "email");
  refused(*put("/minha-conta", R"({"novaSenha": "nova-senha-123"})", s), 400, "campo_obrigatorio",
          "senhaAtual");
  refused(*put("/minha-conta", R"({"senhaAtual": "senha-alfa", "novaSenha": "curta"})", s), 400,
          "parametro_invalido", "novaSenha");
  refused(*put("/minha-conta", "[]", s), 400, "parametro_invalido", "corpo");
  refused(*put("/minha-conta", "{", s), 400, "json_invalido");
  CHECK(put("/minha-conta", "{\"nome\": \"" + std::string(17000, 'a') + "\"}", s)->status == 413);
  CHECK(column(*this,
               "nome || '|' || coalesce(telefone, '') || '|' || cargo || '|' || adm || '|' || "
               "senha_hash || "
               "'|' || email",
               u.id) == before);
  CHECK(sink->messages().empty());
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "a password change needs the current password and ends the other sessions only") {
  const auto& u = stack->user("alfa");
  Session here = user("alfa"), there = user("alfa");
  const std::string hash = column(*this, "senha_hash", u.id);

  refused(*put("/minha-conta",
               R"({"senhaAtual": "errada-123", "novaSenha": "nova-senha-123", "nome": "Trocado"})",
               here),
          403, "acesso_negado", "senhaAtual");
  CHECK(column(*this, "senha_hash || '|' || nome", u.id) == hash + "|Usuário alfa");
  CHECK(get("/minha-conta", there)->status == 200);

  auto ok =
      put("/minha-conta", R"({"senhaAtual": "senha-alfa", "novaSenha": "nova-senha-123"})", here);
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  CHECK(ok->body.find("nova-senha-123") == std::string::npos);
  CHECK(column(*this, "senha_hash", u.id) != hash);
  CHECK(column(*this, "senha_hash like '$argon2id$%'", u.id) == "t");
  CHECK(get("/minha-conta", here)->status == 200);  // the session that changed it goes on
  refused(*get("/minha-conta", there), 401, "nao_autenticado");
  CHECK(platform_db("select count(*) from plataforma.sessoes where usuario_id = " +
                    std::to_string(u.id) + " and revogada_em is null") == "1");
  CHECK(try_login(u.email, u.password)->status == 401);
  CHECK(try_login(u.email, "nova-senha-123")->status == 200);
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "an e-mail change takes effect only once the link sent to the new address is followed") {
  const auto& u = stack->user("alfa");
  Session s = user("alfa");
  auto asked = put("/minha-conta", R"({"email": "Novo@Alfa.gov.br"})", s);
  REQUIRE_MESSAGE(asked->status == 200, asked->body);
  CHECK(asked->text("email") == u.email);
  CHECK(asked->text("emailPendente") == "novo@alfa.gov.br");
  CHECK(column(*this, "email", u.id) == u.email);
  CHECK(get("/minha-conta", s)->text("emailPendente") == "novo@alfa.gov.br");
  std::string link = link_in_mail(1);
  CHECK(sink->messages().back().to == "novo@alfa.gov.br");
  CHECK(sink->messages().back().subject == "Confirme seu novo endereço de e-mail");
  CHECK(link.rfind(app->public_url() + "/nova-conta/confirmar?token=", 0) == 0);
  CHECK(try_login("novo@alfa.gov.br", u.password)->status == 401);

  // Another user's address: answered as any other (a 409 told any user which addresses have
  // accounts), and nothing is sent to it.
  CHECK(put("/minha-conta", R"({"email": "usuario@beta.gov.br"})", s)->status == 200);
  CHECK(sink->messages().size() == 1);

  auto done = request("GET", path_of(link), {});
  REQUIRE_MESSAGE(done->status == 200, done->body);
  CHECK(done->text("email") == "novo@alfa.gov.br");
  CHECK(column(*this, "email", u.id) == "novo@alfa.gov.br");
  CHECK(try_login(u.email, u.password)->status == 401);
  Session again = login("novo@alfa.gov.br", u.password);
  CHECK(get("/minha-conta", again)->json()["emailPendente"].is_null());
  refused(*request("GET", path_of(link), {}), 400, "parametro_invalido", "token");  // once

  {  // An expired link changes nothing.
    REQUIRE(put("/minha-conta", R"({"email": "tarde@alfa.gov.br"})", again)->status == 200);
    std::string late = link_in_mail(2);
    platform_db(
        "update plataforma.tokens_uso_unico set expira_em = now() - interval '1 second' "
        "where usado_em is null returning 1");
    refused(*request("GET", path_of(late), {}), 400, "parametro_invalido", "token");
    CHECK(column(*this, "email", u.id) == "novo@alfa.gov.br");
    CHECK(get("/minha-conta", again)->json()["emailPendente"].is_null());
  }
  {  // An address taken after the link was sent is refused when the link is followed.
    REQUIRE(put("/minha-conta", R"({"email": "disputado@alfa.gov.br"})", again)->status == 200);
    std::string raced = link_in_mail(3);
    stack->add_user("beta", "disputado@alfa.gov.br", {"*:r"});
    refused(*request("GET", path_of(raced), {}), 409, "conflito");
    CHECK(column(*this, "email", u.id) == "novo@alfa.gov.br");
  }
}
