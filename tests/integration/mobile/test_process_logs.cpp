// POST /aplicativo/{city}/aplicativo/process-logs-v2/: offline edit logs applied in order,
// replays that change nothing (records and audit trail checked), conflicts with newer server
// edits reported with the server value kept, per-entry errors, and malformed batches
// refused whole before anything is written.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

const std::string kLogsPath = "/aplicativo/alfa/aplicativo/process-logs-v2/";

std::int64_t audit_rows() { return fixture().db_int("select count(*) from auditoria.registro"); }
std::int64_t log_rows() { return fixture().db_int("select count(*) from aplicativo.log_aplicado"); }

// The data package's read time: the base version of the app's edits.
std::string base_version(std::int64_t lot) {
  auto a = fixture().get("/aplicativo/alfa/aplicativo/data/" + std::to_string(lot));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  return a->text("gerado_em");
}

std::string entry(const std::string& id, const std::string& camada, const std::string& op, const std::string& rest) {
  return R"({"id_cliente": ")" + id + R"(", "timestamp": "2024-05-01T12:00:00-03:00", "camada": ")" + camada +
         R"(", "operacao": ")" + op + "\"" + (rest.empty() ? "" : ", " + rest) + "}";
}

std::string batch(const std::string& device, const std::vector<std::string>& entries) {
  std::string list;
  for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
  return R"({"dispositivo": ")" + device + R"(", "logs": [)" + list + "]}";
}

std::string status_of(simdjson::dom::element answer, std::size_t i) {
  return std::string(std::string_view(answer["resultados"].at(i)["status"]));
}

