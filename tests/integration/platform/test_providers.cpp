// Service providers: pre-registration, review and approval by a platform administrator, the
// first user's password link, grants by tenant administrators, /login-provider into a
// tenant that granted access, the grant's rights (and nothing more) on the platform and on
// cadastre-server through /app-backend, and revocation that ends the sessions at once.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <set>
#include <thread>

#include "fixture.hpp"

using namespace cadastre;
using test::refused;
using test::Answer;
using test::PlatformFixture;
using test::Session;

namespace {

// Valid CNPJs (check digits included), punctuated as people type them.
constexpr const char* kCnpj1 = "11.222.333/0001-81";
constexpr const char* kCnpj2 = "12.345.678/0001-95";
constexpr const char* kCnpj3 = "98.765.432/0001-98";
constexpr const char* kCnpj4 = "45.612.378/0001-84";
constexpr const char* kCnpj5 = "74.185.296/0001-07";
constexpr const char* kCnpj6 = "36.925.814/0001-84";

std::string digits(std::string cnpj) {
  std::erase_if(cnpj, [](char c) { return c < '0' || c > '9'; });
  return cnpj;
}

std::string pre_body(const std::string& cnpj, const std::string& email,
                     const std::string& nome = "Topografia Exata") {
  return R"({"nome":")" + nome + R"(","cnpj":")" + cnpj + R"(","email":")" + email +
         R"(","responsavel":"Rita Agrimensora","telefone":"(19) 3333-4444","mensagem":"atendemos prefeituras"})";
}

/// Tenants alfa and beta as the platform fixture has them, login throttling out of the way
/// (these tests fail logins on purpose, all from one address), and helpers for providers.
struct Providers : PlatformFixture {
  Providers() : PlatformFixture([](platform::AppOptions& o) {
    o.secret_checks.pair_failures = o.secret_checks.address_failures = o.secret_checks.account_failures = 1000;
  }) {}

  struct Created {
    std::int64_t provider = 0, user = 0;
    std::string email, password;
  };

  std::unique_ptr<Answer> anonymous(const std::string& method, const std::string& path,
                                    const std::string& body = "") {
    return request(method, path, {}, body);
  }
  std::unique_ptr<Answer> register_pre(const std::string& body) {
    return request("POST", "/preprovider/register", {}, body);
  }
  std::unique_ptr<Answer> try_provider_login(const std::string& email, const std::string& senha,
                                             const std::string& extra = "") {
    return request(
        "POST", "/login-provider", {},
        "email=" + http::percent_encode(email) + "&senha=" + http::percent_encode(senha) + extra,
        "application/x-www-form-urlencoded");
  }
  Session provider_login(const Created& p, std::optional<std::int64_t> tenant = std::nullopt) {
    auto a = try_provider_login(p.email, p.password,
                                tenant ? "&idTenant=" + std::to_string(*tenant) : "");
    REQUIRE_MESSAGE(a->status == 200, a->body);
    return session_of(*a);
  }

  /// Follows the last password link sent (the `mails`-th message) with `senha`.
  void set_password(std::size_t mails, const std::string& senha) {
    std::string token = token_of(link_in_mail(mails));
    auto done = request("POST", "/recuperarsenha", {},
                        R"({"token":")" + token + R"(","senha":")" + senha + R"("})");
    REQUIRE_MESSAGE(done->status == 200, done->body);
  }

  /// A provider created directly by a platform administrator, its first user with a
  /// password set through the mailed link (the `mails`-th message).
  Created provider(const Session& padm, const std::string& cnpj, const std::string& email,
                   std::size_t mails) {
    auto a = post("/provider/create", pre_body(cnpj, email), padm);
    REQUIRE_MESSAGE(a->status == 201, a->body);
    Created c{int64_t(a->json()["provedor"]["id"]), int64_t(a->json()["idUsuario"]), email,
              "senha-do-prestador-1"};
    set_password(mails, c.password);
    return c;
  }
  /// True once cadastre-server refuses the session as its bearer (401). Revocations reach it
  /// by a notification, within milliseconds; its token cache would keep the session for
  /// token_ttl (5 s) otherwise, so a bound of 2 s tells the two apart.
  bool server_refuses(const Session& s) {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
      auto r = stack->client().Get("/geo/alfa/usuarios/permissoes/", test::Stack::bearer(s.token));
      REQUIRE(r);
      if (r->status == 401) return true;
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  std::unique_ptr<Answer> give(const Session& admin, std::int64_t provider, bool escrita) {
    return post("/provider",
                R"({"idProvedor":)" + std::to_string(provider) + R"(,"escrita":)" +
                    (escrita ? "true" : "false") + "}",
                admin);
  }
};

}  // namespace

