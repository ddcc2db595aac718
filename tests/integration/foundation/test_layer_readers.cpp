// The read-only login of a tenant's layers (store/layer_readers.hpp): QGIS and other
// PostGIS clients read camadas.* and nothing else of the municipality.
#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "store/dsn.hpp"
#include "store/layer_readers.hpp"
#include "store/tenants.hpp"
#include "support/harness.hpp"

using namespace cadastre;

namespace {

// Whether `sql` runs as the reader (false: refused, e.g. permission denied).
bool reads(const std::string& dsn, const std::string& sql) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> c(PQconnectdb(dsn.c_str()), &PQfinish);
  REQUIRE_MESSAGE(PQstatus(c.get()) == CONNECTION_OK, PQerrorMessage(c.get()));
  std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(c.get(), sql.c_str()), &PQclear);
  return PQresultStatus(r.get()) == PGRES_TUPLES_OK;
}

bool connects(const std::string& dsn) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> c(PQconnectdb(dsn.c_str()), &PQfinish);
  return PQstatus(c.get()) == CONNECTION_OK;
}

}  // namespace

TEST_CASE("a tenant's reader login reads every layer's geometries and values, now and later, and nothing else") {
  test::Stack stack({"alfa"});
  const std::string dsn = stack.tenant_dsn("alfa");
  auto sql = [&](const std::string& q) { return test::query_value(dsn, q); };
  sql("insert into projeto.projetos (id, nome, criado_por) values (1, 'P', 1) returning 1");
  sql("insert into projeto.camadas (id, projeto_id, nome, criado_por) values (10, 1, 'lotes', 1) returning 1");
  sql("insert into projeto.formularios (id, camada_id, nome) values (100, 10, 'f') returning 1");
  sql("insert into projeto.campos (id, formulario_id, nome, chave, tipo) values (1000, 100, 'Área', 'area', 'decimal') "
      "returning 1");
  const std::string gid = sql("insert into projeto.geometrias (camada_id, geom) values (10, "
                              "'SRID=4674;POINT(-47 -23)') returning id");
  sql("insert into camadas.l10 (id, c_1000) values (" + gid + ", 360.5) returning 1");

  const store::LayerReader reader = store::grant_layer_reader(dsn);
  CHECK(reader.role == "leitura_" + sql("select current_database()"));
  // The geometries, the values joined by id, and the views that name them.
  CHECK(test::query_value(reader.dsn, "select st_astext(g.geom) || ' ' || l.c_1000 from camadas.g10 g "
                                      "join camadas.l10 l on l.id = g.id") == "POINT(-47 -23) 360.5");
  CHECK(test::query_value(reader.dsn, "select tabela_geometrias || ' ' || tabela_valores || ' ' || nome "
                                      "from camadas.camadas") == "camadas.g10 camadas.l10 lotes");
  CHECK(test::query_value(reader.dsn, "select coluna || ' ' || chave || ' ' || tipo from camadas.campos") ==
        "c_1000 area decimal");
  // A layer created afterwards is readable too.
  sql("insert into projeto.camadas (id, projeto_id, nome, criado_por) values (11, 1, 'edificações', 1) returning 1");
  CHECK(reads(reader.dsn, "select count(*) from camadas.g11"));
  CHECK(reads(reader.dsn, "select count(*) from camadas.l11"));
  // Nothing else of the municipality: the platform's own tables (the parent of the
  // partitions among them), the cadastre's, the ombudsman's, the audit.
  for (const char* table : {"projeto.geometrias", "projeto.camadas", "projeto.valores_auditoria", "cadastro.lote",
                            "ouvidoria.pedidos", "public.cadastre_migrations"})
    CHECK_MESSAGE(!reads(reader.dsn, std::string("select count(*) from ") + table), table);
  CHECK_FALSE(reads(reader.dsn, "update camadas.l10 set c_1000 = 1 returning 1"));
  CHECK_FALSE(reads(reader.dsn, "delete from camadas.g10 returning 1"));
  // Nor another database: the platform's.
  CHECK_FALSE(connects(store::dsn_with(store::dsn_with(stack.platform_dsn(), "user", reader.role), "password",
                                       reader.password)));
  // Nor a municipality's database created afterwards.
  const std::string later = "leitura_depois_" + std::to_string(::getpid());
  store::create_database(stack.platform_dsn(), later);
  CHECK_FALSE(connects(store::dsn_with(
      store::dsn_with(store::dsn_with(stack.platform_dsn(), "dbname", later), "user", reader.role), "password",
      reader.password)));
  store::drop_database(stack.platform_dsn(), later);
  // Granting again gives a new password, the same login.
  const store::LayerReader again = store::grant_layer_reader(dsn);
  CHECK(again.role == reader.role);
  CHECK(again.password != reader.password);
  sql("drop owned by " + reader.role);
  sql("drop role " + reader.role);
}
