// Create, read, list with filtros, update and delete digital proofs, checked in the
// database; tenant isolation; the demo proofs.
#include <libpq-fe.h>

#include "fixture.hpp"
#include "demo/provas.hpp"
#include "store/migrate.hpp"

using namespace cadastre::test;
using namespace cadastre;

namespace {
std::string id_of(Answer& a) { return std::to_string(int64_t(a.json()["id"])); }

std::string filtros(const std::string& json) { return "/cad/provas-digitais/?filtros=" + url(json); }
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "POST creates a proof, stored as sent with a lowercase sha256, and audited") {
  const std::string sha = "ABCDEF" + std::string(58, '0');
  auto a = req("POST", "/cad/provas-digitais/", proof_json(numero(1), "foto_fachada", sha));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string id = id_of(*a);
  CHECK(std::string_view(a->json()["sha256"]) == "abcdef" + std::string(58, '0'));
  CHECK(std::string_view(a->json()["data"]) == "2026-01-15");
  CHECK(db("select concat_ws('|', numero_cadastro, tipo, descricao, arquivo_url, sha256, data) from "
           "provas.prova_digital where id = " + id) ==
        numero(1) + "|foto_fachada|Fachada vista da rua|https://arquivos.exemplo/f.jpg|abcdef" + std::string(58, '0') +
            "|2026-01-15");
  CHECK(db("select operacao || '|' || usuario_email from auditoria.registro where tabela = 'provas.prova_digital' "
           "and registro_id = '" + id + "'") == "I|cliente-api:integra-alfa");

  // GET by numero_cadastro lists that unit's proofs, newest first.
  auto second = req("POST", "/cad/provas-digitais/",
                    R"({"numero_cadastro": ")" + numero(1) + R"(", "tipo": "documento", "arquivo_url":
                        "http://arquivos.exemplo/d.pdf", "sha256": ")" + std::string(64, 'b') +
                        R"(", "data": "2026-02-01"})");
  REQUIRE_MESSAGE(second->status == 201, second->body);
  CHECK(second->json()["descricao"].is_null());
  auto by_unit = req("GET", "/cad/provas-digitais/" + numero(1) + "/");
  REQUIRE_MESSAGE(by_unit->status == 200, by_unit->body);
  CHECK(int64_t(by_unit->json()["total"]) == 2);
  CHECK(std::to_string(int64_t(by_unit->json()["registros"].at(0)["id"])) == id_of(*second));
  CHECK(std::to_string(int64_t(by_unit->json()["registros"].at(1)["id"])) == id);
  CHECK(req("GET", "/cad/provas-digitais/" + numero(2) + "/")->status == 404);
}

TEST_CASE_FIXTURE(Fixture,
                  "invalid proofs are refused with 400 (or 422 for a unit not in the cadastre) and "
                  "nothing is stored") {
  const std::string before = db("select count(*) from provas.prova_digital");
  struct Case {
    std::string body;
    const char* codigo;
  };
  const std::string n = numero(3);
  const std::vector<Case> cases = {
      {proof_json(n, "foto", "xyz"), "parametro_invalido"},
      {proof_json(n, "foto", std::string(63, 'a')), "parametro_invalido"},
      {proof_json(n, "foto", std::string(64, 'g')), "parametro_invalido"},
      {proof_json(n, ""), "parametro_invalido"},
      {R"({"numero_cadastro": ")" + n + R"(", "tipo": "foto"})", "campo_obrigatorio"},
      {R"({"numero_cadastro": ")" + n + R"(", "tipo": "foto", "arquivo_url": "ftp://x/y", "sha256": ")" +
           std::string(64, 'a') + R"(", "data": "2026-01-01"})",
       "parametro_invalido"},
      {R"({"numero_cadastro": ")" + n + R"(", "tipo": "foto", "arquivo_url": "https://x/y", "sha256": ")" +
           std::string(64, 'a') + R"(", "data": "15/01/2026"})",
       "parametro_invalido"},
      {R"({"numero_cadastro": ")" + n + R"(", "tipo": "foto", "arquivo_url": "https://x/y", "sha256": ")" +
           std::string(64, 'a') + R"(", "data": "2026-02-30"})",
       nullptr},  // the calendar check is PostgreSQL's: a 400 as well
      {R"({"numero_cadastro": ")" + n + R"(", "tipo": "foto", "arquivo_url": "https://x/y", "sha256": ")" +
           std::string(64, 'a') + R"(", "data": "2026-01-01", "cor": "azul"})",
       "campo_desconhecido"},
      {R"({"id": 5, "numero_cadastro": ")" + n + R"(", "tipo": "foto", "arquivo_url": "https://x/y", "sha256": ")" +
           std::string(64, 'a') + R"(", "data": "2026-01-01"})",
       "parametro_invalido"},
      {R"({"numero_cadastro": ")" + n + R"(", "tipo": 7, "arquivo_url": "https://x/y", "sha256": ")" +
           std::string(64, 'a') + R"(", "data": "2026-01-01"})",
       "parametro_invalido"},
      {"[1, 2]", "parametro_invalido"},
      {"{not json", "json_invalido"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    auto a = req("POST", "/cad/provas-digitais/", c.body);
    CHECK(a->status == 400);
    if (c.codigo) CHECK(a->codigo() == c.codigo);
  }
  auto unknown_unit = req("POST", "/cad/provas-digitais/", proof_json("nao-existe"));
  CHECK(unknown_unit->status == 422);
  CHECK(unknown_unit->codigo() == "entidade_improcessavel");
  CHECK(db("select count(*) from provas.prova_digital") == before);
}