TEST_CASE_FIXTURE(
    Providers,
    "a pre-registration is recorded pending, reviewed and discarded by platform administrators") {
  auto a = register_pre(pre_body(kCnpj1, " Contato@Exata.com.BR "));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK(a->text("estado") == "pendente");
  const std::string id = std::to_string(int64_t(a->json()["id"]));
  CHECK(platform_db("select cnpj || '|' || email || '|' || responsavel || '|' || telefone || '|' "
                    "|| estado || '|' || "
                    "(provedor_id is null)::text from plataforma.preprovedores where id = " +
                    id) ==
        digits(kCnpj1) + "|contato@exata.com.br|Rita Agrimensora|(19) 3333-4444|pendente|true");
  // Optional fields may be left out; they are stored as NULL.
  auto bare = register_pre(R"({"nome":"Geo Ltda","cnpj":")" + digits(kCnpj2) +
                           R"(","email":"geo@geo.com.br","responsavel":"Ana"})");
  REQUIRE_MESSAGE(bare->status == 201, bare->body);
  CHECK(platform_db("select count(*) from plataforma.preprovedores where cnpj = '" +
                    digits(kCnpj2) + "' and telefone is null and mensagem is null") == "1");
  // The same CNPJ, however punctuated, while the first is pending.
  refused(*register_pre(pre_body(digits(kCnpj1), "outro@exata.com.br")), 409, "conflito",
               "CNPJ");
  CHECK(platform_db("select count(*) from plataforma.preprovedores") == "2");

  Session padm = platform_admin(), tadm = admin("alfa", "adm@alfa.gov.br"), plain = user("alfa");
  // GET /preprovider: platform administrators only.
  refused(*anonymous("GET", "/preprovider"), 401, "nao_autenticado");
  refused(*get("/preprovider", Session{std::string(64, 'a'), padm.tn}), 401,
               "nao_autenticado");
  refused(*get("/preprovider", plain), 403, "acesso_negado");
  refused(*get("/preprovider", tadm), 403, "acesso_negado");
  auto list = get("/preprovider", padm);
  REQUIRE(list->status == 200);
  std::vector<std::int64_t> ids;
  for (auto e : list->json()["content"].get_array()) ids.push_back(int64_t(e["id"]));
  CHECK(ids.size() == 2);
  CHECK(ids.front() > ids.back());  // newest first
  CHECK(int64_t(list->json()["totalElements"]) == 2);
  CHECK(get("/preprovider?estado=pendente", padm)->json()["content"].get_array().size() == 2);
  CHECK(int64_t(get("/preprovider?estado=aprovado", padm)->json()["totalElements"]) == 0);
  auto first = get("/preprovider?pageSize=1&orderBy=id&direction=asc", padm);
  CHECK(first->json()["content"].get_array().size() == 1);
  CHECK(int64_t(first->json()["content"].at(0)["id"]) == ids.back());
  CHECK(int64_t(first->json()["totalPages"]) == 2);
  refused(*get("/preprovider?pageSize=0", padm), 400, "parametro_invalido", "pageSize");
  refused(*get("/preprovider?orderBy=cnpj", padm), 400, "parametro_invalido", "orderBy");
  refused(*get("/preprovider?estado=todos", padm), 400, "parametro_invalido", "estado");
  refused(*get("/preprovider?pagina=1", padm), 400, "campo_desconhecido", "pagina");

  // GET /preprovider/provider-user: a platform administrator asks by CNPJ.
  refused(*anonymous("GET", "/preprovider/provider-user?cnpj=" + digits(kCnpj1)), 401,
               "nao_autenticado");
  refused(*get("/preprovider/provider-user?cnpj=" + digits(kCnpj1), plain), 403,
               "acesso_negado");
  refused(*get("/preprovider/provider-user?cnpj=" + digits(kCnpj1), tadm), 403,
               "acesso_negado");
  refused(*get("/preprovider/provider-user", padm), 400, "campo_obrigatorio", "cnpj");
  auto mine = get("/preprovider/provider-user?cnpj=" + digits(kCnpj1), padm);
  REQUIRE(mine->status == 200);
  REQUIRE(mine->json().get_array().size() == 1);
  CHECK(std::string_view(mine->json().at(0)["email"]) == "contato@exata.com.br");
  // As people type it, too.
  auto punctuated = get("/preprovider/provider-user?cnpj=" + http::percent_encode(kCnpj1), padm);
  CHECK_MESSAGE(punctuated->body == mine->body, punctuated->body);
  refused(*get("/preprovider/provider-user?cnpj=123", padm), 400, "parametro_invalido",
               "cnpj");

  // DELETE /preprovider/delete?id=
  refused(*anonymous("DELETE", "/preprovider/delete?id=" + id), 401, "nao_autenticado");
  refused(*del("/preprovider/delete?id=" + id, tadm), 403, "acesso_negado");
  refused(*del("/preprovider/delete?id=" + id, plain), 403, "acesso_negado");
  refused(*del("/preprovider/delete", padm), 400, "campo_obrigatorio", "id");
  refused(*del("/preprovider/delete?id=abc", padm), 400, "parametro_invalido", "id");
  refused(*del("/preprovider/delete?id=0", padm), 400, "parametro_invalido", "id");
  refused(*del("/preprovider/delete?id=99999999", padm), 404, "nao_encontrado");
  CHECK(del("/preprovider/delete?id=" + id, padm)->status == 204);
  CHECK(platform_db("select count(*) from plataforma.preprovedores where id = " + id) == "0");
  refused(*del("/preprovider/delete?id=" + id, padm), 404, "nao_encontrado");
  // Discarded, the CNPJ may pre-register again.
  CHECK(register_pre(pre_body(kCnpj1, "contato@exata.com.br"))->status == 201);
}

