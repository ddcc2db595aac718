// POST /explorer/{municipio}/query/preview2: the preview, run with bound values in a
// read-only transaction with a statement timeout and a row cap.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
std::unique_ptr<Answer> run_query(const std::string& body, const std::string& token = city().user("alfa").token) {
  return fixture().call("POST", "/explorer/alfa/query/preview2", body, token);
}

// Views over which the explorer's guarantees can be observed (dropped by the destructor).
struct ProbeViews {
  ProbeViews() {
    fixture().db(
        "create table if not exists public.explorer_escrita (n int);"
        "create or replace function cadastro.explorer_grava() returns int language sql volatile as "
        "'insert into public.explorer_escrita values (1) returning n';"
        "create or replace view cadastro.v_explorer_grava as select cadastro.explorer_grava() as n;"
        "create or replace view cadastro.v_explorer_ambiente as select "
        "current_setting('transaction_read_only') as "
        "somente_leitura, current_setting('statement_timeout') as tempo_limite;"
        "create or replace view cadastro.v_explorer_serie as select n from generate_series(1, "
        "1500) n;"
        "select 1");
    city().app().catalogs().clear();  // the views are new tables of the catalog
  }
  ~ProbeViews() {
    fixture().db(
        "drop view cadastro.v_explorer_grava, cadastro.v_explorer_ambiente, "
        "cadastro.v_explorer_serie;"
        "drop function cadastro.explorer_grava(); drop table public.explorer_escrita; select 1");
    city().app().catalogs().clear();
  }
};
}  // namespace

TEST_CASE_FIXTURE(Fixture, "preview2 returns the rows the SQL selects, geometry as GeoJSON") {
  auto a = run_query(R"({"tabela": "lote", "colunas": ["id", "inscricao", "area_terreno", "geom"],
    "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 300}],
    "ordem": [{"coluna": "area_terreno", "direcao": "desc"}], "limite": 5})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(a->text("sql").find(R"(where t."area_terreno" > 300 order by t."area_terreno" desc, t."id" limit 5)") !=
        std::string::npos);
  auto rows = j["registros"].get_array();
  CHECK(int64_t(j["total_retornado"]) == int64_t(rows.size()));
  CHECK(rows.size() == std::min<std::size_t>(5, std::stoul(db("select count(*) from cadastro.lote where area_terreno > 300"))));
  std::string ids;
  for (auto r : rows) {
    ids += std::to_string(int64_t(r["id"])) + ",";
    CHECK(double(r["area_terreno"]) > 300);
    CHECK(std::string_view(r["geom"]["type"]) == "MultiPolygon");
  }
  CHECK(ids == db("select string_agg(id::text || ',', '' order by area_terreno desc, id) from (select id, area_terreno "
                  "from cadastro.lote where area_terreno > 300 order by area_terreno desc, id limit 5) t"));
}

TEST_CASE_FIXTURE(Fixture,
                  "preview2 binds values: every operator selects what PostgreSQL selects") {
  std::string some = db("select inscricao from cadastro.lote order by id limit 1");
  auto count_of = [](const std::string& filter) {
    auto a = run_query(R"({"tabela": "lote", "colunas": ["id"], "limite": 1000, "filtros": [)" + filter + "]}");
    REQUIRE_MESSAGE(a->status == 200, a->body);
    return std::to_string(int64_t(a->json()["total_retornado"]));
  };
  CHECK(count_of(R"({"coluna": "inscricao", "operador": "=", "valor": ")" + some + R"("})") == "1");
  CHECK(count_of(R"({"coluna": "inscricao", "operador": "<>", "valor": ")" + some + R"("})") ==
        db("select count(*) from cadastro.lote where inscricao <> '" + some + "'"));
  CHECK(count_of(R"({"coluna": "testada", "operador": "<", "valor": 12})") ==
        db("select count(*) from cadastro.lote where testada < 12"));
  CHECK(count_of(R"({"coluna": "testada", "operador": ">=", "valor": "12.0"})") ==
        db("select count(*) from cadastro.lote where testada >= 12"));
  CHECK(count_of(R"({"coluna": "topografia", "operador": "in", "valor": ["plano", "aclive_ate_10"]})") ==
        db("select count(*) from cadastro.lote where topografia in ('plano', 'aclive_ate_10')"));
  CHECK(count_of(R"({"coluna": "topografia", "operador": "icontains", "valor": "PLAN"})") ==
        db("select count(*) from cadastro.lote where topografia ilike '%plan%'"));
  CHECK(count_of(R"({"coluna": "numero", "operador": "is null"})") ==
        db("select count(*) from cadastro.lote where numero is null"));
  std::string box = db("select concat_ws(',', ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e)) from (select "
                       "ST_Extent(geom) e from (select geom from cadastro.lote order by id limit 3) t) b");
  CHECK(count_of(R"({"coluna": "geom", "operador": "bbox", "valor": [)" + box + "]}") ==
        db("select count(*) from cadastro.lote where geom && ST_MakeEnvelope(" + box + ", 4674)"));
}

