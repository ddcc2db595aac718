// The demo reports: stored over the demo city, reloadable, and exportable as they are.
#include <libpq-fe.h>

#include "demo/explorer.hpp"
#include "fixture.hpp"
#include "store/migrate.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture,
                  "the demo reports load twice to the same three reports, each of which exports") {
  PGconn* c = cadastre::store::connect_or_throw(city().tenant_dsn("alfa"));
  CHECK(cadastre::store::load_demo_explorer(c) == 3);
  CHECK(cadastre::store::load_demo_explorer(c) == 3);  // replaces its own reports
  PQfinish(c);
  CHECK(db("select count(*) from explorer.relatorio where criado_por = 'demo'") == "3");
  std::string bairro = db("select nome from cadastro.bairro order by id limit 1");
  CHECK(db("select string_agg(nome, '|' order by id) from explorer.relatorio where criado_por = 'demo'") ==
        "Lotes acima de 500 m²|Unidades por uso|Lotes de esquina do bairro " + bairro);

  auto expected_rows = [&](const std::string& nome) {
    if (nome == "Lotes acima de 500 m²")
      return fixture().db("select count(*) from cadastro.lote where area_terreno > 500");
    if (nome == "Unidades por uso")
      return fixture().db("select count(*) from cadastro.imobiliario");
    return fixture().db(
        "select count(*) from cadastro.lote l, (select ST_Extent(geom) e from cadastro.bairro "
        "where id = (select "
        "min(id) from cadastro.bairro)) b where l.situacao = 'esquina' and l.geom && b.e");
  };
  for (const std::string id : {"1", "2", "3"}) {
    std::string real = db("select id from explorer.relatorio where criado_por = 'demo' order by id offset " +
                          std::to_string(std::stoi(id) - 1) + " limit 1");
    std::string nome = db("select nome from explorer.relatorio where id = " + real);
    auto x = call("POST", "/explorer/alfa/report/" + real + "/export-excel");
    REQUIRE_MESSAGE(x->status == 200, nome << ": " << x->body);
    simdjson::dom::parser parser;
    auto rows = parser.parse(xlsx_rows(x->body)).get_array().value();
    CHECK_MESSAGE(std::to_string(rows.size() - 3) == expected_rows(nome), nome);
    auto p = call("POST", "/explorer/alfa/report/" + real + "/export-pdf");
    CHECK(p->status == 200);
  }
}
