// /crud writes through HTTP, checked in the database: create, update, delete with
// relations, all-or-nothing batches, audit trail, geo images, LIDAR profiles, permissions.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <sstream>

#include "support/server_fixture.hpp"

using namespace cadastre;
using test::Stack;

namespace {
const char* kSquare =
    R"({"type":"Polygon","coordinates":[[[-47.07,-22.91],[-47.069,-22.91],[-47.069,-22.909],[-47.07,-22.909],[-47.07,-22.91]]]})";
const char* kBowTie = R"({"type":"Polygon","coordinates":[[[-47.07,-22.91],[-47.069,-22.909],[-47.069,-22.91],[-47.07,-22.909],[-47.07,-22.91]]]})";

std::string bairro(const std::string& codigo, const std::string& nome, const char* geometry = kSquare) {
  return R"({"codigo":")" + codigo + R"(","nome":")" + nome + R"(","geometry":)" + geometry + "}";
}

/// A stack of its own per test: tenants alfa (a 40-lot demo city) and beta.
struct Fixture : test::ServerFixture {
  Fixture() : ServerFixture(std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"})) {
    stack().load_demo("alfa", 40);
  }
};

std::string codigo(const std::string& body) {
  simdjson::dom::parser p;
  return std::string(std::string_view(p.parse(body)["codigo"]));
}
}  // namespace

TEST_CASE("creating a record stores it, answers the Feature and audits the insert") {
  Fixture f;
  auto generation = std::stoi(f.db("select coalesce(max(geracao), 0) from auditoria.geracao_camada where camada = 'bairro'"));
  auto r = f.post("/crud/alfa/bairro/", bairro("B100", "Jardim Novo"));
  REQUIRE(r);
  REQUIRE(r->status == 201);
  CHECK(r->header("Content-Type") == "application/geo+json");
  simdjson::dom::parser p;
  auto j = p.parse(r->body);
  auto id = std::to_string(int64_t(j["id"]));
  CHECK(r->header("Location") == "/alfa/bairro/" + id + "/");
  CHECK(std::string_view(j["properties"]["nome"]) == "Jardim Novo");
  CHECK(f.db("select nome from cadastro.bairro where id = " + id) == "Jardim Novo");
  CHECK(f.db("select ST_GeometryType(geom) || ST_SRID(geom) from cadastro.bairro where id = " + id) == "ST_MultiPolygon4674");
  CHECK(f.db("select operacao || ':' || usuario_email || ':' || (depois->>'nome') from auditoria.registro "
             "where tabela = 'cadastro.bairro' and registro_id = '" + id + "'") == "I:usuario@alfa.gov.br:Jardim Novo");
  CHECK(f.db("select geracao from auditoria.geracao_camada where camada = 'bairro'") == std::to_string(generation + 1));
}

TEST_CASE("a GeoJSON Feature body is accepted as well") {
  Fixture f;
  auto r = f.post("/crud/alfa/bairro/",
                  std::string(R"({"type":"Feature","properties":{"codigo":"F1","nome":"Feição"},"geometry":)") + kSquare + "}");
  REQUIRE(r->status == 201);
  CHECK(f.db("select count(*) from cadastro.bairro where codigo = 'F1'") == "1");
}

TEST_CASE("invalid geometry, unknown columns, bad values and bad JSON are 400 and store nothing") {
  Fixture f;
  auto before = f.db("select count(*) from cadastro.bairro");
  auto bow = f.post("/crud/alfa/bairro/", bairro("X1", "Gravata", kBowTie));
  CHECK(bow->status == 400);
  CHECK(codigo(bow->body) == "geometria_invalida");
  CHECK(bow->body.find("Autointerse") != std::string::npos);
  auto latlon = f.post("/crud/alfa/bairro/",
                       bairro("X2", "Invertido", R"({"type":"Polygon","coordinates":[[[-22.9,-147.0],[-22.8,-147.0],[-22.8,-146.9],[-22.9,-147.0]]]})"));
  CHECK(latlon->status == 400);
  auto unknown = f.post("/crud/alfa/bairro/", R"({"codigo":"X3","nome":"A","cor":"azul"})");
  CHECK(unknown->status == 400);
  CHECK(codigo(unknown->body) == "campo_desconhecido");
  auto bad_value = f.post("/crud/alfa/lote/", R"({"inscricao":"99.999.9999","quadra_id":"muitos"})");
  CHECK(bad_value->status == 400);
  CHECK(f.post("/crud/alfa/bairro/", "{nao e json")->status == 400);
  CHECK(f.post("/crud/alfa/bairro/", "[]")->status == 400);
  auto missing = f.post("/crud/alfa/bairro/", R"({"codigo":"X4"})");
  CHECK(missing->status == 400);
  auto duplicate = f.post("/crud/alfa/bairro/", bairro(f.db("select codigo from cadastro.bairro limit 1"), "Dup"));
  CHECK(duplicate->status == 409);
  CHECK(f.db("select count(*) from cadastro.bairro") == before);
}

