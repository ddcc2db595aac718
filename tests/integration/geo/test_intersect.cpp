// GET /geo/{municipio}/{camada}/intersect: WKT, GeoJSON and bbox query geometries, the
// geodesic measures of each feature compared with PostGIS run by the test, paging, filters
// and the 400s of bad geometry.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

// A 16-sided polygon of about 45 m radius around the centre of lot 1: it covers some lots
// whole and cuts others.
std::string circle_wkt() {
  static const std::string wkt = fixture().db(
      "select ST_AsText(ST_Buffer(ST_Centroid(geom), 0.0004, 4)) from cadastro.lote where id = 1");
  return wkt;
}

std::string sql_geom(const std::string& wkt) { return "ST_GeomFromText('" + wkt + "', 4674)"; }

double number(simdjson::dom::element e) {
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS) return d;
  return double(int64_t(e));
}

// Checks every feature's measures against the same computation done here in SQL.
void check_measures(const std::string& layer, simdjson::dom::element collection, const std::string& g) {
  for (auto [id, props] : by_id(collection)) {
    std::string where = " from cadastro." + layer + " where id = " + std::to_string(id);
    double area = std::stod(
        fixture().db("select ST_Area(ST_Intersection(geom, " + g + ")::geography)" + where));
    // The answer rounds to cm² and to hundredths of a percent.
    CHECK_MESSAGE(std::abs(number(props["area_intersecao_m2"]) - area) <= 0.006, layer << " " << id);
    double pct = std::stod(fixture().db(
        "select case ST_Dimension(geom) when 2 then 100 * ST_Area(ST_Intersection(geom, " + g +
        ")::geography) / ST_Area(geom::geography) when 1 then 100 * "
        "ST_Length(ST_Intersection(geom, " +
        g + ")::geography) / ST_Length(geom::geography) else 100 end" + where));
    CHECK_MESSAGE(std::abs(number(props["percentual_coberto"]) - std::min(pct, 100.0)) <= 0.006, layer << " " << id);
  }
}

}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "intersect with a WKT polygon returns the intersecting lots with geodesic areas and coverage") {
  const std::string g = sql_geom(circle_wkt());
  auto expected = id_set(db("select string_agg(id::text, ',') from cadastro.lote where ST_Intersects(geom, " + g + ")"));
  REQUIRE(expected.size() > 1);
  auto a = get("/geo/alfa/lote/intersect?limit=1000&wkt=" + url(circle_wkt()));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "application/geo+json");
  auto j = a->json();
  CHECK(std::string_view(j["type"]) == "FeatureCollection");
  CHECK(uint64_t(int64_t(j["numberMatched"])) == expected.size());
  CHECK(uint64_t(int64_t(j["numberReturned"])) == expected.size());
  auto got = by_id(j);
  std::set<std::int64_t> ids;
  for (const auto& [id, p] : got) ids.insert(id);
  CHECK(ids == expected);
  check_measures("lote", j, g);

  // Lots wholly inside the polygon are 100% covered, and only those.
  auto covered = id_set(db("select string_agg(id::text, ',') from cadastro.lote where ST_CoveredBy(geom, " + g + ")"));
  for (const auto& [id, p] : got) {
    bool full = number(p["percentual_coberto"]) >= 99.995;
    CHECK_MESSAGE(full == (covered.count(id) == 1), id);
  }
  // The feature keeps its own columns next to the measures, without the geometry.
  auto first = j["features"].at(0);
  CHECK(std::string_view(first["geometry"]["type"]) == "MultiPolygon");
  simdjson::dom::element none;
  CHECK(first["properties"]["geom"].get(none) != simdjson::SUCCESS);
  CHECK(first["properties"]["_intersecao"].get(none) != simdjson::SUCCESS);
  CHECK(!std::string_view(first["properties"]["inscricao"]).empty());
}