// A new building for `lot`: the domain codes of an existing one, a small square inside the lot.
std::string new_building(std::int64_t lot) {
  const std::string l = std::to_string(lot);
  return R"("dados": {"lote_id": )" + l +
         R"(, "area_construida": 55.5, "pavimentos": 2, "padrao": ")" +
         fixture().db("select padrao from cadastro.edificacao order by id limit 1") +
         R"(", "conservacao": ")" +
         fixture().db("select conservacao from cadastro.edificacao order by id limit 1") +
         R"(", "uso": ")" +
         fixture().db("select uso from cadastro.edificacao order by id limit 1") +
         R"(", "geometry": )" +
         fixture().db(
             "select ST_AsGeoJSON(ST_Buffer(ST_PointOnSurface(geom), 0.00002, 1)) from "
             "cadastro.lote where id = " +
             l) +
         "}";
}

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "a log applies its entries in order, and replaying it changes no record and adds "
                  "no audit row") {
  const std::int64_t lot = 20, other = 21;
  const std::string base = base_version(lot);
  const std::string removed = db("select min(id) from cadastro.edificacao where lote_id = " + std::to_string(other));
  REQUIRE(!removed.empty());
  const std::int64_t buildings_before = db_int("select count(*) from cadastro.edificacao");
  const std::int64_t audit_before = audit_rows();
  const std::string body =
      batch("tablet-01", {entry("a-1", "lote", "atualizar", R"("registro_id": 20, "dados": {"numero": 4321}, "versao_base": ")" + base + "\""),
                          entry("a-2", "edificacao", "inserir", new_building(lot)),
                          // The same record again with the same base: the device's own edit is no conflict.
                          entry("a-3", "lote", "atualizar", R"("registro_id": "20", "dados": {"numero": 4322}, "versao_base": ")" + base + "\""),
                          entry("a-4", "edificacao", "remover", R"("registro_id": )" + removed + R"(, "versao_base": ")" + base + "\"")});
  auto a = post(kLogsPath, body);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(int64_t(j["total"]) == 4);
  CHECK(int64_t(j["aplicados"]) == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK_MESSAGE(status_of(j, i) == "aplicado", a->body);
  const std::string created = std::string(std::string_view(j["resultados"].at(1)["registro_id"]));
  CHECK(db("select numero from cadastro.lote where id = 20") == "4322");
  CHECK(db("select area_construida from cadastro.edificacao where id = " + created) == "55.50");
  CHECK(db("select lote_id from cadastro.edificacao where id = " + created) == "20");
  CHECK(db("select count(*) from cadastro.edificacao where id = " + removed) == "0");
  CHECK(db_int("select count(*) from cadastro.edificacao") == buildings_before);
  const std::int64_t audit_after = audit_rows();
  CHECK(audit_after == audit_before + 4);  // U, I, U, D: the building removed has no relations
  CHECK(db("select count(*) from aplicativo.log_aplicado where dispositivo = 'tablet-01'") == "4");

  // The replay answers from the log: nothing applied, nothing audited, same ids.
  const std::string snapshot = db("select md5(string_agg(to_jsonb(t)::text, '' order by id)) from cadastro.edificacao t");
  const std::string lot_row = db("select to_jsonb(t)::text from cadastro.lote t where id = 20");
  auto replay = post(kLogsPath, body);
  REQUIRE_MESSAGE(replay->status == 200, replay->body);
  auto r = replay->json();
  CHECK(int64_t(r["ja_processados"]) == 4);
  CHECK(int64_t(r["aplicados"]) == 0);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(status_of(r, i) == "ja_processado");
    CHECK(std::string_view(r["resultados"].at(i)["status_original"]) == "aplicado");
  }
  CHECK(std::string_view(r["resultados"].at(1)["registro_id"]) == created);
  CHECK(audit_rows() == audit_after);
  CHECK(db("select md5(string_agg(to_jsonb(t)::text, '' order by id)) from cadastro.edificacao t") == snapshot);
  CHECK(db("select to_jsonb(t)::text from cadastro.lote t where id = 20") == lot_row);
  CHECK(db("select count(*) from aplicativo.log_aplicado where dispositivo = 'tablet-01'") == "4");

  // A log that grew offline: the known entries are skipped, the new one applies once.
  auto grown = post(kLogsPath, batch("tablet-01", {entry("a-1", "lote", "atualizar", R"("registro_id": 20, "dados": {"numero": 4321}, "versao_base": ")" + base + "\""),
                                               entry("a-5", "lote", "atualizar", R"("registro_id": 20, "dados": {"numero": 4323}, "versao_base": ")" + base + "\"")}));
  REQUIRE_MESSAGE(grown->status == 200, grown->body);
  CHECK(status_of(grown->json(), 0) == "ja_processado");
  CHECK(status_of(grown->json(), 1) == "aplicado");
  CHECK(db("select numero from cadastro.lote where id = 20") == "4323");
  CHECK(audit_rows() == audit_after + 1);
  // The same client id from another device is another entry.
  auto other_device = post(kLogsPath, batch("tablet-02", {entry("a-1", "lote", "atualizar", R"("registro_id": 20, "dados": {"numero": 4324}, "versao_base": ")" + base_version(lot) + "\"")}));
  CHECK(status_of(other_device->json(), 0) == "aplicado");
}

