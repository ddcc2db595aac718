// POST /converter/geojson: every target format read back with ogrinfo; the PVG profile
// exported and imported again unchanged (round trip), and a document outside the profile
// refused.
#include <doctest/doctest.h>

#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;

namespace {

const char* kParcels = R"({"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"nome":"Área Verde","valor":10.5},"geometry":{"type":"Polygon","coordinates":[[[-46.60,-23.50],[-46.59,-23.50],[-46.59,-23.49],[-46.60,-23.49],[-46.60,-23.50]]]}},
{"type":"Feature","properties":{"nome":"Praça","valor":7},"geometry":{"type":"Polygon","coordinates":[[[-46.58,-23.50],[-46.57,-23.50],[-46.57,-23.49],[-46.58,-23.49],[-46.58,-23.50]]]}}]})";

// Block faces of a value map, with a property the profile does not carry.
const char* kFaces = R"({"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"codigo":"F-001","valor_m2":350.5,"obs":"x"},"geometry":{"type":"LineString","coordinates":[[-46.60,-23.50],[-46.59,-23.50]]}},
{"type":"Feature","properties":{"codigo":"F-002","valor_m2":420},"geometry":{"type":"LineString","coordinates":[[-46.59,-23.50],[-46.59,-23.49]]}},
{"type":"Feature","properties":{"codigo":"F-003","valor_m2":99.99},"geometry":{"type":"MultiLineString","coordinates":[[[-46.58,-23.50],[-46.57,-23.50]]]}}]})";

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "GeoJSON converts to shapefile, KML, GeoPackage, DXF and CSV that GDAL reads back") {
  auto c = cast();
  struct Case {
    const char* target;
    const char* file;
    const char* open;  // what ogrinfo opens
  };
  for (Case k : {Case{"shp", "c.zip", "/vsizip/c.zip"}, Case{"kml", "c.kml", "c.kml"}, Case{"gpkg", "c.gpkg", "c.gpkg"},
                 Case{"dxf", "c.dxf", "c.dxf"}, Case{"csv", "c.csv", "c.csv"}}) {
    CAPTURE(k.target);
    auto a = post(std::string("/converter/geojson?targetType=") + k.target, kParcels, c.owner);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(a->header("Content-Disposition").find("attachment") != std::string::npos);
    write(k.file, a->body);
    std::string info = out(std::string("ogrinfo -ro -al -so ") + k.open);
    CHECK_MESSAGE(info.find("Feature Count: 2") != std::string::npos, info);
    if (std::string(k.target) != "dxf") {  // DXF keeps geometries and layers, not attributes
      std::string all = out(std::string("ogrinfo -ro -al ") + k.open);
      CHECK_MESSAGE(all.find("Área Verde") != std::string::npos, all);
    }
  }
  CHECK(out("unzip -l c.zip").find("camada.cpg") != std::string::npos);
  refused(*post("/converter/geojson?targetType=xyz", kParcels, c.owner), 400, "parametro_invalido");
  refused(*post("/converter/geojson", kParcels, c.owner), 400, "campo_obrigatorio", "targetType");
  refused(*post("/converter/geojson?targetType=kml", "isto não é json", c.owner), 400, "parametro_invalido");
}

TEST_CASE_FIXTURE(ImportsFixture, "the PVG profile round-trips: exported from GeoJSON, imported as a layer with the same codes and values") {
  auto c = cast();
  auto exported = post("/converter/geojson?targetType=pvg", kFaces, c.owner);
  REQUIRE_MESSAGE(exported->status == 200, exported->body);
  auto doc = exported->json();
  CHECK(std::string_view(doc["pvg"]["unidade"]) == "R$/m²");
  CHECK(std::string_view(doc["pvg"]["versao"]) == "1");
  CHECK(doc["features"].get_array().size() == 3);
  CHECK(exported->body.find("obs") == std::string::npos);  // only codigo and valor_m2

  auto job = finished(submitted(route("pvg", "pvg-1", c.projeto, "PVG 2026"), exported->body, "pvg.geojson", c.owner), c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  const std::string L = n(job.camada);
  CHECK(db("select geometria from projeto.camadas where id = " + L) == "linha");
  CHECK(db("select propriedades -> 'pvg' ->> 'unidade' from projeto.camadas where id = " + L) == "R$/m²");
  // The layer's table: codigo and valor_m2 by their columns.
  const std::string codigo = "l.c_" + field(L, "codigo"), valor = "l.c_" + field(L, "valor_m2");
  CHECK(db("select string_agg(" + codigo + " || '=' || " + valor + ", ',' order by " + codigo + ") from camadas.l" + L +
           " l") == "F-001=350.5,F-002=420,F-003=99.99");

  // The layer exported again gives the same document's features.
  std::string again = db(
      "select json_build_object('type', 'FeatureCollection', 'features', json_agg(json_build_object('type', 'Feature', "
      "'geometry', st_asgeojson(g.geom)::json, 'properties', json_build_object('codigo', " + codigo + ", 'valor_m2', " +
      valor + ")) order by " + codigo + "))::text from projeto.geometrias g join camadas.l" + L +
      " l on l.id = g.id where g.camada_id = " + L);
  auto second = post("/converter/geojson?targetType=pvg", again, c.owner);
  REQUIRE_MESSAGE(second->status == 200, second->body);
  auto d2 = second->json();
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(std::string_view(d2["features"].at(i)["properties"]["codigo"]) ==
          std::string_view(doc["features"].at(i)["properties"]["codigo"]));
    CHECK(double(d2["features"].at(i)["properties"]["valor_m2"]) ==
          doctest::Approx(double(doc["features"].at(i)["properties"]["valor_m2"])));
  }

  // Outside the profile: refused at once.
  refused(*upload(route("pvg", "pvg-2", c.projeto, "Sem cabeçalho"), kFaces, "pvg.geojson", c.owner), 400,
          "parametro_invalido", "pvg");
  std::string mixed = exported->body;
  mixed.replace(mixed.find("\"MultiLineString\""), 17, "\"Point\"");
  refused(*upload(route("pvg", "pvg-3", c.projeto, "Misto"), mixed, "pvg.geojson", c.owner), 400, "parametro_invalido",
          "feição 3");
  refused(*post("/converter/geojson?targetType=pvg", R"({"type":"FeatureCollection","features":[{"type":"Feature",
    "properties":{"codigo":"A"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]})", c.owner),
          400, "parametro_invalido", "valor_m2");
}
