// Searches around a point, in metres on the ellipsoid (never degrees): /raio, /xy,
// /raio-quad, and /intersect-geom with the intersection's area in m².
#include "parcels.hpp"

using namespace cadastre;
using test::Parcels;
using test::PlatformFixture;
using test::refused;

TEST_CASE_FIXTURE(PlatformFixture, "searches around a point measure in metres") {
  Parcels w(*this);
  // A: 20 x 30 m; B: the same, 100 m east (its west edge 90 m from A's centre).
  std::int64_t a = w.rect(610000, 7795000, 20, 30), b = w.rect(610100, 7795000, 20, 30);
  auto [lon, lat] = w.lonlat(610010, 7795015);
  auto at = [&, lon = lon, lat = lat](const std::string& route, const std::string& extra) {
    auto r = get("/geometrias/" + route + "?idCamada=" + Parcels::n(w.lots) + "&x=" + std::to_string(lon) +
                     "&y=" + std::to_string(lat) + extra,
                 w.reader);
    REQUIRE_MESSAGE(r->status == 200, r->body);
    std::vector<std::int64_t> ids;
    for (auto e : r->json().get_array()) ids.push_back(int64_t(e["id"]));
    return std::pair{std::move(r), ids};
  };
  CHECK(at("raio", "").second == std::vector<std::int64_t>{a});  // default 50 m
  auto [near, ids] = at("raio", "&r=200");
  CHECK(ids == std::vector<std::int64_t>{a, b});
  CHECK(double(near->json().at(0)["distancia"]) == 0);
  CHECK(double(near->json().at(1)["distancia"]) == doctest::Approx(90).epsilon(0.01));
  CHECK(at("xy", "").second == std::vector<std::int64_t>{a});
  CHECK(at("raio-quad", "&r=80").second == std::vector<std::int64_t>{a});
  CHECK(at("raio-quad", "&r=95").second == std::vector<std::int64_t>{a, b});
  auto [far_lon, far_lat] = w.lonlat(611000, 7796000);
  auto none = get("/geometrias/xy?idCamada=" + Parcels::n(w.lots) + "&x=" + std::to_string(far_lon) +
                      "&y=" + std::to_string(far_lat),
                  w.reader);
  CHECK(none->body == "[]");
  refused(*get("/geometrias/raio?idCamada=" + Parcels::n(w.lots) + "&x=1&y=1&r=6000", w.reader), 400,
          "parametro_invalido", "r");
  refused(*get("/geometrias/raio?idCamada=" + Parcels::n(w.lots) + "&x=200&y=1", w.reader), 400, "parametro_invalido",
          "x");
  refused(*get("/geometrias/xy?idCamada=" + Parcels::n(w.lots) + "&x=1", w.reader), 400, "campo_obrigatorio", "y");

  // The west half of A (10 x 30 m) intersects A over 300 m² and misses B.
  std::string half = w.db("select st_astext(st_transform(st_geomfromtext('" + Parcels::utm_rect(610000, 7795000, 10, 30) +
                          "', 31983), 4674))");
  auto x = get("/geometrias/intersect-geom?ids=" + Parcels::n(a) + "," + Parcels::n(b) + "&wkt=" + test::encode(half),
               w.reader);
  REQUIRE_MESSAGE(x->status == 200, x->body);
  CHECK(int64_t(x->json().at(0)["id"]) == a);
  CHECK(bool(x->json().at(0)["intersecta"]));
  CHECK(double(x->json().at(0)["areaIntersecao"]) == doctest::Approx(300).epsilon(0.005));
  CHECK_FALSE(bool(x->json().at(1)["intersecta"]));
  CHECK(double(x->json().at(1)["areaIntersecao"]) == 0);
  refused(*get("/geometrias/intersect-geom?ids=" + Parcels::n(a) + "&wkt=POLYGON", w.reader), 400, "parametro_invalido",
          "wkt");
  refused(*get("/geometrias/intersect-geom?ids=1;drop&wkt=POINT(1%201)", w.reader), 400, "parametro_invalido", "ids");
}
