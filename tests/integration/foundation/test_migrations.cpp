// Migrations: idempotent, recorded with checksums, tamper-evident.
#include <doctest/doctest.h>
#include <libpq-fe.h>

#include "store/migrate.hpp"
#include "support/harness.hpp"

using namespace cadastre;

TEST_CASE("applying the migrations twice is a no-op") {
  test::Stack stack({"alfa"});
  PGconn* plat = store::connect_or_throw(stack.platform_dsn());
  CHECK(store::migrate(plat, "platform").empty());
  PQfinish(plat);
  PGconn* ten = store::connect_or_throw(stack.tenant_dsn("alfa"));
  auto before = test::query_value(stack.tenant_dsn("alfa"), "select count(*) from dominio.topografia");
  CHECK(store::migrate(ten, "tenant").empty());
  PQfinish(ten);
  CHECK(test::query_value(stack.tenant_dsn("alfa"), "select count(*) from dominio.topografia") == before);
  auto recorded = test::query_value(stack.tenant_dsn("alfa"), "select count(*) from public.cadastre_migrations where set_name = 'tenant'");
  std::size_t expected = 0;
  for (const auto& m : store::embedded_migrations()) expected += m.set == "tenant";
  CHECK(recorded == std::to_string(expected));
}

TEST_CASE("the tenant migration creates every schema and core layer with GiST indexes") {
  test::Stack stack({"alfa"});
  auto dsn = stack.tenant_dsn("alfa");
  for (const char* schema : {"cadastro", "dominio", "atendimento", "agendamento", "midia", "avaliacao", "auditoria"})
    CHECK_MESSAGE(test::query_value(dsn, std::string("select count(*) from pg_namespace where nspname = '") + schema + "'") == "1", schema);
  for (const char* table : {"lote", "imobiliario", "logradouro", "edificacao", "bairro", "quadra", "face_quadra", "pessoa", "panorama"})
    CHECK_MESSAGE(test::query_value(dsn, std::string("select to_regclass('cadastro.") + table + "') is not null") == "t", table);
  for (const char* table : {"topografia", "pedologia", "situacao", "padrao_construtivo", "uso"})
    CHECK_MESSAGE(std::stoi(test::query_value(dsn, std::string("select count(*) from dominio.") + table)) > 0, table);
  CHECK(std::stoi(test::query_value(dsn, "select count(*) from pg_indexes where schemaname = 'cadastro' and indexdef like '%USING gist%'")) >= 7);
}

TEST_CASE("an applied migration whose text changed is refused") {
  test::Stack stack({"alfa"});
  test::query_value(stack.tenant_dsn("alfa"),
                    "update public.cadastre_migrations set checksum = 'x' where version = '0001_schemas' returning 1");
  PGconn* ten = store::connect_or_throw(stack.tenant_dsn("alfa"));
  CHECK_THROWS_AS(store::migrate(ten, "tenant"), Error);
  PQfinish(ten);
}

