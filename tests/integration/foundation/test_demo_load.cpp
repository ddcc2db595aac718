// The demo city loader against a real tenant database: counts, validity, determinism.
#include <doctest/doctest.h>
#include <libpq-fe.h>

#include "demo/demo.hpp"
#include "store/migrate.hpp"
#include "support/harness.hpp"

using namespace cadastre;

namespace {
store::DemoReport load(const std::string& dsn, long long lots, unsigned long long seed, bool replace) {
  PGconn* c = store::connect_or_throw(dsn);
  store::DemoOptions o;
  o.lots = lots;
  o.seed = seed;
  o.replace = replace;
  try {
    auto r = store::load_demo(c, o);
    PQfinish(c);
    return r;
  } catch (...) {
    PQfinish(c);
    throw;
  }
}
}  // namespace

TEST_CASE("demo load reports what it stored, all valid, and the same seed gives the same city") {
  test::Stack stack({"alfa"});
  auto dsn = stack.tenant_dsn("alfa");
  auto db = [&](const std::string& sql) { return test::query_value(dsn, sql); };
  auto r = load(dsn, 150, 7, false);
  CHECK(r.lotes == 150);
  CHECK(db("select count(*) from cadastro.lote") == "150");
  CHECK(db("select count(*) from cadastro.imobiliario") == std::to_string(r.imobiliarios));
  CHECK(db("select count(*) from cadastro.edificacao") == std::to_string(r.edificacoes));
  CHECK(db("select count(*) from cadastro.pessoa") == std::to_string(r.pessoas));
  CHECK(db("select count(*) from cadastro.panorama") == std::to_string(r.panoramas));
  CHECK(db("select count(*) from cadastro.face_quadra") == std::to_string(r.faces));
  CHECK(r.imobiliarios >= r.lotes);
  CHECK(db("select count(*) from cadastro.lote where not ST_IsValid(geom)") == "0");
  CHECK(db("select count(*) from cadastro.lote where situacao = 'esquina'") != "0");
  CHECK(db("select count(*) from (select lote_id from cadastro.imobiliario group by lote_id "
           "having abs(sum(fracao_ideal) - 1) > 0.000001) x") == "0");
  auto digest = db("select md5(string_agg(inscricao || ST_AsText(geom), ',' order by id)) from cadastro.lote");

  CHECK_THROWS_AS(load(dsn, 150, 7, false), Error);  // refuses to load over existing data
  load(dsn, 150, 7, true);
  CHECK(db("select md5(string_agg(inscricao || ST_AsText(geom), ',' order by id)) from cadastro.lote") == digest);
  load(dsn, 150, 8, true);
  CHECK(db("select md5(string_agg(inscricao || ST_AsText(geom), ',' order by id)) from cadastro.lote") != digest);
}