TEST_CASE_FIXTURE(Fixture,
                  "an edit based on a version older than a server edit is reported as a conflict "
                  "and the server value is kept") {
  const std::int64_t lot = 30;
  const std::string base = base_version(lot);
  // Someone edits the lot on the server after the app downloaded it.
  auto server_edit = request("PUT", "/crud/alfa/lote/", Stack::bearer(city().user("alfa").token),
                             R"({"id": 30, "numero": 777})");
  REQUIRE_MESSAGE(server_edit->status == 200, server_edit->body);
  const std::int64_t audit_before = audit_rows();

  auto a = post(kLogsPath, batch("tablet-c", {entry("c-1", "lote", "atualizar", R"("registro_id": 30, "dados": {"numero": 111}, "versao_base": ")" + base + "\""),
                                          entry("c-2", "lote", "remover", R"("registro_id": 30, "versao_base": ")" + base + "\"")}));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(int64_t(j["conflitos"]) == 2);
  auto first = j["resultados"].at(0);
  CHECK(std::string_view(first["status"]) == "conflito");
  CHECK(int64_t(first["atual"]["properties"]["numero"]) == 777);
  CHECK(int64_t(first["atual"]["id"]) == 30);
  CHECK(!std::string_view(first["alterado_em"]).empty());
  CHECK(!std::string_view(first["mensagem"]).empty());
  CHECK(db("select numero from cadastro.lote where id = 30") == "777");
  CHECK(db("select count(*) from cadastro.lote where id = 30") == "1");
  CHECK(audit_rows() == audit_before);
  CHECK(db("select status from aplicativo.log_aplicado where dispositivo = 'tablet-c' and id_cliente = 'c-1'") == "conflito");

  // Replaying the conflicting entries reports them again and still changes nothing.
  auto replay = post(kLogsPath, batch("tablet-c", {entry("c-1", "lote", "atualizar", R"("registro_id": 30, "dados": {"numero": 111}, "versao_base": ")" + base + "\"")}));
  CHECK(status_of(replay->json(), 0) == "ja_processado");
  CHECK(std::string_view(replay->json()["resultados"].at(0)["status_original"]) == "conflito");
  CHECK(db("select numero from cadastro.lote where id = 30") == "777");

  // Rebased on the server's version, the edit applies.
  const std::string fresh = base_version(lot);
  auto rebased = post(kLogsPath, batch("tablet-c", {entry("c-3", "lote", "atualizar", R"("registro_id": 30, "dados": {"numero": 112}, "versao_base": ")" + fresh + "\"")}));
  CHECK(status_of(rebased->json(), 0) == "aplicado");
  CHECK(db("select numero from cadastro.lote where id = 30") == "112");
}

TEST_CASE_FIXTURE(Fixture, "an entry that fails is reported and recorded while the others apply") {
  const std::string base = base_version(40);
  auto a = post(kLogsPath, batch("tablet-e", {entry("e-1", "lote", "atualizar", R"("registro_id": 999999, "dados": {"numero": 1}, "versao_base": ")" + base + "\""),
                                          entry("e-2", "lote", "atualizar", R"("registro_id": 40, "dados": {"topografia": "nao-existe"}, "versao_base": ")" + base + "\""),
                                          entry("e-3", "lote", "atualizar", R"("registro_id": 40, "dados": {"numero": 4040}, "versao_base": ")" + base + "\"")}));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(status_of(j, 0) == "erro");
  CHECK(std::string_view(j["resultados"].at(0)["codigo"]) == "nao_encontrado");
  CHECK(status_of(j, 1) == "erro");
  CHECK(status_of(j, 2) == "aplicado");
  CHECK(int64_t(j["erros"]) == 2);
  CHECK(db("select numero from cadastro.lote where id = 40") == "4040");
  CHECK(db("select topografia from cadastro.lote where id = 40") != "nao-existe");
  auto replay = post(kLogsPath, batch("tablet-e", {entry("e-2", "lote", "atualizar", R"("registro_id": 40, "dados": {"topografia": "nao-existe"}, "versao_base": ")" + base + "\"")}));
  CHECK(std::string_view(replay->json()["resultados"].at(0)["status_original"]) == "erro");
}

