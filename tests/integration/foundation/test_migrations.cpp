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
