// POST /aplicativo/{municipio}/{camada}/intersect/bounding-box/: the features of a layer in
// the posted bbox, equal to PostGIS's ST_Intersects run by the test, with paging, and the
// 4xx of bad boxes, hostile or unknown layers and missing permission.
#include <cstdio>

#include "fixture.hpp"

using namespace cadastre::test;

namespace {

struct Box {
  double w, s, e, n;
  std::string body() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, R"({"minLongitude": %.7f, "minLatitude": %.7f, "maxLongitude": %.7f, "maxLatitude": %.7f})",
                  w, s, e, n);
    return buf;
  }
  std::string envelope() const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "ST_MakeEnvelope(%.7f, %.7f, %.7f, %.7f, 4674)", w, s, e, n);
    return buf;
  }
};

// About 110 m around the centre of lot 1.
const Box& box() {
  static const Box b = [] {
    double x =
        std::stod(fixture().db("select ST_X(ST_Centroid(geom)) from cadastro.lote where id = 1"));
    double y =
        std::stod(fixture().db("select ST_Y(ST_Centroid(geom)) from cadastro.lote where id = 1"));
    return Box{x - 0.0005, y - 0.0005, x + 0.0005, y + 0.0005};
  }();
  return b;
}

std::string path(const std::string& camada) { return "/aplicativo/alfa/" + camada + "/intersect/bounding-box/"; }

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "bounding-box answers the features of the layer that intersect the box, as "
                  "ST_Intersects does") {
  for (const std::string layer : {"lote", "edificacao"}) {
    auto expected = id_set(db("select string_agg(id::text, ',') from cadastro." + layer + " where ST_Intersects(geom, " +
                              box().envelope() + ")"));
    REQUIRE(expected.size() > 2);
    auto a = post(path(layer) + "?limit=1000", box().body());
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(a->content_type == "application/geo+json");
    auto j = a->json();
    CHECK(std::string_view(j["type"]) == "FeatureCollection");
    CHECK(ids_of(j["features"]) == expected);
    CHECK(uint64_t(int64_t(j["numberMatched"])) == expected.size());
    CHECK(uint64_t(int64_t(j["numberReturned"])) == expected.size());
    CHECK(std::string_view(j["features"].at(0)["geometry"]["type"]) == "MultiPolygon");
  }
}

TEST_CASE_FIXTURE(
    Fixture, "bounding-box pages with page and limit in the query string, and filters by field") {
  auto all = id_set(db("select string_agg(id::text, ',') from cadastro.lote where ST_Intersects(geom, " +
                       box().envelope() + ")"));
  auto first = post(path("lote") + "?limit=2", box().body());
  REQUIRE_MESSAGE(first->status == 200, first->body);
  auto j = first->json();
  CHECK(int64_t(j["numberReturned"]) == 2);
  CHECK(uint64_t(int64_t(j["numberMatched"])) == all.size());
  CHECK(int64_t(j["limite"]) == 2);
  auto second = post(path("lote") + "?limit=2&page=2", box().body());
  auto ids1 = ids_of(j["features"]);
  auto ids2 = ids_of(second->json()["features"]);
  CHECK(*ids1.rbegin() < *ids2.begin());  // ordered by id, no overlap

  const std::int64_t one = *all.begin();
  auto inscricao = db("select inscricao from cadastro.lote where id = " + std::to_string(one));
  auto filtered = post(path("lote") + "?inscricao=" + inscricao, box().body());
  REQUIRE_MESSAGE(filtered->status == 200, filtered->body);
  CHECK(ids_of(filtered->json()["features"]) == std::set<std::int64_t>{one});

  auto too_big = post(path("lote") + "?limit=1001", box().body());
  CHECK(too_big->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "bounding-box refuses bad boxes with 400 naming the field") {
  struct Case {
    std::string body, field;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"minLongitude": -47.0, "minLatitude": -22.0, "maxLongitude": -47.1, "maxLatitude": -21.9})", "minLongitude"},
           {R"({"minLongitude": -47.0, "minLatitude": -22.0, "maxLongitude": -46.9, "maxLatitude": 95})", "maxLatitude"},
           {R"({"minLongitude": -47.0, "minLatitude": -22.0, "maxLongitude": -46.9})", "maxLatitude"},
           {R"({"minLongitude": "-47.0", "minLatitude": -22.0, "maxLongitude": -46.9, "maxLatitude": -21.9})", "minLongitude"},
           {R"({"minLongitude": -47.0, "minLatitude": -22.0, "maxLongitude": -46.9, "maxLatitude": -21.9, "x": 1})", "x"},
       }) {
    auto a = post(path("lote"), c.body);
    CHECK_MESSAGE(a->status == 400, c.body);
    CHECK_MESSAGE(std::string(a->mensagem()).find(c.field) != std::string::npos, a->body);
  }
  CHECK(post(path("lote"), "{not json")->codigo() == "json_invalido");
  CHECK(post(path("lote"), "[1, 2, 3, 4]")->status == 400);
  // The bbox goes in the body only.
  CHECK(post(path("lote") + "?minLongitude=1&minLatitude=1&maxLongitude=2&maxLatitude=2", box().body())->status == 400);
  // A layer without geometry has nothing to intersect.
  auto people = post(path("pessoa"), box().body());
  CHECK(people->status == 400);
}

TEST_CASE_FIXTURE(Fixture,
                  "bounding-box refuses hostile layer names before SQL, unknown layers with 404 "
                  "and unreadable ones with 403") {
  auto hostile = post("/aplicativo/alfa/lote%3Bdrop%20table%20cadastro.lote/intersect/bounding-box/", box().body());
  CHECK(hostile->status == 400);
  CHECK(hostile->codigo() == "identificador_invalido");
  CHECK(db("select count(*) from cadastro.lote") != "0");
  auto unknown = post(path("nao_existe"), box().body());
  CHECK(unknown->status == 404);
  CHECK(unknown->codigo() == "camada_nao_encontrada");

  const auto& lots_only = limited_user("so-lote-app@alfa.gov.br", {"lote:r"});
  CHECK(post(path("lote"), box().body(), lots_only.token)->status == 200);
  auto denied = post(path("edificacao"), box().body(), lots_only.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(post(path("lote"), box().body(), city().user("beta").token)->status == 403);
}
