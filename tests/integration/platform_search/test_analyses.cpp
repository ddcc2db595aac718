// GET /analises/intersect and /analises/intersect/zonas: the features of a layer (or the
// zoning areas) a geometry crosses, with areas in m² and shares, checked on rectangles
// drawn in UTM 23S (EPSG:31983, Campinas) and stored in SIRGAS 2000.
#include <set>

#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::World;

namespace {

// A rectangle in UTM 23S metres.
std::string rect(double x0, double y0, double x1, double y1) {
  auto c = [](double v) { return std::to_string(v); };
  return "POLYGON((" + c(x0) + " " + c(y0) + "," + c(x1) + " " + c(y0) + "," + c(x1) + " " + c(y1) + "," + c(x0) +
         " " + c(y1) + "," + c(x0) + " " + c(y0) + "))";
}
constexpr double X = 290000, Y = 7466000;

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "GET /analises/intersect gives the crossed features' areas and shares, by hand") {
  World w(*this);
  // A 20 × 30 m lot (600 m²); in the blocks layer, a strip over its first 5 m (150 m², a
  // quarter of the lot, all of the strip) and a block over its last 10 m (300 m², half),
  // 40 × 30 m (1200 m²: a quarter of the block); and a block far away.
  auto lot = w.geometry(rect(X, Y, X + 20, Y + 30), 0, 31983);
  auto strip = w.geometry(rect(X, Y, X + 5, Y + 30), w.other_layer, 31983);
  auto block = w.geometry(rect(X + 10, Y, X + 50, Y + 30), w.other_layer, 31983);
  w.geometry(rect(X + 500, Y, X + 520, Y + 30), w.other_layer, 31983);

  auto a = get("/analises/intersect?idGeom=" + World::n(lot) + "&idCamada=" + World::n(w.other_layer), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(int64_t(j["idGeometria"]) == lot);
  CHECK(double(j["areaM2"]) == doctest::Approx(600).epsilon(0.005));
  auto items = j["itens"].get_array();
  REQUIRE(items.size() == 2);
  CHECK(int64_t(j["itens"].at(0)["idGeometria"]) == block);
  CHECK(double(j["itens"].at(0)["areaIntersecaoM2"]) == doctest::Approx(300).epsilon(0.005));
  CHECK(double(j["itens"].at(0)["proporcao"]) == doctest::Approx(0.5).epsilon(0.005));
  CHECK(double(j["itens"].at(0)["proporcaoDaFeicao"]) == doctest::Approx(0.25).epsilon(0.005));
  CHECK(int64_t(j["itens"].at(1)["idGeometria"]) == strip);
  CHECK(double(j["itens"].at(1)["proporcao"]) == doctest::Approx(0.25).epsilon(0.005));
  CHECK(double(j["itens"].at(1)["proporcaoDaFeicao"]) == doctest::Approx(1.0).epsilon(0.005));

  // The lot's own layer: other lots only, never the lot itself.
  auto self = get("/analises/intersect?idGeom=" + World::n(lot) + "&idCamada=" + World::n(w.layer), w.reader);
  CHECK(self->json()["itens"].get_array().size() == 0);

  // The guard: the geometry and the crossed layer alike.
  auto path = "/analises/intersect?idGeom=" + World::n(lot) + "&idCamada=" + World::n(w.other_layer);
  refused(*get(path, w.stranger), 404, "nao_encontrado");
  refused(*get(path, w.other_tenant), 404, "nao_encontrado");
  refused(*get("/analises/intersect?idGeom=" + World::n(lot) + "&idCamada=" + World::n(w.hidden), w.reader), 404,
          "nao_encontrado");
  refused(*get("/analises/intersect?idGeom=" + World::n(lot) + "&idCamada=999999", w.reader), 404, "nao_encontrado");
  CHECK(request("GET", path, {})->status == 401);
  CHECK(get("/analises/intersect?idGeom=" + World::n(lot), w.reader)->status == 400);
  CHECK(get("/analises/intersect?idGeom=1;drop&idCamada=1", w.reader)->status == 400);
  CHECK(get("/analises/intersect?idGeom=" + World::n(lot) + "&idCamada=x", w.reader)->status == 400);
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /analises/intersect/zonas says which zones a lot falls in, with shares") {
  World w(*this);
  auto zone = [&](const std::string& codigo, const std::string& wkt) {
    w.db("insert into geografia.zonas (codigo, nome, geom) values ('" + codigo + "', 'Zona " + codigo +
         "', st_multi(st_transform(st_geomfromtext('" + wkt + "', 31983), 4674))) returning id");
  };
  // A 20 × 30 m lot half inside ZR1 and half inside ZC2; ZI3 elsewhere.
  zone("ZR1", rect(X - 100, Y - 100, X + 10, Y + 100));
  zone("ZC2", rect(X + 10, Y - 100, X + 200, Y + 100));
  zone("ZI3", rect(X + 1000, Y, X + 1100, Y + 100));
  auto lot = w.geometry(rect(X, Y, X + 20, Y + 30), 0, 31983);
  auto a = get("/analises/intersect/zonas?idGeom=" + World::n(lot), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  REQUIRE(j["itens"].get_array().size() == 2);
  std::set<std::string> codes;
  for (auto item : j["itens"].get_array()) {
    codes.insert(std::string(std::string_view(item["codigo"])));
    CHECK(double(item["proporcao"]) == doctest::Approx(0.5).epsilon(0.005));
    CHECK(double(item["areaIntersecaoM2"]) == doctest::Approx(300).epsilon(0.005));
  }
  CHECK(codes == std::set<std::string>{"ZC2", "ZR1"});
  // A lot inside one zone: share 1.
  auto inside = w.geometry(rect(X + 50, Y, X + 70, Y + 30), 0, 31983);
  auto b = get("/analises/intersect/zonas?idGeom=" + World::n(inside), w.reader);
  CHECK(std::string_view(b->json()["itens"].at(0)["codigo"]) == "ZC2");
  CHECK(double(b->json()["itens"].at(0)["proporcao"]) == doctest::Approx(1.0).epsilon(0.005));

  refused(*get("/analises/intersect/zonas?idGeom=" + World::n(lot), w.stranger), 404, "nao_encontrado");
  refused(*get("/analises/intersect/zonas?idGeom=" + World::n(lot), w.other_tenant), 404, "nao_encontrado");
  refused(*get("/analises/intersect/zonas?idGeom=99999999", w.reader), 404, "nao_encontrado");
  CHECK(request("GET", "/analises/intersect/zonas?idGeom=" + World::n(lot), {})->status == 401);
  CHECK(get("/analises/intersect/zonas", w.reader)->status == 400);
  CHECK(get("/analises/intersect/zonas?idGeom=abc", w.reader)->status == 400);
}
