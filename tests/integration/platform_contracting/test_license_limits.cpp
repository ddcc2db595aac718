// What a license limits once contracted: uploads refused past its end, while suspended and
// over its storage quota (403 with the reason); and the payment of a contract, confirmed by
// a platform administrator through PUT /adm/licencas/:id.
#include <filesystem>
#include <thread>
#include <unistd.h>

#include "contracting.hpp"

using namespace cadastre;
using test::n;
using test::PlatformFixture;
using test::refused;
using test::Session;

namespace {

std::string files_root() { return "/tmp/cadastre-contracting-files-" + std::to_string(::getpid()); }

// The platform with a file store, so uploads reach the license's check.
struct WithFiles : PlatformFixture {
  WithFiles()
      : PlatformFixture([](platform::AppOptions& o) {
          o.files_dir = files_root();
          o.files_max_bytes = 2u << 20;
          o.files_secret = "segredo-dos-testes";
        }) {
    std::filesystem::create_directories(files_root());
  }
  ~WithFiles() {
    std::error_code ec;
    std::filesystem::remove_all(files_root(), ec);
  }
  /// Through `app`, or through the instance listening on `port`.
  std::unique_ptr<test::Answer> upload(std::int64_t projeto, std::size_t bytes, const Session& s, int port = 0) const {
    httplib::MultipartFormDataItems items = {{"file", std::string(bytes, 'a'), "notas.txt", "text/plain"}};
    auto c = client(port);
    std::string path = "/arquivos/projeto/" + n(projeto) + "/files/upload";
    return test::answer(c.Post(path, headers(s), items), "POST " + path);
  }
};

}  // namespace

TEST_CASE_FIXTURE(WithFiles, "uploads are refused past the license's end, while suspended and over its storage quota") {
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto p = post("/projetos", R"({"nome":"Cadastro"})", chefe);
  REQUIRE_MESSAGE(p->status == 201, p->body);
  std::int64_t projeto = int64_t(p->json()["id"]);
  auto files = [&] { return test::query_value(stack->tenant_dsn("alfa"), "select count(*) from projeto.arquivos"); };

  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 30", "current_date + 1", 5, 1);  // 1 MB
  auto first = upload(projeto, 700 * 1024, chefe);
  REQUIRE_MESSAGE(first->status == 201, first->body);
  // 700 KiB stored + 400 KiB > 1 MiB.
  refused(*upload(projeto, 400 * 1024, chefe), 403, "cota_excedida", "cota de armazenamento");
  CHECK(files() == "1");
  CHECK(get("/licencas/meu-plano", chefe)->json()["armazenamento"]["emUsoBytes"].get_int64().value() == 700 * 1024);

  // Storage bought through a contract lifts the limit.
  auto q = test::prepared(*this, "armazenamento", R"({"gb":1})", chefe);
  REQUIRE(post("/contratar/armazenamento", test::contract_body(*q), chefe)->status == 201);
  CHECK(upload(projeto, 400 * 1024, chefe)->status == 201);

  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 30", "current_date - 1", 5, 10240);
  refused(*upload(projeto, 10, chefe), 403, "licenca_inativa", "terminou");
  test::set_license(*this, "alfa", "basico_mensal", "suspensa", "current_date - 30", "current_date + 30", 5, 10240);
  refused(*upload(projeto, 10, chefe), 403, "licenca_inativa", "suspensa");
  CHECK(files() == "2");
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 30", "current_date + 30", 5, 10240);
  CHECK(upload(projeto, 10, chefe)->status == 201);
}