TEST_CASE_FIXTURE(Fixture,
                  "intersect with the same polygon as GeoJSON gives the same features and areas") {
  auto geojson = db("select ST_AsGeoJSON(ST_GeomFromText('" + circle_wkt() + "', 4674))");
  auto by_wkt = get("/geo/alfa/lote/intersect?limit=1000&wkt=" + url(circle_wkt()));
  auto by_geojson = get("/geo/alfa/lote/intersect?limit=1000&geojson=" + url(geojson));
  REQUIRE_MESSAGE(by_geojson->status == 200, by_geojson->body);
  auto w = by_id(by_wkt->json());
  auto gj = by_id(by_geojson->json());
  REQUIRE(w.size() == gj.size());
  for (const auto& [id, p] : w) {
    REQUIRE(gj.count(id) == 1);
    CHECK(number(gj[id]["area_intersecao_m2"]) == doctest::Approx(number(p["area_intersecao_m2"])).epsilon(1e-6));
  }
}

TEST_CASE_FIXTURE(
    Fixture,
    "intersect with a bbox counts what ST_MakeEnvelope finds and covers the lot it encloses") {
  auto box = db("select concat_ws(',', ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e)) from "
                "(select ST_Expand(geom::box2d, 0.0003) e from cadastro.lote where id = 1) b");
  double x0, y0, x1, y1;
  REQUIRE(std::sscanf(box.c_str(), "%lf,%lf,%lf,%lf", &x0, &y0, &x1, &y1) == 4);
  char q[256];
  std::snprintf(q, sizeof q, "minLongitude=%.9f&minLatitude=%.9f&maxLongitude=%.9f&maxLatitude=%.9f", x0, y0, x1, y1);
  char env[256];
  std::snprintf(env, sizeof env, "ST_MakeEnvelope(%.9f, %.9f, %.9f, %.9f, 4674)", x0, y0, x1, y1);
  for (std::string layer : {"lote", "edificacao"}) {
    auto expected = db("select count(*) from cadastro." + layer + " where ST_Intersects(geom, " + env + ")");
    auto a = get("/geo/alfa/" + layer + "/intersect?limit=1000&" + q);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    auto j = a->json();
    CHECK(std::to_string(int64_t(j["numberMatched"])) == expected);
    check_measures(layer, j, env);
    if (layer == "lote") CHECK(number(by_id(j).at(1)["percentual_coberto"]) == 100.0);
  }
}

TEST_CASE_FIXTURE(Fixture, "streets are covered by length and points wholly") {
  const std::string g = sql_geom(circle_wkt());
  auto a = get("/geo/alfa/logradouro/intersect?limit=1000&wkt=" + url(circle_wkt()));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::to_string(int64_t(j["numberMatched"])) ==
        db("select count(*) from cadastro.logradouro where ST_Intersects(geom, " + g + ")"));
  REQUIRE(int64_t(j["numberReturned"]) > 0);
  check_measures("logradouro", j, g);
  for (auto [id, p] : by_id(j)) CHECK(number(p["area_intersecao_m2"]) == 0.0);

  auto all = db("select concat_ws(',', ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e)) from "
                "(select ST_Extent(geom) e from cadastro.panorama) b");
  double x0, y0, x1, y1;
  REQUIRE(std::sscanf(all.c_str(), "%lf,%lf,%lf,%lf", &x0, &y0, &x1, &y1) == 4);
  char q[256];
  std::snprintf(q, sizeof q, "minLongitude=%.9f&minLatitude=%.9f&maxLongitude=%.9f&maxLatitude=%.9f", x0 - 1e-6,
                y0 - 1e-6, x1 + 1e-6, y1 + 1e-6);
  auto p = get(std::string("/geo/alfa/panorama/intersect?limit=1000&") + q);
  REQUIRE_MESSAGE(p->status == 200, p->body);
  auto pj = p->json();
  CHECK(std::to_string(int64_t(pj["numberMatched"])) == db("select count(*) from cadastro.panorama"));
  for (auto [id, props] : by_id(pj)) CHECK(number(props["percentual_coberto"]) == 100.0);
}

TEST_CASE_FIXTURE(
    Fixture, "an EWKT point in SIRGAS 2000 / UTM 23S is converted and finds the lot under it") {
  auto ewkt = db("select 'SRID=31983;' || ST_AsText(ST_Transform(ST_PointOnSurface(geom), 31983)) from cadastro.lote where id = 7");
  auto a = get("/geo/alfa/lote/intersect?wkt=" + url(ewkt));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto got = by_id(a->json());
  CHECK(got.count(7) == 1);
}

