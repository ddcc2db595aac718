// TileJSON per layer, the index of tileable layers and their OpenAPI entries.
#include <cmath>

#include "fixture.hpp"

using namespace cadastre::test;

namespace {

std::string text(simdjson::dom::element e) { return std::string(std::string_view(e)); }

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "TileJSON 3.0.0 of a layer: tile URL from the request host, zooms, bounds of the "
                  "data and fields") {
  auto r = fetch("/tiles/alfa/lote.json", city().user("alfa").token, {{"Host", "mapas.exemplo.gov.br"}});
  REQUIRE(r->status == 200);
  CHECK(r->header("Content-Type").starts_with("application/json"));
  auto j = r->json();
  CHECK(text(j["tilejson"]) == "3.0.0");
  CHECK(text(j["name"]) == "lote");
  CHECK(text(j["scheme"]) == "xyz");
  CHECK(text(j["tiles"].at(0)) == "http://mapas.exemplo.gov.br/tiles/alfa/lote/{z}/{x}/{y}.pbf");
  CHECK(int64_t(j["minzoom"]) == 0);
  CHECK(int64_t(j["maxzoom"]) == 24);

  const char* parts[] = {"ST_XMin", "ST_YMin", "ST_XMax", "ST_YMax"};
  for (std::size_t i = 0; i < 4; ++i) {
    double expected = std::stod(db(std::string("select ") + parts[i] + "(ST_Extent(geom)) from cadastro.lote"));
    CHECK(std::abs(double(j["bounds"].at(i)) - expected) < 1e-9);
  }
  auto center = j["center"];
  CHECK(double(center.at(0)) > double(j["bounds"].at(0)));
  CHECK(double(center.at(0)) < double(j["bounds"].at(2)));

  auto layer = j["vector_layers"].at(0);
  CHECK(text(layer["id"]) == "lote");
  auto fields = layer["fields"];
  CHECK(text(fields["id"]) == "Number");
  CHECK(text(fields["inscricao"]) == "String");
  CHECK(text(fields["area_terreno"]) == "Number");
  CHECK(text(fields["criado_em"]) == "String");
  CHECK(fields["geom"].error() == simdjson::NO_SUCH_FIELD);
}

TEST_CASE_FIXTURE(Fixture, "TileJSON behind a TLS proxy advertises https tile URLs") {
  auto r = fetch("/tiles/alfa/quadra.json", city().user("alfa").token,
                 {{"Host", "mapas.exemplo.gov.br"}, {"X-Forwarded-Proto", "https"}});
  REQUIRE(r->status == 200);
  CHECK(text(r->json()["tiles"].at(0)) == "https://mapas.exemplo.gov.br/tiles/alfa/quadra/{z}/{x}/{y}.pbf");
}

TEST_CASE_FIXTURE(Fixture, "TileJSON of an empty layer spans the Web Mercator world") {
  auto r = fetch("/tiles/beta/lote.json", city().user("beta").token);
  REQUIRE(r->status == 200);
  auto j = r->json();
  CHECK(double(j["bounds"].at(0)) == -180.0);
  CHECK(double(j["bounds"].at(2)) == 180.0);
  CHECK(j["center"].error() == simdjson::NO_SUCH_FIELD);
}

TEST_CASE_FIXTURE(Fixture, "TileJSON needs the .json suffix and a layer with geometry") {
  CHECK(fetch("/tiles/alfa/lote.geojson")->status == 400);
  CHECK(fetch("/tiles/alfa/lote")->status == 400);
  CHECK(fetch("/tiles/alfa/.json")->status == 400);
  CHECK(fetch("/tiles/alfa/pessoa.json")->status == 404);
  CHECK(fetch("/tiles/alfa/nada.json")->status == 404);
}

TEST_CASE_FIXTURE(Fixture,
                  "index.json lists the readable layers with geometry and their TileJSON URLs") {
  auto r = fetch("/tiles/alfa/index.json", city().user("alfa").token, {{"Host", "mapas.exemplo.gov.br"}});
  REQUIRE(r->status == 200);
  auto j = r->json();
  CHECK(text(j["municipio"]) == "alfa");
  std::map<std::string, std::string> listed;
  for (auto c : j["camadas"].get_array()) listed[text(c["id"])] = text(c["tilejson"]);
  CHECK(listed["lote"] == "http://mapas.exemplo.gov.br/tiles/alfa/lote.json");
  CHECK(listed.count("quadra") == 1);
  CHECK(listed.count("edificacao") == 1);
  CHECK(listed.count("pessoa") == 0);       // no geometry
  CHECK(listed.count("imobiliario") == 0);  // no geometry

  auto reader = city().add_user("alfa", "so-quadra-index@alfa.gov.br", {"quadra:r"});
  auto limited = fetch("/tiles/alfa/index.json", reader.token);
  REQUIRE(limited->status == 200);
  std::vector<std::string> ids;
  for (auto c : limited->json()["camadas"].get_array()) ids.push_back(text(c["id"]));
  CHECK(ids == std::vector<std::string>{"quadra"});
}

TEST_CASE_FIXTURE(Fixture, "the tile routes are in the OpenAPI document") {
  auto r = fetch("/openapi.json", "");
  REQUIRE(r->status == 200);
  for (const char* p : {"/tiles/{municipio}/{layer}/{z}/{x}/{y}", "/tiles/{municipio}/{file}", "/tiles/{municipio}/index.json"})
    CHECK_MESSAGE(r->body.find(std::string("\"") + p + "\"") != std::string::npos, p);
  CHECK(r->body.find("application/vnd.mapbox-vector-tile") != std::string::npos);
}
