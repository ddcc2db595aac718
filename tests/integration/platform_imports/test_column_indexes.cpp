// The indexes of an imported layer's value columns (decision 0025): the import commits the
// layer with its geometries' key and GiST index, and leaves a job of its own (tipo
// 'indices', Context::follow) that builds the columns' indexes after it; a follower that a
// dying process left unqueued is queued by the next claim of the job it follows.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;

namespace {

std::string named_points(int count) {
  std::string g = R"({"type":"FeatureCollection","features":[)";
  for (int i = 0; i < count; ++i)
    g += std::string(i ? "," : "") + R"({"type":"Feature","properties":{"nome":"São José )" + std::to_string(i) +
         R"(","valor":)" + std::to_string(i) + R"(.5},"geometry":{"type":"Point","coordinates":[)" +
         std::to_string(-46.6 + i * 1e-4) + ",-23.5]}}";
  return g + "]}";
}

// `sql`'s answer once it is `expected` (bounded polls: the follower runs after its job).
std::string reaches_value(const ImportsFixture& f, const std::string& sql, const std::string& expected, bool platform = false) {
  std::string got;
  for (int i = 0; i < 200 && (got = platform ? f.platform_db(sql) : f.db(sql)) != expected; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return got;
}

// The names of the indexes of table camadas.<table>, in order.
std::string index_names(const ImportsFixture& f, const std::string& table) {
  return f.db("select string_agg(indexname, ',' order by indexname) from pg_indexes where schemaname = 'camadas' "
              "and tablename = '" + table + "'");
}

// `count` named points imported as layer "Pontos" of the cast's project, the job ended
// concluida: the job's id and what it says.
std::pair<std::int64_t, JobView> imported(ImportsFixture& f, const ImportCast& c, const std::string& codigo,
                                          int count) {
  const std::int64_t job = f.submitted(f.route("shp", codigo, c.projeto, "Pontos"),
                                       f.shapefile_zip(named_points(count)), "p.zip", c.owner);
  JobView done = f.finished(job, c.owner);
  REQUIRE_MESSAGE(done.estado == "concluida", done.json);
  return {job, done};
}

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "an import commits its layer with its key and GiST index; the job that follows it "
                                  "builds the value columns' indexes, each once") {
  auto c = cast();
  const auto [job, done] = imported(*this, c, "indices-1", 30);
  const std::string L = n(done.camada);
  const std::string nome = db("select k.id from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
                              "where f.camada_id = " + L + " and k.chave = 'nome'");
  const std::string valor = db("select k.id from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
                               "where f.camada_id = " + L + " and k.chave = 'valor'");
  REQUIRE(!nome.empty());
  REQUIRE(!valor.empty());
  // The layer's kept number of geometries is its partition's (the COPY fired no trigger of
  // projeto.geometrias: the attach counts them).
  CHECK(db("select total_geometrias || ',' || (select count(*) from camadas.g" + L + ") from projeto.camadas "
           "where id = " + L) == "30,30");

  // One follower, of the same user and project, naming the layer; never in the user's list.
  CHECK(db("select tipo || '|' || criado_por || '|' || projeto_id || '|' || (parametros->>'camada') "
           "from projeto.importacoes where apos = " + n(job)) ==
        "indices|" + n(c.owner.user_id) + "|" + n(c.projeto) + "|" + L);
  CHECK(reaches_value(*this, "select estado from projeto.importacoes where apos = " + n(job), "concluida") == "concluida");
  auto listed = get("/importar/pendentes?pageSize=1000", c.owner);
  REQUIRE(listed->status == 200);
  CHECK(listed->body.find(R"("tipo":"indices")") == std::string::npos);
  CHECK(reaches_value(*this, "select count(*) from plataforma.tarefas", "0", true) == "0");

  // The partition: key, GiST and the link's partial index. The values: the key, and per column its ordered index; a
  // text column its trigram and prefix indexes too, named after layer and field.
  CHECK(index_names(*this, "g" + L) == "g" + L + "_geom_idx,g" + L + "_pkey,g" + L + "_vinculo_id_idx");
  const std::string l = "l" + L;
  CHECK(index_names(*this, l) == l + "_c" + nome + "_ordem," + l + "_c" + nome + "_prefixo," + l + "_c" + nome +
                                    "_trgm," + l + "_c" + valor + "_ordem," + l + "_pkey");
  // Built again (a retried job), nothing is added; a layer gone has nothing to build.
  CHECK(db("select projeto.camada_indices(" + L + ")") == "2");
  CHECK(db("select count(*) from pg_indexes where schemaname = 'camadas' and tablename = '" + l + "'") == "5");
  CHECK(db("select projeto.camada_indices(987654321)") == "0");
  // The search reads them: accent-insensitive, as before.
  CHECK(db("select count(*) from camadas." + l + " where projeto.chave_busca(c_" + nome + ") like 'sao jose 1%'") ==
        "11");
}

