// GET /geo/{municipio}/filtro_relacionamentos/...: records related to a lot by key and
// spatially, compared with the same relations written in SQL by the test.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

// A lot with at least one building and one property unit.
const std::string& lot() {
  static const std::string id = fixture().db(
      "select l.id from cadastro.lote l where exists (select 1 from cadastro.edificacao e where "
      "e.lote_id = l.id) "
      "and exists (select 1 from cadastro.imobiliario i where i.lote_id = l.id) order by l.id "
      "limit 1");
  return id;
}

std::set<std::int64_t> ids_of(Answer& a) {
  std::set<std::int64_t> out;
  for (auto f : a.json()["features"].get_array()) out.insert(int64_t(f["id"]));
  return out;
}

std::string spatial(const std::string& layer) {
  return "select string_agg(t.id::text, ',') from cadastro." + layer + " t, cadastro.lote l where l.id = " + lot() +
         " and ST_Intersects(t.geom, l.geom) and not ST_Touches(t.geom, l.geom)" + (layer == "lote" ? " and t.id <> l.id" : "");
}

}  // namespace

TEST_CASE_FIXTURE(Fixture, "records of a layer with lote_id are related by key") {
  REQUIRE(!lot().empty());
  for (std::string layer : {"edificacao", "imobiliario"}) {
    auto a = get("/geo/alfa/filtro_relacionamentos/" + layer + "/" + lot() + "?limit=1000");
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(a->content_type == "application/geo+json");
    auto j = a->json();
    CHECK(std::string_view(j["modo"]) == "chave");
    auto expected = id_set(db("select string_agg(id::text, ',') from cadastro." + layer + " where lote_id = " + lot()));
    REQUIRE(!expected.empty());
    CHECK(ids_of(*a) == expected);
  }
  // Units have no geometry of their own.
  auto units = get("/geo/alfa/filtro_relacionamentos/imobiliario/" + lot());
  simdjson::dom::element g = units->json()["features"].at(0)["geometry"];
  CHECK(g.is_null());
}

TEST_CASE_FIXTURE(Fixture, "a layer the lot points to (lote.quadra_id) is related by key") {
  auto a = get("/geo/alfa/filtro_relacionamentos/quadra/" + lot());
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(ids_of(*a) == id_set(db("select quadra_id from cadastro.lote where id = " + lot())));
}

TEST_CASE_FIXTURE(Fixture,
                  "layers without a key are related spatially, by shared interior points") {
  auto a = get("/geo/alfa/filtro_relacionamentos/bairro/" + lot() + "?limit=1000");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(std::string_view(a->json()["modo"]) == "espacial");
  auto expected = id_set(db(spatial("bairro")));
  REQUIRE(expected.size() >= 1);
  CHECK(ids_of(*a) == expected);
  // Forcing the spatial mode on buildings: those inside the lot, as SQL finds them.
  auto b = get("/geo/alfa/filtro_relacionamentos/edificacao/" + lot() + "?modo=espacial&limit=1000");
  REQUIRE_MESSAGE(b->status == 200, b->body);
  CHECK(std::string_view(b->json()["modo"]) == "espacial");
  CHECK(ids_of(*b) == id_set(db(spatial("edificacao"))));
  // The lot itself is not its own neighbour; lots that only touch it are not related.
  auto c = get("/geo/alfa/filtro_relacionamentos/lote/" + lot() + "?limit=1000");
  REQUIRE(c->status == 200);
  CHECK(ids_of(*c) == id_set(db(spatial("lote"))));
  CHECK(ids_of(*c).count(std::stoll(lot())) == 0);
}

TEST_CASE_FIXTURE(Fixture,
                  "the summary lists every related layer with its mode and the count SQL finds") {
  auto a = get("/geo/alfa/filtro_relacionamentos/" + lot());
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::to_string(int64_t(j["lote"])) == lot());
  auto layers = j["camadas"];
  auto count = [&](const std::string& sql) { return std::stoll(db(sql)); };
  CHECK(int64_t(layers["edificacao"]["total"]) == count("select count(*) from cadastro.edificacao where lote_id = " + lot()));
  CHECK(std::string_view(layers["edificacao"]["modo"]) == "chave");
  CHECK(int64_t(layers["imobiliario"]["total"]) == count("select count(*) from cadastro.imobiliario where lote_id = " + lot()));
  CHECK(int64_t(layers["quadra"]["total"]) == 1);
  CHECK(std::string_view(layers["bairro"]["modo"]) == "espacial");
  CHECK(int64_t(layers["bairro"]["total"]) == int64_t(id_set(db(spatial("bairro"))).size()));
  simdjson::dom::element none;
  CHECK(layers["pessoa"].get(none) != simdjson::SUCCESS);  // no key and no geometry
  // Forcing the spatial mode leaves out the layers without geometry.
  auto s = get("/geo/alfa/filtro_relacionamentos/" + lot() + "?modo=espacial");
  auto sj = s->json();
  CHECK(sj["camadas"]["imobiliario"].get(none) != simdjson::SUCCESS);
  CHECK(std::string_view(sj["camadas"]["edificacao"]["modo"]) == "espacial");
}

TEST_CASE_FIXTURE(
    Fixture,
    "filtro_relacionamentos refuses missing lots, bad ids, unrelated layers and bad modes") {
  CHECK(get("/geo/alfa/filtro_relacionamentos/99999")->codigo() == "nao_encontrado");
  CHECK(get("/geo/alfa/filtro_relacionamentos/edificacao/99999")->status == 404);
  CHECK(get("/geo/alfa/filtro_relacionamentos/abc")->status == 400);
  CHECK(get("/geo/alfa/filtro_relacionamentos/edificacao/1%20or%201=1")->status == 400);
  CHECK(get("/geo/alfa/filtro_relacionamentos/pessoa/" + lot())->status == 400);
  CHECK(get("/geo/alfa/filtro_relacionamentos/bairro/" + lot() + "?modo=chave")->status == 400);
  CHECK(get("/geo/alfa/filtro_relacionamentos/imobiliario/" + lot() + "?modo=espacial")->status == 400);
  CHECK(get("/geo/alfa/filtro_relacionamentos/" + lot() + "?modo=outro")->codigo() == "parametro_invalido");
  CHECK(get("/geo/alfa/filtro_relacionamentos/nao_existe/" + lot())->codigo() == "camada_nao_encontrada");
  CHECK(get("/geo/alfa/filtro_relacionamentos/lote%3B--/" + lot())->codigo() == "identificador_invalido");
  CHECK(get("/geo/alfa/filtro_relacionamentos/a/b/c")->status == 404);
}
