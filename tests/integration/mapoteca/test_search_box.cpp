// GET /mapoteca/{municipio}/busca/espacial/: the items whose footprint intersects a box,
// paged, checked against the tenant database.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
struct Box {
  std::string min_lon, min_lat, max_lon, max_lat;
  std::string query() const {
    return "minLongitude=" + min_lon + "&minLatitude=" + min_lat + "&maxLongitude=" + max_lon + "&maxLatitude=" + max_lat;
  }
  std::string envelope() const {
    return "ST_MakeEnvelope(" + min_lon + ", " + min_lat + ", " + max_lon + ", " + max_lat + ", 4674)";
  }
};

// A small box around the centre of the first block: it meets the city-wide maps and that
// block's plan, not the far quadrant maps or the other blocks.
Box first_block_box() {
  auto part = [](const char* expr) {
    return fixture().db(
        std::string("select ") + expr +
        " from (select ST_Centroid(geom) c from cadastro.quadra order by id limit 1) t");
  };
  return {part("ST_X(c) - 0.0002"), part("ST_Y(c) - 0.0002"), part("ST_X(c) + 0.0002"), part("ST_Y(c) + 0.0002")};
}

std::string expected_ids(const std::string& envelope, const std::string& limit = "all", const std::string& offset = "0") {
  return fixture().db(
      "select coalesce(string_agg(id::text, ',' order by id), '') from (select id from "
      "mapoteca.item where "
      "ST_Intersects(footprint, ST_Envelope(" +
      envelope + ")) order by id limit " + limit + " offset " + offset + ") t");
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "the box search returns exactly the items whose footprint intersects the box") {
  Box box = first_block_box();
  auto a = get("/mapoteca/alfa/busca/espacial/?" + box.query() + "&limit=100");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type.find("application/geo+json") == 0);
  auto j = a->json();
  CHECK(std::string_view(j["type"]) == "FeatureCollection");
  const std::string expected = expected_ids(box.envelope());
  CHECK(feature_ids(j) == expected);
  CHECK(std::to_string(int64_t(j["numberMatched"])) == db("select count(*) from mapoteca.item where ST_Intersects(footprint, " +
                                                             box.envelope() + ")"));
  // Not everything: the box leaves out the other blocks' plans and at least one quadrant map.
  CHECK(int64_t(j["numberMatched"]) > 0);
  CHECK(int64_t(j["numberMatched"]) < std::stoll(db("select count(*) from mapoteca.item")));
  // Each feature carries its footprint in lon/lat and its metadata.
  auto f = j["features"].at(0);
  CHECK(std::string_view(f["geometry"]["type"]) == "MultiPolygon");
  CHECK(std::string_view(f["properties"]["titulo"]).size() > 0);
  CHECK(f["properties"]["palavras_chave"].is_array());
  CHECK(f["properties"]["busca"].error() == simdjson::NO_SUCH_FIELD);
  CHECK(f["properties"]["footprint"].error() == simdjson::NO_SUCH_FIELD);

  // A box away from the city finds nothing; a zero-width box (a point) is a valid search.
  auto far = get("/mapoteca/alfa/busca/espacial/?minLongitude=-40&minLatitude=-10&maxLongitude=-39.9&maxLatitude=-9.9");
  REQUIRE(far->status == 200);
  CHECK(far->json()["features"].get_array().size() == 0);
  CHECK(int64_t(far->json()["numberMatched"]) == 0);
  Box point{box.min_lon, box.min_lat, box.min_lon, box.min_lat};
  auto p = get("/mapoteca/alfa/busca/espacial/?" + point.query() + "&limit=100");
  REQUIRE_MESSAGE(p->status == 200, p->body);
  CHECK(feature_ids(p->json()) == expected_ids(point.envelope()));
}

TEST_CASE_FIXTURE(Fixture, "the box search pages in id order with page/limit or offset") {
  const std::string all = "minLongitude=-180&minLatitude=-90&maxLongitude=180&maxLatitude=90";
  const std::string everything = "ST_MakeEnvelope(-180, -90, 180, 90, 4674)";
  auto p1 = get("/mapoteca/alfa/busca/espacial/?" + all + "&page=1&limit=4");
  auto p2 = get("/mapoteca/alfa/busca/espacial/?" + all + "&page=2&limit=4");
  auto o4 = get("/mapoteca/alfa/busca/espacial/?" + all + "&offset=4&page_size=4");
  REQUIRE(p1->status == 200);
  REQUIRE(p2->status == 200);
  REQUIRE(o4->status == 200);
  CHECK(feature_ids(p1->json()) == expected_ids(everything, "4", "0"));
  CHECK(feature_ids(p2->json()) == expected_ids(everything, "4", "4"));
  CHECK(feature_ids(o4->json()) == feature_ids(p2->json()));
  CHECK(int64_t(p2->json()["pagina"]) == 2);
  CHECK(int64_t(p2->json()["limite"]) == 4);
  CHECK(int64_t(p2->json()["numberReturned"]) == 4);
  CHECK(std::to_string(int64_t(p1->json()["numberMatched"])) == db("select count(*) from mapoteca.item"));
  CHECK(p1->body.find("\"rel\":\"next\"") != std::string::npos);
  // The default page is 10 items.
  auto d = get("/mapoteca/alfa/busca/espacial/?" + all);
  CHECK(feature_ids(d->json()) == expected_ids(everything, "10", "0"));
}

TEST_CASE_FIXTURE(
    Fixture, "a missing, partial or malformed box, bad paging or an unknown parameter is a 400") {
  const std::vector<std::string> bad = {
      "",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46",
      "minLongitude=abc&minLatitude=-23&maxLongitude=-46&maxLatitude=-22",
      "minLongitude=-46&minLatitude=-23&maxLongitude=-47&maxLatitude=-22",
      "minLongitude=-47&minLatitude=-91&maxLongitude=-46&maxLatitude=-22",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitude=-22&limit=0",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitude=-22&limit=abc",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitude=-22&limit=1001",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitude=-22&page=2&offset=3",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitud=-22",
      "minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitude=-22&titulo=x"};
  for (const auto& q : bad) {
    auto a = get("/mapoteca/alfa/busca/espacial/?" + q);
    CHECK_MESSAGE(a->status == 400, q << " → " << a->body);
  }
  CHECK(get("/mapoteca/alfa/busca/espacial/?titulo=x&minLongitude=-47&minLatitude=-23&maxLongitude=-46&maxLatitude=-22")
            ->codigo() == "campo_desconhecido");
}