TEST_CASE_FIXTURE(ImportsFixture, "a follower left unqueued by a process that died after its job committed is "
                                  "queued by the next claim of that job, and builds the indexes") {
  auto c = cast();
  const auto [job, done] = imported(*this, c, "indices-2", 5);
  const std::string L = n(done.camada), l = "l" + n(done.camada);
  REQUIRE(reaches_value(*this, "select estado from projeto.importacoes where apos = " + n(job), "concluida") == "concluida");
  REQUIRE(reaches_value(*this, "select count(*) from plataforma.tarefas", "0", true) == "0");

  // As a process leaves it when it dies between the import's commit and the queueing: the
  // follower pendente, unqueued, the import's place in the queue still held under a lease
  // that has run out.
  db("do $$ declare i regclass; begin for i in select indexrelid::regclass from pg_index where indrelid = 'camadas." + l +
     "'::regclass and not indisprimary loop execute 'drop index ' || i; end loop; end $$");
  const std::string follower = db(
      "insert into projeto.importacoes (tipo, criado_por, projeto_id, parametros, apos) values ('indices', " +
      n(c.owner.user_id) + ", " + n(c.projeto) + ", jsonb_build_object('camada', " + L + "), " + n(job) +
      ") returning id");
  const std::string tenant = platform_db("select id from plataforma.tenants where slug = 'alfa'");
  platform_db("insert into plataforma.tarefas (tenant_id, importacao_id, fila, tipo, estado, titular, prazo, tentativas) "
              "values (" + tenant + ", " + n(job) + ", 'importacoes', 'shp', 'executando', 'instancia-morta', "
              "now() - interval '1 second', 1)");

  CHECK(reaches_value(*this, "select estado from projeto.importacoes where id = " + follower, "concluida") == "concluida");
  CHECK(db("select count(*) from pg_indexes where schemaname = 'camadas' and tablename = '" + l + "'") == "5");
  // The import itself is not run again.
  CHECK(db("select estado || '|' || tentativa from projeto.importacoes where id = " + n(job)) == "concluida|1");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + n(c.projeto)) == "1");
  CHECK(reaches_value(*this, "select count(*) from plataforma.tarefas", "0", true) == "0");
}

TEST_CASE_FIXTURE(ImportsFixture, "the job that follows an import takes the import's place in its tenant's line: it "
                                  "runs before the imports the tenant queued meanwhile") {
  auto c = cast();
  // The first import is held 1.5 s (a trigger on its layer's row), long enough for the
  // second to be queued behind it; the jobs' starts are recorded in order.
  db("create function teste_devagar() returns trigger language plpgsql as $$ begin "
     "if new.nome = 'Devagar' then perform pg_sleep(1.5); end if; return new; end $$");
  db("create trigger teste_devagar before insert on projeto.camadas for each row execute function teste_devagar()");
  db("create table teste_inicios (ordem bigserial, importacao bigint)");
  db("create function teste_inicio() returns trigger language plpgsql as $$ begin "
     "insert into teste_inicios (importacao) values (new.id); return null; end $$");
  db("create trigger teste_inicio after update of estado on projeto.importacoes for each row "
     "when (new.estado = 'executando' and old.estado <> 'executando') execute function teste_inicio()");

  const std::int64_t first = submitted(route("shp", "lugar-1", c.projeto, "Devagar"),
                                       shapefile_zip(named_points(5)), "p.zip", c.owner);
  const std::int64_t second = submitted(route("shp", "lugar-2", c.projeto, "Depois"),
                                        shapefile_zip(named_points(5)), "p.zip", c.owner);
  const std::string first_done = finished(first, c.owner).estado, second_done = finished(second, c.owner).estado;
  const std::string follows_first = db("select id from projeto.importacoes where apos = " + n(first));
  const std::string follows_second = db("select id from projeto.importacoes where apos = " + n(second));
  for (const std::string& f : {follows_first, follows_second})
    reaches_value(*this, "select estado from projeto.importacoes where id = " + f, "concluida");
  const std::string starts = db("select string_agg(importacao::text, ',' order by ordem) from teste_inicios");
  db("drop trigger teste_inicio on projeto.importacoes; drop function teste_inicio(); drop table teste_inicios; "
     "drop trigger teste_devagar on projeto.camadas; drop function teste_devagar()");

  CHECK(first_done == "concluida");
  CHECK(second_done == "concluida");
  REQUIRE(!follows_first.empty());
  // The first import, its indexes, then the second import and its indexes.
  CHECK(starts == n(first) + "," + follows_first + "," + n(second) + "," + follows_second);
  CHECK(reaches_value(*this, "select count(*) from plataforma.tarefas", "0", true) == "0");
}