TEST_CASE_FIXTURE(WithFiles, "two uploads racing for the last free bytes through two instances: exactly one is stored") {
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto p = post("/projetos", R"({"nome":"Cadastro"})", chefe);
  REQUIRE_MESSAGE(p->status == 201, p->body);
  std::int64_t projeto = int64_t(p->json()["id"]);
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 30", "current_date + 30", 5, 1);  // 1 MB
  auto b = another_instance();
  // 600 KiB each: either fits in the megabyte, both do not. Three rounds, each on a fresh
  // quota (the stored file is deleted between them).
  for (int round = 0; round < 3; ++round) {
    std::unique_ptr<test::Answer> on_a, on_b;
    std::thread first([&] { on_a = upload(projeto, 600 * 1024, chefe); });
    std::thread second([&] { on_b = upload(projeto, 600 * 1024, chefe, b->server().port()); });
    first.join();
    second.join();
    CHECK((on_a->status == 201) + (on_b->status == 201) == 1);
    test::Answer& loser = on_a->status == 201 ? *on_b : *on_a;
    refused(loser, 403, "cota_excedida", "cota de armazenamento");
    CHECK(test::query_value(stack->tenant_dsn("alfa"), "select count(*) from projeto.arquivos") == "1");
    // Nothing stays reserved once the writes ended.
    CHECK(platform_db("select count(*) from plataforma.reservas_armazenamento") == "0");
    test::Answer& winner = on_a->status == 201 ? *on_a : *on_b;
    REQUIRE(del("/arquivos/" + n(int64_t(winner.json()["id"])), chefe)->status == 204);
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "new users are refused past the license's end and while it is suspended") {
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto users = [&] {
    return platform_db("select count(*) from plataforma.usuarios where tenant_id = " + n(tenant_id("alfa")));
  };
  auto create = [&](const std::string& email) {
    return post("/usuarios", R"({"email":")" + email + R"(","nome":"Fulana de Tal"})", chefe);
  };
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 30", "current_date - 1", 50, 1024);
  std::string before = users();
  refused(*create("nova@alfa.gov.br"), 403, "licenca_inativa", "terminou");
  test::set_license(*this, "alfa", "basico_mensal", "suspensa", "current_date - 30", "current_date + 30", 50, 1024);
  refused(*create("nova@alfa.gov.br"), 403, "licenca_inativa", "suspensa");
  CHECK(users() == before);
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 30", "current_date + 30", 50, 1024);
  auto made = create("nova@alfa.gov.br");
  CHECK_MESSAGE(made->status == 201, made->body);
}

TEST_CASE_FIXTURE(PlatformFixture, "a platform administrator confirms a contract's payment on its license") {
  std::int64_t license =
      test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 10", "current_date + 20", 5, 10240);
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto q = test::prepared(*this, "usuario", R"({"quantidade":2})", chefe);
  auto c = post("/contratar/usuario", test::contract_body(*q), chefe);
  REQUIRE_MESSAGE(c->status == 201, c->body);
  const std::string contract = n(int64_t(c->json()["id"]));
  const std::string body = R"({"pagamentoConfirmado":)" + contract + "}";
  const std::string path = "/adm/licencas/" + n(license);

  refused(*put(path, body, chefe), 403, "acesso_negado");  // a tenant administrator does not confirm payments
  Session adm = platform_admin();
  refused(*put(path, R"({"pagamentoConfirmado":)" + contract + R"(,"maxUsuarios":9})", adm), 400,
          "parametro_invalido", "sozinho");
  refused(*put("/adm/licencas/" + n(license + 1000), body, adm), 404, "nao_encontrado", "contrato");
  std::string before = test::license_of(*this, "alfa", "atualizada_em::text");
  auto ok = put(path, body, adm);
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  CHECK(int64_t(ok->json()["id"]) == license);
  CHECK(platform_db("select pagamento || ' ' || (confirmado_por = " + n(adm.user_id) +
                    ")::text from plataforma.contratos where id = " + contract) == "confirmado true");
  // The license itself is untouched (its quotes still hold).
  CHECK(test::license_of(*this, "alfa", "atualizada_em::text") == before);
  refused(*put(path, body, adm), 409, "conflito", "já foi confirmado");
}