TEST_CASE_FIXTURE(
    Fixture, "filtros selects by exact field values; unknown fields and malformed JSON are 400") {
  const std::string n = numero(4);
  auto a = req("POST", "/cad/provas-digitais/", proof_json(n, "levantamento_drone", std::string(64, 'c')));
  auto b = req("POST", "/cad/provas-digitais/", proof_json(n, "foto_fachada", std::string(64, 'd')));
  REQUIRE(a->status == 201);
  REQUIRE(b->status == 201);

  auto by_type = req("GET", filtros(R"({"tipo": "levantamento_drone"})"));
  REQUIRE_MESSAGE(by_type->status == 200, by_type->body);
  CHECK(std::to_string(int64_t(by_type->json()["total"])) ==
        db("select count(*) from provas.prova_digital where tipo = 'levantamento_drone'"));
  for (auto r : by_type->json()["registros"].get_array()) CHECK(std::string_view(r["tipo"]) == "levantamento_drone");

  auto two = req("GET", filtros(R"({"numero_cadastro": ")" + n + R"(", "sha256": ")" + std::string(64, 'D') + R"("})"));
  REQUIRE(two->status == 200);
  CHECK(int64_t(two->json()["total"]) == 1);
  CHECK(std::to_string(int64_t(two->json()["registros"].at(0)["id"])) == id_of(*b));
  auto by_id = req("GET", filtros("{\"id\": " + id_of(*a) + ", \"data\": \"2026-01-15\"}"));
  CHECK(int64_t(by_id->json()["total"]) == 1);

  auto page = req("GET", "/cad/provas-digitais/?limit=1&page=2");
  REQUIRE(page->status == 200);
  CHECK(page->json()["registros"].get_array().size() == 1);
  CHECK(std::to_string(int64_t(page->json()["total"])) == db("select count(*) from provas.prova_digital"));

  auto unknown = req("GET", filtros(R"({"cor": "azul"})"));
  CHECK(unknown->status == 400);
  CHECK(unknown->codigo() == "campo_desconhecido");
  CHECK(req("GET", filtros(R"({"tipo": "foto"; drop table x})"))->codigo() == "json_invalido");
  CHECK(req("GET", filtros(R"({"tipo": "foto")"))->codigo() == "json_invalido");
  CHECK(req("GET", filtros(R"(["tipo"])"))->status == 400);
  CHECK(req("GET", filtros(R"({"tipo": {"$ne": 1}})"))->status == 400);
  CHECK(req("GET", filtros(R"({"criado_em": "2026-01-01"})"))->codigo() == "campo_desconhecido");
  CHECK(req("GET", filtros(R"({"id": "abc"})"))->status == 400);
  CHECK(req("GET", "/cad/provas-digitais/?tipo=foto")->codigo() == "campo_desconhecido");
  // The route without the trailing slash, as the spec writes it.
  CHECK(req("GET", "/cad/provas-digitais?filtros=" + url(R"({"tipo": "foto_fachada"})"))
            ->status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "PUT updates the given fields and DELETE removes, both checked in the database") {
  auto created = req("POST", "/cad/provas-digitais/", proof_json(numero(5)));
  REQUIRE(created->status == 201);
  const std::string id = id_of(*created);
  auto updated = req("PUT", "/cad/provas-digitais/" + id + "/",
                     R"({"descricao": "Nova descrição", "sha256": ")" + std::string(64, 'e') + R"("})");
  REQUIRE_MESSAGE(updated->status == 200, updated->body);
  CHECK(std::string_view(updated->json()["descricao"]) == "Nova descrição");
  CHECK(db("select concat_ws('|', tipo, descricao, sha256, atualizado_em > criado_em) from provas.prova_digital "
           "where id = " + id) == "foto_fachada|Nova descrição|" + std::string(64, 'e') + "|t");
  CHECK(req("PUT", "/cad/provas-digitais/" + id + "/", R"({"descricao": null})")->status == 200);
  CHECK(db("select descricao is null from provas.prova_digital where id = " + id) == "t");
  CHECK(req("PUT", "/cad/provas-digitais/" + id + "/", "{}")->status == 400);
  CHECK(req("PUT", "/cad/provas-digitais/" + id + "/", R"({"tipo": null})")->status == 400);
  CHECK(req("PUT", "/cad/provas-digitais/" + id + "/", R"({"numero_cadastro": "nao-existe"})")->status == 422);
  CHECK(req("PUT", "/cad/provas-digitais/" + id + "/", R"({"criado_em": "2020-01-01"})")->status == 400);
  CHECK(req("PUT", "/cad/provas-digitais/99999999/", R"({"tipo": "x"})")->status == 404);
  CHECK(req("PUT", "/cad/provas-digitais/abc/", R"({"tipo": "x"})")->status == 400);

  auto removed = req("DELETE", "/cad/provas-digitais/" + id + "/");
  REQUIRE_MESSAGE(removed->status == 200, removed->body);
  CHECK(id_of(*removed) == id);
  CHECK(db("select count(*) from provas.prova_digital where id = " + id) == "0");
  CHECK(db("select string_agg(operacao, '' order by id) from auditoria.registro where tabela = "
           "'provas.prova_digital' and registro_id = '" + id + "'") == "IUUD");
  CHECK(req("DELETE", "/cad/provas-digitais/" + id + "/")->status == 404);
  CHECK(req("DELETE", "/cad/provas-digitais/-1/")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "one tenant's proofs are invisible to another tenant's credential") {
  const std::string n = numero(6);
  REQUIRE(n == numero(6, "beta"));  // the same integration id exists in both cities
  auto mine = req("POST", "/cad/provas-digitais/", proof_json(n));
  REQUIRE(mine->status == 201);
  const std::string id = id_of(*mine);
  CHECK(req("GET", "/cad/provas-digitais/" + n + "/", "", "beta")->status == 404);
  auto list = req("GET", "/cad/provas-digitais/", "", "beta");
  CHECK(int64_t(list->json()["total"]) == 0);
  CHECK(req("PUT", "/cad/provas-digitais/" + id + "/", R"({"tipo": "invadido"})", "beta")->status == 404);
  CHECK(req("DELETE", "/cad/provas-digitais/" + id + "/", "", "beta")->status == 404);
  CHECK(db("select tipo from provas.prova_digital where id = " + id) == "foto_fachada");
  // beta's own proof lands in beta's database only.
  auto theirs = req("POST", "/cad/provas-digitais/", proof_json(n, "documento"), "beta");
  REQUIRE(theirs->status == 201);
  CHECK(db("select count(*) from provas.prova_digital where tipo = 'documento' and numero_cadastro = '" + n + "'",
           "beta") == "1");
  CHECK(int64_t(req("GET", "/cad/provas-digitais/" + n + "/")->json()["total"]) == 1);
}

TEST_CASE_FIXTURE(Fixture,
                  "demo proofs: ten records, loading twice keeps ten, other proofs untouched") {
  const std::string others = db("select count(*) from provas.prova_digital");
  PGconn* c = store::connect_or_throw(pstack().stack.tenant_dsn("alfa"));
  CHECK(store::load_demo_provas(c) == 10);
  CHECK(store::load_demo_provas(c) == 10);
  PQfinish(c);
  CHECK(db(std::string("select count(*) from provas.prova_digital where starts_with(arquivo_url, '") +
           store::kDemoProvasUrl + "')") == "10");
  CHECK(std::stoi(db("select count(*) from provas.prova_digital")) == std::stoi(others) + 10);
  // Each demo proof's sha256 is that of its file address, and its unit exists.
  CHECK(db("select count(*) from provas.prova_digital p join cadastro.imobiliario i using (numero_cadastro) where "
           "p.sha256 = encode(sha256(convert_to(p.arquivo_url, 'UTF8')), 'hex')") == "10");
  auto a = req("GET", filtros(R"({"tipo": "relatorio_vistoria"})"));
  CHECK(int64_t(a->json()["total"]) == 5);
}