TEST_CASE_FIXTURE(Fixture, "preview2 with a hostile value returns no rows and changes nothing") {
  auto lots = db("select count(*) from cadastro.lote");
  auto a = run_query(R"({"tabela": "lote", "colunas": ["id"],
    "filtros": [{"coluna": "inscricao", "operador": "=", "valor": "x'; drop table cadastro.lote; --"}]})");
  REQUIRE(a->status == 200);
  CHECK(a->text("sql").find(R"('x''; drop table cadastro.lote; --')") != std::string::npos);
  CHECK(int64_t(a->json()["total_retornado"]) == 0);
  CHECK(a->json()["registros"].get_array().size() == 0);
  CHECK(db("select count(*) from cadastro.lote") == lots);
}

TEST_CASE_FIXTURE(Fixture,
                  "preview2 refuses hostile identifiers with 400 before running anything") {
  auto lots = db("select count(*) from cadastro.lote");
  for (const char* body : {R"({"tabela": "lote\"; drop table cadastro.lote; --"})",
                           R"({"tabela": "plataforma.usuarios"})", R"({"tabela": "pg_catalog.pg_authid"})",
                           R"({"tabela": "pg_authid"})", R"({"tabela": "lote", "colunas": ["id\"; drop table x; --"]})",
                           R"({"tabela": "lote", "colunas": ["senha"]})"}) {
    auto a = run_query(body);
    CHECK_MESSAGE(a->status == 400, body);
    CHECK(a->json()["registros"].error() == simdjson::NO_SUCH_FIELD);
  }
  CHECK(db("select count(*) from cadastro.lote") == lots);
}

TEST_CASE_FIXTURE(Fixture,
                  "preview2 runs read-only under the statement timeout and caps the rows at 1000") {
  ProbeViews views;
  auto env = run_query(R"({"tabela": "v_explorer_ambiente"})");
  REQUIRE_MESSAGE(env->status == 200, env->body);
  auto row = env->json()["registros"].at(0);
  CHECK(std::string_view(row["somente_leitura"]) == "on");
  CHECK(std::string_view(row["tempo_limite"]) == "5s");

  // A view whose reading writes: it writes when read directly, and is refused by preview2.
  CHECK(db("select n from cadastro.v_explorer_grava") == "1");
  auto write = run_query(R"({"tabela": "v_explorer_grava"})");
  CHECK(write->status == 403);
  CHECK(write->codigo() == "acesso_negado");
  CHECK(db("select count(*) from public.explorer_escrita") == "1");

  auto capped = run_query(R"({"tabela": "v_explorer_serie", "limite": 5000})");
  REQUIRE(capped->status == 200);
  CHECK(int64_t(capped->json()["total_retornado"]) == 1000);
  CHECK(int64_t(capped->json()["limite"]) == 1000);
  CHECK(capped->text("sql") == R"(select t."n" from "cadastro"."v_explorer_serie" t limit 1000)");
  auto default_limit = run_query(R"({"tabela": "v_explorer_serie"})");
  CHECK(int64_t(default_limit->json()["total_retornado"]) == 100);
}

TEST_CASE_FIXTURE(Fixture,
                  "preview2 needs read permission on the table and a token of the tenant") {
  const auto& reader = user_with("so-lote@alfa.gov.br", {"lote:r"});
  CHECK(run_query(R"({"tabela": "lote", "limite": 1})", reader.token)->status == 200);
  CHECK(run_query(R"({"tabela": "imobiliario"})", reader.token)->status == 403);
  CHECK(request("POST", "/explorer/alfa/query/preview2", {}, R"({"tabela": "lote"})")->status ==
        401);
}
