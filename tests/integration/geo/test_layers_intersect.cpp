// POST /geo/{municipio}/camadas/intersect/: one GeoJSON geometry against several layers.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

// A 45 m polygon around lot 1 as GeoJSON, and the same geometry for SQL.
const std::string& area_geojson() {
  static const std::string g = fixture().db(
      "select ST_AsGeoJSON(ST_Buffer(ST_Centroid(geom), 0.0004, 4)) from cadastro.lote where id = "
      "1");
  return g;
}
std::string area_sql() { return "ST_SetSRID(ST_GeomFromGeoJSON('" + area_geojson() + "'), 4674)"; }

}  // namespace

TEST_CASE_FIXTURE(
    Fixture, "camadas/intersect answers per layer with totals, limited features and measures") {
  auto a = post("/geo/alfa/camadas/intersect/",
                R"({"geometria": )" + area_geojson() + R"(, "camadas": ["lote", "edificacao"], "limite": 3})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(int64_t(j["limite"]) == 3);
  for (std::string layer : {"lote", "edificacao"}) {
    auto expected = std::stoll(db("select count(*) from cadastro." + layer + " where ST_Intersects(geom, " + area_sql() + ")"));
    REQUIRE(expected > 0);
    auto l = j["camadas"][layer];
    CHECK_MESSAGE(int64_t(l["total"]) == expected, layer);
    auto features = l["features"].get_array().value();
    CHECK(int64_t(features.size()) == std::min<int64_t>(expected, 3));
    CHECK(int64_t(l["numberReturned"]) == int64_t(features.size()));
    for (auto f : features) {
      auto id = std::to_string(int64_t(f["id"]));
      double area = std::stod(db("select ST_Area(ST_Intersection(geom, " + area_sql() + ")::geography) from cadastro." +
                                 layer + " where id = " + id));
      CHECK(std::abs(double(f["properties"]["area_intersecao_m2"]) - area) <= 0.006);
      double pct = double(f["properties"]["percentual_coberto"]);
      CHECK((pct >= 0 && pct <= 100));
    }
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "camadas/intersect without limite returns up to 100 features per layer") {
  auto a = post("/geo/alfa/camadas/intersect/", R"({"geometria": )" + area_geojson() + R"(, "camadas": ["lote"]})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(int64_t(j["limite"]) == 100);
  auto total = int64_t(j["camadas"]["lote"]["total"]);
  CHECK(int64_t(j["camadas"]["lote"]["features"].get_array().size()) == std::min<int64_t>(total, 100));
}

TEST_CASE_FIXTURE(Fixture,
                  "camadas/intersect refuses unknown layers with 404 and bad bodies with 400") {
  const std::string g = area_geojson();
  auto unknown = post("/geo/alfa/camadas/intersect/", R"({"geometria": )" + g + R"(, "camadas": ["lote", "nao_existe"]})");
  CHECK(unknown->status == 404);
  CHECK(unknown->codigo() == "camada_nao_encontrada");
  struct Case {
    std::string body, codigo;
  };
  const std::string bowtie =
      R"({"type":"Polygon","coordinates":[[[-47.06,-22.90],[-47.05,-22.89],[-47.05,-22.90],[-47.06,-22.89],[-47.06,-22.90]]]})";
  for (const Case& c : std::vector<Case>{
           {"{", "json_invalido"},
           {"[]", "parametro_invalido"},
           {R"({"camadas": ["lote"]})", "campo_obrigatorio"},
           {R"({"geometria": )" + g + "}", "campo_obrigatorio"},
           {R"({"geometria": )" + g + R"(, "camadas": "lote"})", "parametro_invalido"},
           {R"({"geometria": )" + g + R"(, "camadas": []})", "parametro_invalido"},
           {R"({"geometria": )" + g + R"(, "camadas": ["lote", "lote"]})", "parametro_invalido"},
           {R"({"geometria": )" + g + R"(, "camadas": ["lote"], "limite": 0})", "parametro_invalido"},
           {R"({"geometria": )" + g + R"(, "camadas": ["lote"], "outro": 1})", "campo_desconhecido"},
           {R"J({"geometria": "POINT(1 2)", "camadas": ["lote"]})J", "geometria_invalida"},
           {R"({"geometria": )" + bowtie + R"(, "camadas": ["lote"]})", "geometria_invalida"},
           {R"({"geometria": )" + g + R"(, "camadas": ["imobiliario"]})", "parametro_invalido"},
           {R"({"geometria": )" + g + R"(, "camadas": ["lote;--"]})", "identificador_invalido"},
       }) {
    auto a = post("/geo/alfa/camadas/intersect/", c.body);
    CHECK_MESSAGE(a->status == 400, c.body);
    CHECK_MESSAGE(a->codigo() == c.codigo, c.body << " → " << a->body);
  }
  auto bad = post("/geo/alfa/camadas/intersect/", R"({"geometria": )" + bowtie + R"(, "camadas": ["lote"]})");
  CHECK(bad->mensagem().find("Autointerseção") != std::string::npos);
}