TEST_CASE("updating changes only the given fields, needs id and audits before and after") {
  Fixture f;
  auto r = f.put("/crud/alfa/lote/", R"({"id": 3, "numero": 4321})");
  REQUIRE(r->status == 200);
  CHECK(f.db("select numero from cadastro.lote where id = 3") == "4321");
  CHECK(f.db("select (antes->>'numero') <> (depois->>'numero') and (depois->>'numero') = '4321' "
             "from auditoria.registro where tabela = 'cadastro.lote' and registro_id = '3' and operacao = 'U'") == "t");
  CHECK(f.db("select atualizado_em > now() - interval '1 minute' from cadastro.lote where id = 3") == "t");
  CHECK(f.put("/crud/alfa/lote/", R"({"numero": 1})")->status == 400);
  CHECK(f.put("/crud/alfa/lote/", R"({"id": 99999, "numero": 1})")->status == 404);
  CHECK(f.put("/crud/alfa/lote/", R"({"id": "1 or 1=1", "numero": 1})")->status == 400);
  CHECK(f.put("/crud/alfa/lote/", R"({"id": 3, "nao_existe": 1})")->status == 400);
}

TEST_CASE("deleting a lot removes its units, owner links and buildings in one transaction, each audited") {
  Fixture f;
  auto lot = f.db("select lote_id from cadastro.imobiliario group by lote_id order by count(*) desc, lote_id limit 1");
  auto units = f.db("select count(*) from cadastro.imobiliario where lote_id = " + lot);
  auto links = f.db("select count(*) from cadastro.imobiliario_pessoa ip join cadastro.imobiliario i on i.id = ip.imobiliario_id where i.lote_id = " + lot);
  auto buildings = f.db("select count(*) from cadastro.edificacao where lote_id = " + lot);
  auto r = f.del("/crud/alfa/lote/?id=" + lot);
  REQUIRE(r->status == 200);
  simdjson::dom::parser p;
  CHECK(int64_t(p.parse(r->body)["registros_removidos"]) == 1 + std::stoi(units) + std::stoi(links) + std::stoi(buildings));
  CHECK(f.db("select count(*) from cadastro.lote where id = " + lot) == "0");
  CHECK(f.db("select count(*) from cadastro.imobiliario where lote_id = " + lot) == "0");
  CHECK(f.db("select count(*) from auditoria.registro where operacao = 'D' and tabela = 'cadastro.imobiliario'") == units);
  CHECK(f.db("select count(*) from auditoria.registro where operacao = 'D' and tabela = 'cadastro.lote' and registro_id = '" + lot + "'") == "1");
  CHECK(f.del("/crud/alfa/lote/?id=" + lot)->status == 404);
  CHECK(f.del("/crud/alfa/lote/")->status == 400);
  CHECK(f.del("/crud/alfa/lote/?id=abc")->status == 400);
}

