// The demo forms: idempotent reloads, and the typed values the database itself enforces.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(
    Fixture, "the demo forms load values for a few hundred features and reload to the same data") {
  const std::string before = db("select md5(string_agg(f.nome || c.nome || v.geometria_id || v.valor::text, ',' order by "
                                "f.nome, c.nome, v.geometria_id)) from formulario.valor v join formulario.campo c on "
                                "c.id = v.campo_id join formulario.formulario f on f.id = v.formulario_id");
  std::int64_t n = load_forms(city(), "alfa");
  CHECK(load_forms(city(), "alfa") == n);
  CHECK(n > 50);
  CHECK(std::to_string(n) == db("select count(*) from (select distinct formulario_id, geometria_id from formulario.valor) t"));
  CHECK(db("select count(*) from formulario.formulario") == "2");
  CHECK(db("select count(*) from formulario.campo") == "9");
  CHECK(db("select md5(string_agg(f.nome || c.nome || v.geometria_id || v.valor::text, ',' order by f.nome, c.nome, "
           "v.geometria_id)) from formulario.valor v join formulario.campo c on c.id = v.campo_id join "
           "formulario.formulario f on f.id = v.formulario_id") == before);
  // Every value refers to a real feature of its form's layer.
  CHECK(db("select count(*) from formulario.valor v join formulario.formulario f on f.id = v.formulario_id where "
           "(f.camada = 'lote' and not exists (select 1 from cadastro.lote l where l.id = v.geometria_id)) or "
           "(f.camada = 'edificacao' and not exists (select 1 from cadastro.edificacao e where e.id = v.geometria_id))") == "0");
}

namespace {
// Runs one statement on alfa's database; true when PostgreSQL accepted it.
bool accepted(const std::string& sql) {
  PGconn* c = PQconnectdb(city().tenant_dsn("alfa").c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  PGresult* r = PQexec(c, sql.c_str());
  bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  PQfinish(c);
  return ok;
}
}  // namespace

TEST_CASE_FIXTURE(Fixture, "the database refuses a value that does not fit its field's type") {
  auto insert = [](const std::string& field, const std::string& json) {
    return "insert into formulario.valor (formulario_id, campo_id, geometria_id, valor) select formulario_id, id, "
           "123456, '" + json + "' from formulario.campo where nome = '" + field + "'";
  };
  for (const auto& [field, json] : std::vector<std::pair<std::string, std::string>>{
           {"ocupacao", "\"demolido\""}, {"muro", "\"sim\""}, {"pavimentos_visiveis", "2.5"},
           {"data_vistoria", "\"2024-02-30\""}, {"data_vistoria", "\"01/02/2024\""}, {"observacao", "12"},
           {"calcada_metros", "\"1,5\""}}) {
    CHECK_MESSAGE(!accepted(insert(field, json)), field << " = " << json);
  }
  CHECK(accepted(insert("ocupacao", "\"vago\"")));
  CHECK(db("select count(*) from formulario.valor where geometria_id = 123456") == "1");
  CHECK(accepted("delete from formulario.valor where geometria_id = 123456"));
}
