// GET /mapoteca/{municipio}/busca/{palavras_chave}: Portuguese full-text search, accent-
// insensitive and stemmed, ranked (title before keywords before description), paged.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
std::string titles_matching(const std::string& like) {
  return fixture().db(
      "select coalesce(string_agg(id::text, ',' order by id), '') from mapoteca.item where titulo "
      "ilike '" +
      like + "'");
}
}  // namespace

TEST_CASE_FIXTURE(Fixture, "keyword search ignores accents and case and matches word forms") {
  const std::string risk = titles_matching("Mapa de Risco Geol%");
  REQUIRE(!risk.empty());
  CHECK(search_ids("geologico") == risk);
  CHECK(search_ids("GEOLÓGICO") == risk);
  CHECK(search_ids("risco geológico") == risk);
  // "mapas" finds every "Mapa" (zoning, risk, neighbourhoods); nothing else says mapa.
  auto maps = get("/mapoteca/alfa/busca/mapas?limit=100");
  REQUIRE(maps->status == 200);
  auto found = feature_ids(maps->json());
  for (const auto& id : std::vector<std::string>{titles_matching("Mapa de Zoneamento%"), risk})
    CHECK_MESSAGE(("," + found + ",").find("," + id + ",") != std::string::npos, id << " in " << found);
  CHECK(std::to_string(int64_t(maps->json()["numberMatched"])) ==
        db("select count(*) from mapoteca.item where titulo ilike '%mapa%' or descricao ilike '%mapa%'"));
  // A keyword with an accent, searched without it; plural and singular forms.
  CHECK(search_ids("tributacao") == titles_matching("Planta Genérica%"));
  CHECK(search_ids("zoneamento") == titles_matching("Mapa de Zoneamento%"));
  CHECK(search_ids("ortofotos") == titles_matching("Ortofoto%"));
  CHECK(search_ids("inexistentíssimo") == "");
}

TEST_CASE_FIXTURE(
    Fixture, "a title match ranks before a keyword match, which ranks before a description match") {
  const std::string in_description = insert_item(
      "titulo, descricao, footprint", "'Carta antiga do centro', 'Inclui a hidrografia e as curvas de nível.', " +
                                          std::string(kCentreFootprint));
  const std::string in_keywords = insert_item("titulo, palavras_chave, footprint",
                                              "'Levantamento de 1975', array['hidrografia', 'histórico'], " +
                                                  std::string(kCentreFootprint));
  const std::string in_title = insert_item("titulo, footprint", "'Hidrografia Municipal', " + std::string(kCentreFootprint));
  auto a = get("/mapoteca/alfa/busca/hidrográfica");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(feature_ids(a->json()) == in_title + "," + in_keywords + "," + in_description);
  simdjson::dom::array features = a->json()["features"];
  CHECK(double(features.at(0)["properties"]["relevancia"]) > double(features.at(1)["properties"]["relevancia"]));
  CHECK(double(features.at(1)["properties"]["relevancia"]) > double(features.at(2)["properties"]["relevancia"]));
  // Paging keeps the rank order.
  auto second = get("/mapoteca/alfa/busca/hidrografia?page=2&limit=1");
  REQUIRE(second->status == 200);
  CHECK(feature_ids(second->json()) == in_keywords);
  CHECK(int64_t(second->json()["numberMatched"]) == 3);
  CHECK(search_ids("hidrografia", "?offset=2&limit=5") == in_description);
  // Web search syntax: a phrase, and an excluded word.
  CHECK(search_ids("\"hidrografia municipal\"") == in_title);
  auto without = search_ids("hidrografia -municipal");
  CHECK((without == in_keywords + "," + in_description || without == in_description + "," + in_keywords));
  db("delete from mapoteca.item where id in (" + in_title + "," + in_keywords + "," + in_description + ") returning 1");
}

TEST_CASE_FIXTURE(
    Fixture, "words that are all stop words, too long a text or an unknown parameter are a 400") {
  auto stop = get("/mapoteca/alfa/busca/de%20a%20o");
  CHECK(stop->status == 400);
  CHECK(stop->codigo() == "parametro_invalido");
  CHECK(get("/mapoteca/alfa/busca/" + std::string(201, 'a'))->status == 400);
  CHECK(get("/mapoteca/alfa/busca/%20%20")->status == 400);
  auto unknown = get("/mapoteca/alfa/busca/mapa?minLongitude=1");
  CHECK(unknown->status == 400);
  CHECK(unknown->codigo() == "campo_desconhecido");
  CHECK(get("/mapoteca/alfa/busca/mapa?limit=-1")->status == 400);
  // SQL in the words is only ever a bound value.
  auto hostile = get("/mapoteca/alfa/busca/" + url("mapa'); drop table mapoteca.item; --"));
  CHECK(hostile->status == 200);
  CHECK(db("select count(*) > 0 from mapoteca.item") == "t");
}