TEST_CASE_FIXTURE(Providers,
                  "a malformed pre-registration is refused in the error shape naming the field") {
  const std::string ok_rest = R"(,"email":"a@b.com.br","responsavel":"Ana"})";
  struct Case {
    std::string body, codigo, field;
  };
  const std::vector<Case> cases = {
      {R"({"cnpj":"11222333000181")" + ok_rest, "campo_obrigatorio", "nome"},
      {R"({"nome":"","cnpj":"11222333000181")" + ok_rest, "campo_obrigatorio", "nome"},
      {R"({"nome":"X")" + ok_rest, "campo_obrigatorio", "cnpj"},
      {R"({"nome":"X","cnpj":"11.222.333/0001")" + ok_rest, "parametro_invalido", "cnpj"},
      {R"({"nome":"X","cnpj":"112223330001811")" + ok_rest, "parametro_invalido", "cnpj"},
      {R"({"nome":"X","cnpj":"1122233300018A")" + ok_rest, "parametro_invalido", "cnpj"},
      {R"({"nome":"X","cnpj":"11 222 333 0001 81")" + ok_rest, "parametro_invalido", "cnpj"},
      {R"({"nome":"X","cnpj":"11222333000182")" + ok_rest, "parametro_invalido",
       "cnpj"},  // check digit
      {R"({"nome":"X","cnpj":"00000000000000")" + ok_rest, "parametro_invalido", "cnpj"},
      {R"({"nome":"X","cnpj":11222333000181)" + ok_rest, "parametro_invalido", "cnpj"},
      {R"({"nome":"X","cnpj":"11222333000181","email":"sem-arroba","responsavel":"Ana"})",
       "parametro_invalido", "email"},
      {R"({"nome":"X","cnpj":"11222333000181","email":"a@b.com.br"})", "campo_obrigatorio",
       "responsavel"},
      {R"({"nome":"X","cnpj":"11222333000181","email":"a@b.com.br","responsavel":"Ana","site":"x"})",
       "campo_desconhecido", "site"},
      {R"({"nome":")" + std::string(201, 'n') + R"(","cnpj":"11222333000181")" + ok_rest,
       "parametro_invalido", "nome"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    refused(*register_pre(c.body), 400, c.codigo, c.field);
  }
  CHECK(register_pre("{nao e json")->status == 400);
  CHECK(register_pre("[]")->status == 400);
  CHECK(register_pre("")->status == 400);
  CHECK(platform_db("select count(*) from plataforma.preprovedores") == "0");

  // Refusals do not count against the address; accepted registrations do: a few per hour.
  for (const char* cnpj : {kCnpj1, kCnpj2, kCnpj3, kCnpj4, kCnpj5})
    CHECK(register_pre(pre_body(cnpj, "x@y.com.br"))->status == 201);
  auto sixth = register_pre(pre_body(kCnpj6, "x@y.com.br"));
  refused(*sixth, 429, "muitas_requisicoes");
  CHECK(platform_db("select count(*) from plataforma.preprovedores") == "5");
}

TEST_CASE_FIXTURE(Providers,
                  "approving a pre-registration creates the provider and its first user, who sets "
                  "a password by the "
                  "mailed link and signs in to a tenant that granted access") {
  auto pre = register_pre(pre_body(kCnpj1, "rita@exata.com.br"));
  REQUIRE(pre->status == 201);
  const std::int64_t pre_id = int64_t(pre->json()["id"]);
  Session padm = platform_admin(), tadm = admin("alfa", "adm@alfa.gov.br");
  const std::string approve = R"({"idPreProvedor":)" + std::to_string(pre_id) + "}";
  refused(*anonymous("POST", "/provider/create", approve), 401, "nao_autenticado");
  refused(*post("/provider/create", approve, tadm), 403, "acesso_negado");
  refused(*post("/provider/create", approve, user("alfa")), 403, "acesso_negado");

  auto created = post("/provider/create", approve, padm);
  REQUIRE_MESSAGE(created->status == 201, created->body);
  const std::int64_t pid = int64_t(created->json()["provedor"]["id"]);
  const std::int64_t uid = int64_t(created->json()["idUsuario"]);
  CHECK(std::string_view(created->json()["provedor"]["cnpj"]) == digits(kCnpj1));
  CHECK(std::string_view(created->json()["provedor"]["nome"]) == "Topografia Exata");
  CHECK(bool(created->json()["provedor"]["ativo"]));
  CHECK(bool(created->json()["linkDeSenhaEnviado"]));
  const std::string P = std::to_string(pid), U = std::to_string(uid);
  CHECK(platform_db("select nome || '|' || cnpj || '|' || email || '|' || telefone from "
                    "plataforma.provedores where id = " +
                    P) ==
        "Topografia Exata|" + digits(kCnpj1) + "|rita@exata.com.br|(19) 3333-4444");
  CHECK(
      platform_db(
          "select coalesce(tenant_id::text, 'null') || '|' || provedor_id || '|' || email || '|' "
          "|| nome || '|' "
          "|| (senha_hash is null)::text || '|' || adm::text from plataforma.usuarios where id = " +
          U) == "null|" + P + "|rita@exata.com.br|Rita Agrimensora|true|false");
  CHECK(
      platform_db("select estado || '|' || provedor_id from plataforma.preprovedores where id = " +
                  std::to_string(pre_id)) == "aprovado|" + P);
  // Settled: neither approved again nor discarded.
  refused(*post("/provider/create", approve, padm), 404, "nao_encontrado", "pré-cadastro");
  refused(*del("/preprovider/delete?id=" + std::to_string(pre_id), padm), 404,
               "nao_encontrado");
  CHECK(get("/preprovider?estado=aprovado", padm)->json()["content"].get_array().size() == 1);

  // The link goes to the first user; without a password there is no login yet.
  REQUIRE(sink->wait_for(1, std::chrono::seconds(10)));
  CHECK(sink->messages().back().to == "rita@exata.com.br");
  CHECK(sink->messages().back().subject.find("senha") != std::string::npos);
  refused(*try_provider_login("rita@exata.com.br", "qualquer-coisa"), 401, "nao_autenticado");
  set_password(1, "senha-do-prestador-1");
  CHECK(platform_db("select (senha_hash is not null)::text from plataforma.usuarios where id = " +
                    U) == "true");

  // Signed up, but no tenant granted access yet.
  refused(*try_provider_login("rita@exata.com.br", "senha-do-prestador-1"), 403,
               "acesso_negado");
  CHECK(platform_db("select count(*) from plataforma.sessoes where usuario_id = " + U) == "0");
  auto given = give(tadm, pid, false);
  REQUIRE_MESSAGE(given->status == 200, given->body);
  CHECK(platform_db("select leitura::text || escrita::text from plataforma.provedor_tenants where "
                    "provedor_id = " +
                    P + " and tenant_id = " + std::to_string(tenant_id("alfa"))) == "truefalse");

  auto login = try_provider_login("Rita@Exata.com.br", "senha-do-prestador-1");
  REQUIRE_MESSAGE(login->status == 200, login->body);
  Session s = session_of(*login);
  CHECK(store::decode_tenant_token(s.tn) == tenant_id("alfa"));
  CHECK(s.user_id == uid);
  CHECK_FALSE(bool(login->json()["adm"]));
  CHECK(platform_db(
            "select origem || '|' || tenant_id from plataforma.sessoes where usuario_id = " + U) ==
        "provedor|" + std::to_string(tenant_id("alfa")));
  // JSON works as well as the form.
  auto json_login =
      request("POST", "/login-provider", {},
              R"({"email":"rita@exata.com.br","senha":"senha-do-prestador-1","idTenant":)" +
                  std::to_string(tenant_id("alfa")) + "}");
  CHECK_MESSAGE(json_login->status == 200, json_login->body);

  // What the provider's user sees of itself.
  auto tenant = get("/teste/tenant", s);
  REQUIRE(tenant->status == 200);
  CHECK(tenant->text("slug") == "alfa");
  auto own_pre = get("/preprovider/provider-user", s);
  REQUIRE(own_pre->status == 200);
  REQUIRE(own_pre->json().get_array().size() == 1);
  CHECK(int64_t(own_pre->json().at(0)["id"]) == pre_id);
  auto own = get("/provider", s);
  REQUIRE(own->status == 200);
  REQUIRE(own->json().get_array().size() == 1);
  CHECK(int64_t(own->json().at(0)["id"]) == pid);
  auto users = get("/provider/provider-user", s);
  REQUIRE(users->status == 200);
  REQUIRE(users->json().get_array().size() == 1);
  CHECK(std::string_view(users->json().at(0)["email"]) == "rita@exata.com.br");
  // Not another provider's users, whatever it asks for.
  CHECK(get("/provider/provider-user?idProvedor=" + std::to_string(pid + 1), s)->body ==
        users->body);
}

TEST_CASE_FIXTURE(Providers,
                  "a platform administrator creates a provider from its data; conflicts and bad "
                  "input are refused") {
  Session padm = platform_admin();
  refused(*post("/provider/create", R"({"idPreProvedor":1,"nome":"X"})", padm), 400,
               "parametro_invalido", "idPreProvedor");
  refused(*post("/provider/create", R"({"idPreProvedor":"um"})", padm), 400,
               "parametro_invalido", "idPreProvedor");
  refused(*post("/provider/create", R"({"idPreProvedor":99999999})", padm), 404,
               "nao_encontrado", "pré-cadastro");
  refused(*post("/provider/create",
                     R"({"nome":"X","cnpj":"123","email":"a@b.com.br","responsavel":"A"})", padm),
               400, "parametro_invalido", "cnpj");
  refused(
      *post("/provider/create", pre_body(kCnpj1, "a@b.com.br").insert(1, R"("cor":"azul",)"), padm),
      400, "campo_desconhecido", "cor");
  refused(*post("/provider/create", "{", padm), 400, "json_invalido");
  CHECK(platform_db("select count(*) from plataforma.provedores") == "0");
  CHECK(sink->messages().empty());

  auto created = post("/provider/create", pre_body(kCnpj2, "Geo@Geo.com.br", "Geo Serviços"), padm);
  REQUIRE_MESSAGE(created->status == 201, created->body);
  const std::string P = std::to_string(int64_t(created->json()["provedor"]["id"]));
  CHECK(platform_db(
            "select nome || '|' || cnpj || '|' || email from plataforma.provedores where id = " +
            P) == "Geo Serviços|" + digits(kCnpj2) + "|geo@geo.com.br");
  CHECK(platform_db("select count(*) from plataforma.usuarios where provedor_id = " + P +
                    " and tenant_id is null and email = 'geo@geo.com.br'") == "1");
  CHECK(platform_db("select count(*) from plataforma.preprovedores") == "0");
  CHECK(path_of(link_in_mail(1)).rfind("/redefinir-senha?token=", 0) == 0);
  CHECK(sink->messages().back().to == "geo@geo.com.br");

  // A CNPJ that already has a provider; an e-mail that already has a user (of a tenant or a
  // provider).
  refused(*post("/provider/create", pre_body(kCnpj2, "outro@geo.com.br"), padm), 409,
               "conflito");
  refused(*post("/provider/create", pre_body(kCnpj3, stack->user("alfa").email), padm), 409,
               "conflito");
  refused(*post("/provider/create", pre_body(kCnpj3, "GEO@geo.com.br"), padm), 409,
               "conflito");
  CHECK(platform_db("select count(*) from plataforma.provedores") == "1");
  // Nor may a firm pre-register a CNPJ that is already a provider.
  refused(*register_pre(pre_body(kCnpj2, "geo@geo.com.br")), 409, "conflito", "CNPJ");
}

TEST_CASE_FIXTURE(Providers,
                  "login-provider refuses bad input, wrong passwords, tenants' users and tenants "
                  "that granted nothing") {
  Session padm = platform_admin(), alfa_adm = admin("alfa", "adm@alfa.gov.br");
  Created p = provider(padm, kCnpj1, "rita@exata.com.br", 1);
  REQUIRE(give(alfa_adm, p.provider, false)->status == 200);

  refused(*try_provider_login("", p.password), 400, "campo_obrigatorio", "email");
  refused(*request("POST", "/login-provider", {}, "email=rita%40exata.com.br",
                        "application/x-www-form-urlencoded"),
               400, "campo_obrigatorio", "senha");
  refused(*try_provider_login(p.email, p.password, "&idTenant=alfa"), 400,
               "parametro_invalido", "idTenant");
  refused(*try_provider_login(p.email, p.password, "&papel=adm"), 400, "campo_desconhecido",
               "papel");
  refused(*try_provider_login(p.email, "senha-errada"), 401, "nao_autenticado");
  refused(*try_provider_login("ninguem@exata.com.br", p.password), 401, "nao_autenticado");
  // A tenant's user is not a provider's, and a provider's user does not use /login.
  refused(*try_provider_login(stack->user("alfa").email, stack->user("alfa").password), 401,
               "nao_autenticado");
  refused(*try_login(p.email, p.password), 401, "nao_autenticado");
  // beta granted nothing.
  refused(
      *try_provider_login(p.email, p.password, "&idTenant=" + std::to_string(tenant_id("beta"))),
      403, "municipio_nao_permitido");
  refused(*try_provider_login(p.email, p.password, "&idTenant=999999"), 403,
               "municipio_nao_permitido");
  CHECK(platform_db("select count(*) from plataforma.sessoes where usuario_id = " +
                    std::to_string(p.user)) == "0");

  // Two tenants: the caller says which.
  Session beta_adm = admin("beta", "adm@beta.gov.br");
  REQUIRE(give(beta_adm, p.provider, true)->status == 200);
  refused(*try_provider_login(p.email, p.password), 400, "campo_obrigatorio", "idTenant");
  Session in_beta = provider_login(p, tenant_id("beta"));
  CHECK(store::decode_tenant_token(in_beta.tn) == tenant_id("beta"));
  CHECK(get("/teste/tenant", in_beta)->text("slug") == "beta");
  // A session acts only in its own tenant.
  Session in_beta_as_alfa = in_beta;
  in_beta_as_alfa.tn = store::encode_tenant_token(tenant_id("alfa"));
  refused(*get("/teste/tenant", in_beta_as_alfa), 403, "municipio_nao_permitido");

  // An inactive tenant is not offered, nor is an inactive user let in.
  platform_db("update plataforma.tenants set ativo = false where slug = 'beta'");
  app->identity().reload();
  CHECK(store::decode_tenant_token(provider_login(p).tn) == tenant_id("alfa"));
  platform_db("update plataforma.usuarios set ativo = false where id = " + std::to_string(p.user));
  refused(*try_provider_login(p.email, p.password), 401, "nao_autenticado");
  platform_db("update plataforma.tenants set ativo = true where slug = 'beta'");
  app->identity().reload();
}

TEST_CASE_FIXTURE(Providers,
                  "a tenant administrator grants a provider access and takes it back; its sessions "
                  "there end at once") {
  Session padm = platform_admin(), alfa_adm = admin("alfa", "adm@alfa.gov.br"),
          beta_adm = admin("beta", "adm@beta.gov.br");
  Session alfa_user = user("alfa");
  Created p = provider(padm, kCnpj1, "rita@exata.com.br", 1);
  Created other = provider(padm, kCnpj2, "geo@geo.com.br", 2);
  const std::string P = std::to_string(p.provider);

  // POST /provider: a tenant's administrators only, for an existing active provider.
  const std::string grant_read = R"({"idProvedor":)" + P + "}";
  refused(*anonymous("POST", "/provider", grant_read), 401, "nao_autenticado");
  refused(*post("/provider", grant_read, alfa_user), 403, "acesso_negado");
  refused(*post("/provider", "{}", alfa_adm), 400, "campo_obrigatorio", "idProvedor");
  refused(*post("/provider", R"({"idProvedor":"um"})", alfa_adm), 400, "parametro_invalido",
               "idProvedor");
  refused(*post("/provider", R"({"idProvedor":)" + P + R"(,"escrita":"sim"})", alfa_adm), 400,
               "parametro_invalido", "escrita");
  refused(*post("/provider", R"({"idProvedor":)" + P + R"(,"tenant":2})", alfa_adm), 400,
               "campo_desconhecido", "tenant");
  refused(*post("/provider", R"({"idProvedor":99999999})", alfa_adm), 404, "nao_encontrado");
  CHECK(platform_db("select count(*) from plataforma.provedor_tenants") == "0");

  auto given = post("/provider", grant_read, alfa_adm);
  REQUIRE_MESSAGE(given->status == 200, given->body);
  REQUIRE(given->json().get_array().size() == 1);
  CHECK(int64_t(given->json().at(0)["id"]) == p.provider);
  CHECK(bool(given->json().at(0)["acesso"]["leitura"]));
  CHECK_FALSE(bool(given->json().at(0)["acesso"]["escrita"]));
  REQUIRE(give(beta_adm, p.provider, true)->status == 200);
  REQUIRE(give(beta_adm, other.provider, false)->status == 200);

  // GET /provider: the tenant's providers for its users; every one for a platform administrator.
  refused(*anonymous("GET", "/provider"), 401, "nao_autenticado");
  auto alfa_list = get("/provider", alfa_user);
  REQUIRE(alfa_list->status == 200);
  REQUIRE(alfa_list->json().get_array().size() == 1);
  CHECK(int64_t(alfa_list->json().at(0)["id"]) == p.provider);
  auto beta_list = get("/provider", beta_adm);
  REQUIRE(beta_list->json().get_array().size() == 2);
  CHECK(bool(beta_list->json().at(0)["acesso"]["escrita"]));
  CHECK(get("/provider", padm)->json().get_array().size() == 2);

  // GET /provider/provider-user: the tenant's administrators, for a provider serving the tenant.
  refused(*anonymous("GET", "/provider/provider-user?idProvedor=" + P), 401,
               "nao_autenticado");
  auto users = get("/provider/provider-user?idProvedor=" + P, alfa_adm);
  REQUIRE_MESSAGE(users->status == 200, users->body);
  REQUIRE(users->json().get_array().size() == 1);
  CHECK(int64_t(users->json().at(0)["id"]) == p.user);
  refused(*get("/provider/provider-user?idProvedor=" + P, alfa_user), 404, "nao_encontrado");
  refused(
      *get("/provider/provider-user?idProvedor=" + std::to_string(other.provider), alfa_adm), 404,
      "nao_encontrado");  // serves beta only
  refused(*get("/provider/provider-user", alfa_adm), 400, "campo_obrigatorio", "idProvedor");
  refused(*get("/provider/provider-user?idProvedor=x", alfa_adm), 400, "parametro_invalido",
               "idProvedor");
  CHECK(get("/provider/provider-user?idProvedor=" + std::to_string(other.provider), padm)->status ==
        200);
  refused(*get("/provider/provider-user?idProvedor=99999999", padm), 404, "nao_encontrado");

  // Signed in to both tenants.
  Session in_alfa = provider_login(p, tenant_id("alfa")),
          in_beta = provider_login(p, tenant_id("beta"));
  Session in_alfa_too = provider_login(p, tenant_id("alfa"));
  CHECK(get("/teste/tenant", in_alfa)->status == 200);

  // DELETE /provider/delete/{idProvedor}: the tenant's administrators, for a provider serving it.
  const std::string take_back = "/provider/delete/" + P;
  refused(*anonymous("DELETE", take_back), 401, "nao_autenticado");
  refused(*del(take_back, alfa_user), 403, "acesso_negado");
  refused(*del(take_back, in_alfa), 403, "acesso_negado");
  refused(*del("/provider/delete/abc", alfa_adm), 400, "parametro_invalido", "idProvedor");
  refused(*del("/provider/delete/" + std::to_string(other.provider), alfa_adm), 404,
               "nao_encontrado");
  CHECK(del(take_back, alfa_adm)->status == 204);
  CHECK(platform_db("select count(*) from plataforma.provedor_tenants where provedor_id = " + P) ==
        "1");
  CHECK(platform_db("select count(*) from plataforma.sessoes s join plataforma.usuarios u on u.id "
                    "= s.usuario_id "
                    "where u.provedor_id = " +
                    P + " and s.tenant_id = " + std::to_string(tenant_id("alfa")) +
                    " and s.revogada_em is null") == "0");
  refused(*get("/teste/tenant", in_alfa), 401, "nao_autenticado");
  refused(*get("/teste/tenant", in_alfa_too), 401, "nao_autenticado");
  CHECK(get("/teste/tenant", in_beta)->status == 200);  // beta still grants it
  refused(
      *try_provider_login(p.email, p.password, "&idTenant=" + std::to_string(tenant_id("alfa"))),
      403, "municipio_nao_permitido");
  refused(*del(take_back, alfa_adm), 404, "nao_encontrado");
  CHECK(get("/provider", alfa_user)->body == "[]");

  // A platform administrator deactivates the provider altogether.
  CHECK(del(take_back, padm)->status == 204);
  CHECK(platform_db("select ativo::text from plataforma.provedores where id = " + P) == "false");
  refused(*get("/teste/tenant", in_beta), 401, "nao_autenticado");
  refused(*try_provider_login(p.email, p.password), 401, "nao_autenticado");
  refused(*give(alfa_adm, p.provider, false), 404, "nao_encontrado");
  refused(*del("/provider/delete/99999999", padm), 404, "nao_encontrado");
  // The other provider is untouched.
  CHECK(get("/teste/tenant", provider_login(other))->text("slug") == "beta");
}

TEST_CASE_FIXTURE(Providers,
                  "a provider's session has the grant's rights and no more, on the platform and on "
                  "cadastre-server") {
  Session padm = platform_admin(), alfa_adm = admin("alfa", "adm@alfa.gov.br");
  Created p = provider(padm, kCnpj1, "rita@exata.com.br", 1);
  REQUIRE(give(alfa_adm, p.provider, false)->status == 200);
  Session s = provider_login(p);

  // Not an administrator of the tenant, nor of the platform.
  refused(*post("/provider", R"({"idProvedor":)" + std::to_string(p.provider) + "}", s), 403,
               "acesso_negado");
  refused(*get("/preprovider", s), 403, "acesso_negado");
  refused(*post("/provider/create", pre_body(kCnpj2, "x@y.com.br"), s), 403, "acesso_negado");
  CHECK(get("/teste/tenant", s)->status == 200);

  // On cadastre-server (through /app-backend, the session as bearer): read only.
  auto perms = get("/app-backend/geo/alfa/usuarios/permissoes/", s);
  REQUIRE_MESSAGE(perms->status == 200, perms->body);
  CHECK(std::string_view(perms->json()["usuario"]["email"]) == p.email);
  CHECK_FALSE(bool(perms->json()["usuario"]["adm"]));
  const std::string bairro =
      R"({"codigo":"P1","nome":"Bairro do Prestador","geometry":{"type":"Polygon","coordinates":[[[-47.07,-22.91],[-47.069,-22.91],[-47.069,-22.909],[-47.07,-22.909],[-47.07,-22.91]]]}})";
  refused(*post("/app-backend/crud/alfa/bairro/", bairro, s), 403, "acesso_negado");
  CHECK(test::query_value(stack->tenant_dsn("alfa"),
                          "select count(*) from cadastro.bairro where codigo = 'P1'") == "0");
  // Another tenant's data stays out of reach.
  refused(*get("/app-backend/geo/beta/usuarios/permissoes/", s), 403,
               "municipio_nao_permitido");

  // The tenant makes the grant read and write: a new session writes, and the audit names the
  // provider's user.
  REQUIRE(give(alfa_adm, p.provider, true)->status == 200);
  CHECK(platform_db("select escrita::text from plataforma.provedor_tenants where provedor_id = " +
                    std::to_string(p.provider)) == "true");
  CHECK(get("/teste/tenant", s)->status == 200);  // more rights end no session
  Session writer = provider_login(p);
  auto created = post("/app-backend/crud/alfa/bairro/", bairro, writer);
  REQUIRE_MESSAGE(created->status == 201, created->body);
  CHECK(test::query_value(stack->tenant_dsn("alfa"),
                          "select count(*) from auditoria.registro where tabela = "
                          "'cadastro.bairro' and operacao = 'I' "
                          "and usuario_email = '" +
                              p.email + "'") == "1");

  // Back to read only: the sessions that could write end at once, here and on cadastre-server
  // (which had the write right cached); a new session reads and cannot write.
  REQUIRE(give(alfa_adm, p.provider, false)->status == 200);
  refused(*get("/teste/tenant", writer), 401, "nao_autenticado");
  refused(*get("/teste/tenant", s), 401, "nao_autenticado");
  CHECK(server_refuses(writer));
  Session reader = provider_login(p);
  const std::string other = R"({"codigo":"P2",)" + bairro.substr(bairro.find("\"nome\""));
  refused(*post("/app-backend/crud/alfa/bairro/", other, reader), 403, "acesso_negado");
  CHECK(get("/app-backend/geo/alfa/usuarios/permissoes/", reader)->status == 200);
  // Read only again: changing nothing ends nothing.
  REQUIRE(give(alfa_adm, p.provider, false)->status == 200);
  CHECK(get("/teste/tenant", reader)->status == 200);

  // Revoked: the session ends on cadastre-server as well.
  REQUIRE(del("/provider/delete/" + std::to_string(p.provider), alfa_adm)->status == 204);
  refused(*get("/teste/tenant", reader), 401, "nao_autenticado");
  CHECK(server_refuses(reader));
}

TEST_CASE("a provider is created even when the password link cannot be sent, and says so") {
  // A mail server that is not there: a port bound and closed again.
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), len) == 0);
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  ::close(fd);
  const std::string smtp = "smtp://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  PlatformFixture f([&](platform::AppOptions& o) { o.smtp.url = smtp; });
  Session padm = f.platform_admin();
  auto a = f.post("/provider/create", pre_body(kCnpj1, "rita@exata.com.br"), padm);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK_FALSE(bool(a->json()["linkDeSenhaEnviado"]));
  CHECK(f.platform_db("select count(*) from plataforma.usuarios where email = 'rita@exata.com.br' "
                      "and provedor_id = " +
                      std::to_string(int64_t(a->json()["provedor"]["id"]))) == "1");
}