// Tenant migration 0035 moves the values of projeto.valores (one row per geometry and
// field) into a table per layer, and 0036 the geometries into a partition per layer. A
// database built by the schema before them, with values of every type, empty ones and a
// layer without fields, keeps every geometry, every value and every id.
TEST_CASE("a tenant of the previous schema keeps every geometry, value and value id in its layers' tables") {
  const std::string name = test::unique_db_name("mig35");
  test::query_value(test::cluster_dsn(), "create database " + name);
  const std::string dsn = test::cluster_dsn() + " dbname=" + name;
  PGconn* conn = store::connect_or_throw(dsn);
  store::migrate(conn, "tenant", "0034_importacoes_tentativa");
  store::exec_sql(conn, R"SQL(
    insert into projeto.projetos (id, nome, criado_por) values (1, 'P', 1);
    insert into projeto.camadas (id, projeto_id, nome, criado_por) values
      (10, 1, 'lotes', 1), (11, 1, 'edificações', 1), (12, 1, 'sem campos', 1);
    insert into projeto.formularios (id, camada_id, nome, ativo) values (100, 10, 'f', true), (101, 10, 'g', false),
      (102, 11, 'h', true);
    insert into projeto.campos (id, formulario_id, nome, chave, tipo) values
      (1000, 100, 'a', 'a', 'texto'), (1001, 100, 'b', 'b', 'inteiro'), (1002, 100, 'c', 'c', 'data'),
      (1003, 101, 'd', 'd', 'booleano'), (1004, 101, 'e', 'e', 'multipla'), (1005, 100, 'f', 'f', 'decimal'),
      (1006, 102, 'x', 'x', 'lista'), (1007, 102, 'y', 'y', 'calculado');
    insert into projeto.geometrias (id, camada_id, geom, atualizado_por)
      select i, case when i <= 300 then 10 when i <= 400 then 11 else 12 end,
             st_setsrid(st_point(-48 + i * 0.001, -27), 4674), 5 from generate_series(1, 420) i;
    -- Every field of every lot and building, some empty (a row with no value), in id order
    -- interleaved across layers so value ids are not a function of the position.
    insert into projeto.valores (geometria_id, campo_id, texto, numero, data, booleano, lista, atualizado_por,
                                 atualizado_em)
      select g.id, k.id,
             case when k.tipo in ('texto', 'lista') and g.id % 7 <> 0 then 'São José ' || g.id end,
             case when k.tipo in ('inteiro', 'decimal', 'calculado') and g.id % 5 <> 0 then g.id * 1.25 end,
             case when k.tipo = 'data' and g.id % 3 <> 0 then date '2020-01-01' + g.id::int end,
             case when k.tipo = 'booleano' and g.id % 2 = 0 then g.id % 4 = 0 end,
             case when k.tipo = 'multipla' and g.id % 6 <> 0 then jsonb_build_array('a' || g.id, 'b') end,
             g.id % 9, timestamptz '2025-06-01' + g.id * interval '1 minute'
        from projeto.geometrias g join projeto.formularios f on f.camada_id = g.camada_id
        join projeto.campos k on k.formulario_id = f.id
       where g.id % 11 <> 0
       order by random();
    update projeto.geometrias set vinculo_id = 1 where id = 2;
    select setval('projeto.geometrias_id_seq', 420);
    create table public.geometrias_antes as select * from projeto.geometrias;
    create table public.antes as
      select id, geometria_id, campo_id, projeto.valor_json(texto, numero, data, booleano, lista) as valor,
             atualizado_por, atualizado_em from projeto.valores;
  )SQL");
  CHECK(test::query_value(dsn, "select count(*) from public.antes") == "1820");

  CHECK(store::migrate(conn, "tenant") ==
        std::vector<std::string>{"0035_camadas_tabelas", "0036_geometrias_particionadas", "0037_camadas_leitura",
                                 "0038_indices_apos_importacao", "0039_total_geometrias",
                                 "0040_anexar_uma_leitura"});
  PQfinish(conn);
  auto value = [&](const std::string& sql) { return test::query_value(dsn, sql); };
  CHECK(value("select to_regclass('projeto.valores') is null") == "t");
  // One table per layer, one column per field, of its type family's SQL type.
  CHECK(value("select string_agg(c.relname, ',' order by c.relname) from pg_class c where c.relnamespace = "
              "'camadas'::regnamespace and c.relkind = 'r'") == "g10,g11,g12,l10,l11,l12");
  // Every geometry as it was, in its layer's partition.
  CHECK(value("select count(*) from public.geometrias_antes a full join projeto.geometrias g using (id) "
              "where row(a.*)::text is distinct from row(g.*)::text") == "0");
  CHECK(value("select (select count(*) from camadas.g10) || ',' || (select count(*) from camadas.g11) || ',' || "
              "(select count(*) from camadas.g12)") == "300,100,20");
  CHECK(value("select relkind from pg_class where oid = 'projeto.geometrias'::regclass") == "p");
  // Each layer's number of geometries, kept on its row from now on (0039).
  auto totals = [&] {
    return value("select string_agg(total_geometrias::text, ',' order by id) from projeto.camadas");
  };
  CHECK(totals() == "300,100,20");
  // The database prices a random read as memory or SSD does (0039), for its sessions opened
  // from now on (this test's own was opened before).
  CHECK(value("select array_to_string(setconfig, ',') from pg_db_role_setting where setrole = 0 and "
              "setdatabase = (select oid from pg_database where datname = current_database())") ==
        "random_page_cost=1.1");
  CHECK(value("select string_agg(attname || ' ' || format_type(atttypid, atttypmod), ',' order by attnum) from "
              "pg_attribute where attrelid = 'camadas.l10'::regclass and attnum > 0 and not attisdropped") ==
        "id bigint,c_1000 text,c_1001 numeric,c_1002 date,c_1003 boolean,c_1004 jsonb,c_1005 numeric");
  // Every value where it was, as the same JSON; every empty one still empty.
  CHECK(value("select count(*) from public.antes a where a.valor is distinct from coalesce((select v.valor from "
              "projeto.valores_de(a.geometria_id) v where v.campo_id = a.campo_id), 'null')") == "0");
  CHECK(value("select count(*) from projeto.geometrias g, projeto.valores_de(g.id) v where not exists "
              "(select 1 from public.antes a where a.geometria_id = g.id and a.campo_id = v.campo_id)") == "0");
  // Every id issued before names the same geometry and field, with who wrote it last.
  CHECK(value("select count(*) from public.antes a where not exists (select 1 from projeto.valor_chave(a.id) c "
              "where c.geometria_id = a.geometria_id and c.campo_id = a.campo_id)") == "0");
  CHECK(value("select count(*) from public.antes a, projeto.valor_atualizacao(a.geometria_id, a.campo_id) u "
              "where (u.por, u.em) is distinct from (a.atualizado_por, a.atualizado_em)") == "0");
  // New ids: each field has its own position in its layer, and its values' ids name it.
  CHECK(value("select string_agg(id || ':' || posicao, ',' order by id) from projeto.campos") ==
        "1000:0,1001:1,1002:2,1003:3,1004:4,1005:5,1006:0,1007:1");
  CHECK(value("select count(*) from public.antes a, projeto.campos k, projeto.valor_chave(projeto.valor_id("
              "a.geometria_id, k.posicao)) c where k.id = a.campo_id and (c.geometria_id, c.campo_id) is distinct "
              "from (a.geometria_id, a.campo_id)") == "0");
  CHECK(value("select count(*) from projeto.valor_chave(projeto.valor_id(1, 6::smallint))") == "0");
  // New geometries take the next id and land in their layer's partition.
  CHECK(value("insert into projeto.geometrias (camada_id, geom) values (11, st_setsrid(st_point(-48, -27), 4674)) "
              "returning (tableoid::regclass)::text || ':' || id") == "camadas.g11:421");
  CHECK(totals() == "300,101,20");
  // Its id is registered with its layer; an id held already is refused in any layer, as the
  // primary key on id alone did; an unknown id has layer 0 (no layer).
  CHECK(value("select projeto.camada_da_geometria(421) || ',' || projeto.camada_da_geometria(2) || ',' || "
              "projeto.camada_da_geometria(100000)") == "11,10,0");
  // A statement that finds a geometry by id alone is planned on its layer's partition only
  // (projeto.camada_da_geometria is folded at plan time); an unknown id, on none.
  auto plan = [&](const std::string& q) {
    return value("create or replace function pg_temp.plano(q text) returns text language plpgsql as $$ "
                 "declare r text; o text := ''; begin for r in execute 'explain (costs off) ' || q loop "
                 "o := o || r || ' '; end loop; return o; end $$; select pg_temp.plano(" + q + ")");
  };
  const std::string by_id =
      plan("'select geom from projeto.geometrias where id = 421 and camada_id = projeto.camada_da_geometria(421)'");
  CHECK_MESSAGE(by_id.find("g11") != std::string::npos, by_id);
  CHECK_MESSAGE(by_id.find("g10") == std::string::npos, by_id);
  CHECK_MESSAGE(by_id.find("g12") == std::string::npos, by_id);
  const std::string unknown =
      plan("'select geom from projeto.geometrias where id = 9 and camada_id = projeto.camada_da_geometria(100000)'");
  CHECK_MESSAGE(unknown.find("Scan") == std::string::npos, unknown);
  {
    PGconn* again = store::connect_or_throw(dsn);
    PGresult* r = PQexec(again, "insert into projeto.geometrias (id, camada_id, geom) values "
                                "(2, 12, st_setsrid(st_point(-48, -27), 4674))");
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    CHECK(std::string(state ? state : "") == "23505");
    PQclear(r);
    PQfinish(again);
  }
  // Deleting a geometry deletes its values and unlinks what pointed at it (no foreign key
  // can reference a partitioned table's id).
  CHECK(value("select count(*) from camadas.l10 where id = 1") == "1");
  value("delete from projeto.geometrias where id = 1 returning 1");
  CHECK(value("select count(*) from camadas.l10 where id = 1") == "0");
  CHECK(value("select vinculo_id is null from projeto.geometrias where id = 2") == "t");
  // One statement over two layers counts each; a refused insert counts nothing.
  value("delete from projeto.geometrias where id in (3, 4, 301, 302, 303) returning 1");
  CHECK(totals() == "297,98,20");
  CHECK(value("select count(*) from projeto.geometrias where camada_id = 10") == "297");
  // The tables follow their layers and fields from now on.
  value("insert into projeto.campos (id, formulario_id, nome, chave, tipo) values (1008, 100, 'z', 'z', 'texto') "
        "returning 1");
  CHECK(value("select posicao from projeto.campos where id = 1008") == "6");
  CHECK(value("select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'camadas.l10'::regclass "
              "and attname = 'c_1008'") == "text");
  value("delete from projeto.projetos where id = 1 returning 1");
  CHECK(value("select count(*) from pg_class where relnamespace = 'camadas'::regnamespace and relkind <> 'v'") ==
        "0");
  test::query_value(test::cluster_dsn(), "drop database " + name + " with (force)");
}