TEST_CASE("a batch import with one bad row leaves the table unchanged and reports every row") {
  Fixture f;
  auto before = f.db("select count(*) from cadastro.bairro");
  std::string body = "[" + bairro("L1", "Um") + "," + bairro("L2", "Dois", kBowTie) + "," + bairro("L3", "Três") + "]";
  auto r = f.post("/crud/alfa/bairro/import/", body);
  REQUIRE(r);
  CHECK(r->status == 400);
  simdjson::dom::parser p;
  auto j = p.parse(r->body);
  CHECK(std::string_view(j["codigo"]) == "geometria_invalida");
  CHECK(int64_t(j["linha"]) == 2);
  CHECK(std::string_view(j["tipo"]) == "erro");
  auto rows = j["resultados"].get_array().value();
  REQUIRE(rows.size() == 3);
  CHECK(std::string_view(rows.at(0)["status"]) == "revertido");
  CHECK(std::string_view(rows.at(1)["status"]) == "erro");
  CHECK(std::string_view(rows.at(2)["status"]) == "revertido");
  CHECK(f.db("select count(*) from cadastro.bairro") == before);
  CHECK(f.db("select count(*) from auditoria.registro where tabela = 'cadastro.bairro'") == "0");

  auto ok = f.post("/crud/alfa/bairro/import/", "{\"registros\": [" + bairro("L1", "Um") + "," + bairro("L3", "Três") + "]}");
  REQUIRE(ok->status == 201);
  CHECK(std::stoi(f.db("select count(*) from cadastro.bairro")) == std::stoi(before) + 2);
  simdjson::dom::parser p2;
  CHECK(std::string_view(p2.parse(ok->body)["resultados"].at(1)["status"]) == "criado");
}

TEST_CASE("a batch update is all or nothing too") {
  Fixture f;
  auto r = f.put("/crud/alfa/lote/update/", R"([{"id": 1, "numero": 11}, {"id": 2, "numero": "x"}])");
  CHECK(r->status == 400);
  CHECK(f.db("select numero from cadastro.lote where id = 1") != "11");
  auto ok = f.put("/crud/alfa/lote/update/", R"([{"id": 1, "numero": 11}, {"id": 2, "numero": 22}])");
  CHECK(ok->status == 200);
  CHECK(f.db("select numero from cadastro.lote where id = 1") == "11");
  CHECK(f.db("select numero from cadastro.lote where id = 2") == "22");
}