TEST_CASE_FIXTURE(Fixture,
                  "a malformed log is refused whole with 400 and nothing of it is applied") {
  const std::string base = base_version(50);
  const std::string good = entry("m-1", "lote", "atualizar", R"("registro_id": 50, "dados": {"numero": 5050}, "versao_base": ")" + base + "\"");
  const std::string numero = db("select coalesce(numero::text, 'null') from cadastro.lote where id = 50");
  const std::int64_t logs_before = log_rows(), audit_before = audit_rows();
  struct Case {
    std::string body;
    int status;
  };
  std::string many;
  for (int i = 0; i < 1001; ++i) many += std::string(i ? "," : "") + entry("x" + std::to_string(i), "lote", "remover", R"("registro_id": 1, "versao_base": ")" + base + "\"");
  for (const Case& c : std::vector<Case>{
           {"{nope", 400},
           {R"({"logs": [)" + good + "]}", 400},                                  // no dispositivo
           {batch("t", {}), 400},                                                 // no entries
           {batch("t", {good, entry("m-2", "lote", "mover", R"("registro_id": 50)")}), 400},
           {batch("t", {good, R"({"id_cliente": "m-2", "timestamp": "2024-02-30T10:00:00Z", "camada": "lote", "operacao": "remover", "registro_id": 50, "versao_base": ")" + base + "\"}"}), 400},
           {batch("t", {good, R"({"id_cliente": "m-2", "timestamp": "ontem", "camada": "lote", "operacao": "remover", "registro_id": 50, "versao_base": ")" + base + "\"}"}), 400},
           {batch("t", {good, entry("m-2", "lote", "atualizar", R"("registro_id": 50, "dados": {"numero": 1})")}), 400},  // no versao_base
           {batch("t", {good, entry("m-2", "lote", "atualizar", R"("registro_id": 50, "dados": {"nao_existe": 1}, "versao_base": ")" + base + "\"")}), 400},
           {batch("t", {good, entry("m-2", "lote", "atualizar", R"("registro_id": "abc", "dados": {"numero": 1}, "versao_base": ")" + base + "\"")}), 400},
           {batch("t", {good, entry("m-2", "lote", "inserir", R"("registro_id": 5, "dados": {"numero": 1})")}), 400},
           {batch("t", {good, entry("m-2", "lote", "remover", R"("registro_id": 50, "versao_base": ")" + base + "\", \"extra\": 1")}), 400},
           {batch("t", {good, good}), 400},                                       // repeated id_cliente
           {batch("t", {good, entry("m-2", "lote;drop table x", "remover", R"("registro_id": 50, "versao_base": ")" + base + "\"")}), 400},
           {batch("t", {good, entry("m-2", "nao_existe", "remover", R"("registro_id": 50, "versao_base": ")" + base + "\"")}), 404},
           {batch("t", {good, entry("m-2", "edificacao", "inserir", R"("dados": {"geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}})")}), 400},
           {batch("t", {many}), 413},
       }) {
    auto a = post(kLogsPath, c.body);
    CHECK_MESSAGE(a->status == c.status, c.body.substr(0, 300) << " → " << a->body);
  }
  CHECK(log_rows() == logs_before);
  CHECK(audit_rows() == audit_before);
  CHECK(db("select coalesce(numero::text, 'null') from cadastro.lote where id = 50") == numero);
}

TEST_CASE_FIXTURE(
    Fixture,
    "process-logs needs write permission on every layer of the log, and the caller's own tenant") {
  const std::string base = base_version(60);
  const std::string body = batch("tablet-p", {entry("p-1", "lote", "atualizar", R"("registro_id": 60, "dados": {"numero": 6060}, "versao_base": ")" + base + "\"")});
  const auto& reader = limited_user("so-lote-app@alfa.gov.br", {"lote:r"});
  auto denied = post(kLogsPath, body, reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(post(kLogsPath, body, city().user("beta").token)->status == 403);
  CHECK(city().client().Post(kLogsPath, body, "application/json")->status == 401);
  CHECK(db("select count(*) from aplicativo.log_aplicado where dispositivo = 'tablet-p'") == "0");
  const auto& writer = limited_user("escreve-lote-app@alfa.gov.br", {"lote:rw"});
  auto ok = post(kLogsPath, body, writer.token);
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  CHECK(db("select numero from cadastro.lote where id = 60") == "6060");
  CHECK(db("select usuario_email from auditoria.registro where tabela = 'cadastro.lote' and registro_id = '60' order by id desc limit 1") ==
        "escreve-lote-app@alfa.gov.br");
}
