// The demo map library: items over the demo city, reloaded idempotently.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture,
                  "the demo map library lies over the demo city and reloads to the same items") {
  auto items = [] {
    return fixture().db(
        "select string_agg(titulo || '|' || escala || '|' || ST_AsText(footprint), ';' order by "
        "titulo) "
        "from mapoteca.item where criado_por = 'demo'");
  };
  const std::string before = items();
  std::int64_t n = load_library(city(), "alfa");
  CHECK(load_library(city(), "alfa") == n);
  CHECK(items() == before);
  CHECK(n >= 8);
  CHECK(n <= 14);
  CHECK(std::to_string(n) == db("select count(*) from mapoteca.item where criado_por = 'demo'"));
  // Every footprint is a valid SIRGAS 2000 polygon over the city.
  CHECK(db("select count(*) from mapoteca.item i where criado_por = 'demo' and ST_IsValid(footprint) and "
           "ST_SRID(footprint) = 4674 and ST_Intersects(footprint, (select ST_SetSRID(ST_Extent(geom)::geometry, 4674) "
           "from cadastro.quadra))") == std::to_string(n));
  CHECK(db("select count(*) from mapoteca.item where criado_por = 'demo' and titulo like 'Planta de Quadra %'") ==
        db("select least(count(*), 6) from cadastro.quadra"));
  // Accented titles are found without accents through the route.
  CHECK(search_ids("genericos valores") ==
        db("select string_agg(id::text, ',') from mapoteca.item where titulo = 'Planta Genérica de Valores'"));
  // A tenant without a city gets no demo items.
  CHECK(load_library(city(), "beta") == 0);
}