TEST_CASE_FIXTURE(
    Fixture,
    "intersect pages are disjoint, share numberMatched, and field filters narrow the match") {
  const std::string q = "/geo/alfa/lote/intersect?wkt=" + url(circle_wkt());
  auto p1 = get(q + "&limit=2&page=1");
  auto p2 = get(q + "&limit=2&page=2");
  auto j1 = p1->json();
  auto j2 = p2->json();
  CHECK(int64_t(j1["numberMatched"]) == int64_t(j2["numberMatched"]));
  CHECK(int64_t(j1["numberReturned"]) == 2);
  CHECK(int64_t(j1["limite"]) == 2);
  auto a = by_id(j1), b = by_id(j2);
  CHECK(a.rbegin()->first < b.begin()->first);  // stable order by id, no overlap

  auto topo = db("select topografia from cadastro.lote where ST_Intersects(geom, " + sql_geom(circle_wkt()) +
                 ") group by 1 order by count(*) desc limit 1");
  auto expected = db("select count(*) from cadastro.lote where topografia = '" + topo + "' and ST_Intersects(geom, " +
                     sql_geom(circle_wkt()) + ")");
  auto f = get(q + "&limit=1000&topografia=" + topo);
  REQUIRE_MESSAGE(f->status == 200, f->body);
  CHECK(std::to_string(int64_t(f->json()["numberMatched"])) == expected);
  CHECK(get(q + "&nao_existe=1")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "a bow-tie polygon is a 400 naming the self-intersection") {
  const std::string bowtie = "POLYGON((-47.06 -22.90, -47.05 -22.89, -47.05 -22.90, -47.06 -22.89, -47.06 -22.90))";
  auto a = get("/geo/alfa/lote/intersect?wkt=" + url(bowtie));
  CHECK(a->status == 400);
  CHECK(a->codigo() == "geometria_invalida");
  CHECK_MESSAGE(a->mensagem().find("Autointerseção") != std::string::npos, a->mensagem());
  auto geojson = R"({"type":"Polygon","coordinates":[[[-47.06,-22.90],[-47.05,-22.89],[-47.05,-22.90],[-47.06,-22.89],[-47.06,-22.90]]]})";
  auto b = get("/geo/alfa/lote/intersect?geojson=" + url(geojson));
  CHECK(b->status == 400);
  CHECK(b->mensagem().find("Autointerseção") != std::string::npos);
}

TEST_CASE_FIXTURE(Fixture,
                  "missing, doubled, unreadable or out-of-range query geometries are 400s") {
  CHECK(get("/geo/alfa/lote/intersect")->codigo() == "campo_obrigatorio");
  auto both = get("/geo/alfa/lote/intersect?wkt=" + url("POINT(-47.06 -22.9)") +
                  "&minLongitude=-47.1&minLatitude=-23&maxLongitude=-47&maxLatitude=-22.8");
  CHECK(both->status == 400);
  CHECK(both->codigo() == "parametro_invalido");
  for (std::string bad : {"POLYGON((1 2", "PONTO(1 2)", "POINT EMPTY", "POINT(500 500)"}) {
    auto a = get("/geo/alfa/lote/intersect?wkt=" + url(bad));
    CHECK_MESSAGE(a->status == 400, bad);
    CHECK(a->codigo() == "geometria_invalida");
  }
  CHECK(get("/geo/alfa/lote/intersect?geojson=" + url("{\"type\":\"Polygon\"")) ->status == 400);
  CHECK(get("/geo/alfa/lote/intersect?minLongitude=-47&minLatitude=-23&maxLongitude=-48&maxLatitude=-22")->status == 400);
  CHECK(get("/geo/alfa/imobiliario/intersect?wkt=" + url("POINT(-47.06 -22.9)"))->status == 400);
  auto unknown = get("/geo/alfa/nao_existe/intersect?wkt=" + url("POINT(-47.06 -22.9)"));
  CHECK(unknown->status == 404);
  CHECK(unknown->codigo() == "camada_nao_encontrada");
}