TEST_CASE("geo images need a media or web link and a valid footprint") {
  Fixture f;
  std::string img = R"({"nome":"Ortofoto 2025","url":"/midia/get?file_url=orto/2025.tif","capturado_em":"2025-06-01","geometry":)" +
                    std::string(kSquare) + "}";
  auto r = f.post("/crud/alfa/geo_image/save/", img);
  REQUIRE(r->status == 201);
  simdjson::dom::parser p;
  auto id = std::to_string(int64_t(p.parse(r->body)["id"]));
  CHECK(f.db("select url from cadastro.geo_image where id = " + id) == "/midia/get?file_url=orto/2025.tif");
  auto bad = f.post("/crud/alfa/geo_image/save/", R"({"nome":"x","url":"file:///etc/passwd","geometry":)" + std::string(kSquare) + "}");
  CHECK(bad->status == 400);
  auto upd = f.put("/crud/alfa/geo_image/update/", "{\"id\": " + id + ", \"nome\": \"Ortofoto 2025 (rev)\"}");
  CHECK(upd->status == 200);
  CHECK(f.db("select nome from cadastro.geo_image where id = " + id) == "Ortofoto 2025 (rev)");
}

TEST_CASE("LIDAR profile samples are listed in order, paginated and filtered") {
  Fixture f;  // the demo city carries samples along its first streets
  auto perfil = f.db("select perfil from cadastro.perfil_lidar group by perfil having count(*) >= 20 order by perfil limit 1");
  REQUIRE(!perfil.empty());
  auto r = f.stack().client().Get("/crud/alfa/perfis/?perfil=" + perfil + "&limit=10&page=2",
                                  Stack::bearer(f.token()));
  REQUIRE(r->status == 200);
  simdjson::dom::parser p;
  auto j = p.parse(r->body);
  CHECK(int64_t(j["numberReturned"]) == 10);
  auto first = j["features"].at(0)["properties"];
  CHECK(std::to_string(int64_t(first["perfil"])) == perfil);
  CHECK(int64_t(first["sequencia"]) == 10);
  CHECK(double(first["distancia_m"]) == doctest::Approx(50.0));
  CHECK(std::string_view(j["features"].at(0)["geometry"]["type"]) == "Point");
}

TEST_CASE("writes need write permission on the layer and a token of the tenant") {
  Fixture f;
  auto reader = f.stack().add_user("alfa", "leitor@alfa.gov.br", {"*:r"});
  auto r = f.post("/crud/alfa/bairro/", bairro("P1", "Sem permissão"), reader.token);
  CHECK(r->status == 403);
  CHECK(codigo(r->body) == "acesso_negado");
  CHECK(f.put("/crud/alfa/lote/", R"({"id": 1, "numero": 1})", reader.token)->status == 403);
  CHECK(f.del("/crud/alfa/lote/?id=1", reader.token)->status == 403);
  CHECK(f.post("/crud/alfa/bairro/import/", "[" + bairro("P2", "x") + "]", reader.token)->status == 403);
  auto other =
      f.post("/crud/alfa/bairro/", bairro("P3", "Outro município"), f.stack().user("beta").token);
  CHECK(other->status == 403);
  CHECK(codigo(other->body) == "municipio_nao_permitido");
  CHECK(f.stack()
            .client()
            .Post("/crud/alfa/bairro/", bairro("P4", "x"), "application/json")
            ->status == 401);
  CHECK(f.post("/crud/alfa/pg_authid/", "{}")->status == 404);
  CHECK(f.post("/crud/alfa/bairro%22%3B--/", "{}")->status == 400);
  CHECK(f.db("select count(*) from cadastro.bairro where codigo like 'P%'") == "0");
}

TEST_CASE("every /crud route refuses another tenant's token with 403 and changes nothing") {
  Fixture f;
  const std::string beta = f.stack().user("beta").token;
  auto before = f.db("select count(*) from auditoria.registro");
  auto expect_403 = [](const std::unique_ptr<test::Answer>& r, const char* what) {
    REQUIRE_MESSAGE(r, what);
    CHECK_MESSAGE(r->status == 403, what);
    CHECK_MESSAGE(codigo(r->body) == "municipio_nao_permitido", what);
  };
  expect_403(f.post("/crud/alfa/bairro/", bairro("T1", "x"), beta), "POST");
  expect_403(f.put("/crud/alfa/lote/", R"({"id": 1, "numero": 1})", beta), "PUT");
  expect_403(f.del("/crud/alfa/lote/?id=1", beta), "DELETE");
  expect_403(f.post("/crud/alfa/bairro/import/", "[" + bairro("T2", "x") + "]", beta), "import");
  expect_403(f.put("/crud/alfa/lote/update/", R"([{"id": 1, "numero": 1}])", beta), "update");
  expect_403(f.post("/crud/alfa/geo_image/save/", "{}", beta), "geo_image/save");
  expect_403(f.put("/crud/alfa/geo_image/update/", "{}", beta), "geo_image/update");
  expect_403(f.get("/crud/alfa/perfis/", beta), "perfis");
  CHECK(f.db("select count(*) from auditoria.registro") == before);
}

// ---------------------------------------------------------------- hostile input (issue 12)

namespace {
// The answer is a 400 parametro_invalido naming `key` (and so carries no PostgreSQL text).
void expect_duplicate_key(const std::unique_ptr<test::Answer>& r, const std::string& key,
                          const char* what) {
  REQUIRE_MESSAGE(r, what);
  CHECK_MESSAGE(r->status == 400, what << ": " << r->body);
  CHECK_MESSAGE(codigo(r->body) == "parametro_invalido", what);
  CHECK_MESSAGE(r->body.find("chave duplicada no JSON: \\\"" + key + "\\\"") != std::string::npos, what << ": " << r->body);
  CHECK_MESSAGE(r->body.find("specified more than once") == std::string::npos, what);
}
}  // namespace

TEST_CASE("a duplicate JSON key is a 400 naming the key on every /crud write, and nothing is stored") {
  Fixture f;
  auto lots = f.db("select count(*) from cadastro.lote");
  auto images = f.db("select count(*) from cadastro.geo_image");
  auto audit = f.db("select count(*) from auditoria.registro");
  auto numero = f.db("select numero from cadastro.lote where id = 3");
  expect_duplicate_key(f.post("/crud/alfa/lote/", R"({"id":"1","id":"2"})"), "id", "POST /crud/alfa/lote/");
  expect_duplicate_key(f.put("/crud/alfa/lote/", R"({"id":3,"numero":445,"numero":445})"), "numero", "PUT /crud/alfa/lote/");
  expect_duplicate_key(f.post("/crud/alfa/geo_image/save/",
                              R"({"nome":"a","url":"https://x/a.tif","nome":"b","geometry":)" + std::string(kSquare) + "}"),
                       "nome", "geo_image/save");
  expect_duplicate_key(f.post("/crud/alfa/bairro/import/",
                              "[" + bairro("D1", "Um") + R"(,{"codigo":"D2","nome":"Dois","codigo":"D3","geometry":)" +
                                  kSquare + "}]"),
                       "codigo", "import/ row");
  expect_duplicate_key(f.put("/crud/alfa/lote/update/", R"([{"id":1,"numero":1},{"id":2,"id":3}])"), "id", "update/ row");
  CHECK(f.db("select count(*) from cadastro.lote") == lots);
  CHECK(f.db("select count(*) from cadastro.geo_image") == images);
  CHECK(f.db("select count(*) from cadastro.bairro where codigo like 'D_'") == "0");
  CHECK(f.db("select numero from cadastro.lote where id = 3") == numero);
  CHECK(f.db("select count(*) from auditoria.registro") == audit);
}

TEST_CASE("a NUL character in a JSON string is a 400 naming the field, and nothing is stored") {
  Fixture f;
  auto r = f.post("/crud/alfa/bairro/",
                  R"({"codigo":"N1","nome":"Vila\u0000Nula","geometry":)" + std::string(kSquare) + "}");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(codigo(r->body) == "parametro_invalido");
  CHECK(r->body.find("nome") != std::string::npos);
  CHECK(f.db("select count(*) from cadastro.bairro where codigo = 'N1'") == "0");
}

TEST_CASE("a database failure is a 500 with the generic body; PostgreSQL's text goes to the log with the request id") {
  std::ostringstream log;
  server::AppOptions options;
  options.http.log = &log;
  Stack stack({"alfa"}, options);
  // A failure no request can cause: the table's trigger raises an error of its own.
  test::query_value(stack.tenant_dsn("alfa"),
                    "create function cadastro.falha() returns trigger language plpgsql as $$ begin raise exception "
                    "'segredo interno: relação cadastro.bairro_shadow' using detail = 'detalhe sigiloso'; end $$; "
                    "create trigger falha before insert on cadastro.bairro for each row execute function cadastro.falha(); "
                    "select 1");
  auto r = stack.client().Post("/crud/alfa/bairro/", Stack::bearer(stack.user("alfa").token), bairro("E1", "Erro"),
                               "application/json");
  REQUIRE(r);
  CHECK(r->status == 500);
  CHECK(codigo(r->body) == "erro_interno");
  const std::string id = r->get_header_value("X-Request-Id");
  CHECK(r->body.find(id) != std::string::npos);  // the generic body points at the log line
  for (const char* leak : {"segredo", "bairro_shadow", "sigiloso", "ERROR", "plpgsql", "insert into"})
    CHECK_MESSAGE(r->body.find(leak) == std::string::npos, leak << " in " << r->body);
  const std::string logged = log.str();
  CHECK(logged.find("segredo interno") != std::string::npos);
  CHECK(logged.find("\"request_id\":\"" + id + "\"") != std::string::npos);

  // A batch row meeting the same failure fails the whole batch the same way.
  auto batch = stack.client().Post("/crud/alfa/bairro/import/", Stack::bearer(stack.user("alfa").token),
                                   "[" + bairro("E2", "Erro") + "]", "application/json");
  REQUIRE(batch);
  CHECK(batch->status == 500);
  CHECK(batch->body.find("segredo") == std::string::npos);
  CHECK(test::query_value(stack.tenant_dsn("alfa"), "select count(*) from cadastro.bairro where codigo like 'E_'") == "0");
}

TEST_CASE("a constraint violation is answered in our words, without PostgreSQL's") {
  Fixture f;
  auto existing = f.db("select codigo from cadastro.bairro limit 1");
  auto duplicate = f.post("/crud/alfa/bairro/", bairro(existing, "Repetido"));
  REQUIRE(duplicate);
  CHECK(duplicate->status == 409);
  CHECK(codigo(duplicate->body) == "conflito");
  for (const char* leak : {"duplicate key", "violates", "constraint", "bairro_codigo"})
    CHECK_MESSAGE(duplicate->body.find(leak) == std::string::npos, leak << " in " << duplicate->body);
}
