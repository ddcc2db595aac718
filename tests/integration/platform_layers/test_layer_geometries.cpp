// GET /camadas/:id/extent and GET /camadas/:id/check: a layer's extent in lon/lat and the
// validity report of its geometries (GEOS's reasons, empty ones, repeated vertices, SRID,
// a type the layer does not take).
#include "layers_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::LayersFixture;
using test::numbers;
using test::refused;

namespace {
}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a layer's extent is its geometries' in lon/lat, or the one recorded for its file") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t id = layer(c.owner, p, "Lotes");

  auto empty = get("/camadas/" + std::to_string(id) + "/extent", c.reader);
  REQUIRE_MESSAGE(empty->status == 200, empty->body);
  CHECK(empty->json()["bbox"].is_null());
  CHECK(int64_t(empty->json()["srid"]) == 4674);

  geometry(id, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  geometry(id, "POLYGON((-47.5 -26.5,-47.5 -26.4,-47.4 -26.4,-47.5 -26.5))");
  auto full = get("/camadas/" + std::to_string(id) + "/extent", c.reader);
  REQUIRE_MESSAGE(full->status == 200, full->body);
  CHECK(numbers(full->json()["bbox"]) == "-48,-27,-47.4,-26.4");
  CHECK(std::string_view(full->json()["tipo"]) == "vetor");

  std::int64_t wms = kind_layer(p, "wms", "null", "st_makeenvelope(-49, -28, -47, -26, 4674)");
  CHECK(numbers(get("/camadas/" + std::to_string(wms) + "/extent", c.reader)->json()["bbox"]) == "-49,-28,-47,-26");

  guarded(c, "GET", "/camadas/" + std::to_string(id) + "/extent", "", false);
  refused(*get("/camadas/1;drop/extent", c.owner), 400, "parametro_invalido", "id");
  // A private layer's extent is not shown to the project's readers.
  std::int64_t hidden = layer(c.owner, p, "Sigilosa", "poligono", R"(,"privada":true)");
  refused(*get("/camadas/" + std::to_string(hidden) + "/extent", c.reader), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(LayersFixture, "the check reports invalid, empty, repeated-vertex and wrong-type geometries") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t id = layer(c.owner, p, "Lotes", "poligono");
  std::int64_t ok = geometry(id, "POLYGON((0 0,0 1,1 1,1 0,0 0))");
  std::int64_t bowtie = geometry(id, "POLYGON((0 0,1 1,1 0,0 1,0 0))");
  std::int64_t bowtie2 = geometry(id, "POLYGON((10 10,11 11,11 10,10 11,10 10))");
  std::int64_t nothing = geometry(id, "POLYGON EMPTY");
  std::int64_t repeated = geometry(id, "POLYGON((0 0,0 1,0 1,1 1,1 0,0 0))");
  std::int64_t point = geometry(id, "POINT(0 0)");
  (void)ok;

  auto report = get("/camadas/" + std::to_string(id) + "/check", c.reader);
  REQUIRE_MESSAGE(report->status == 200, report->body);
  auto r = report->json();
  CHECK(int64_t(r["total"]) == 6);
  CHECK(int64_t(r["validas"]) == 1);
  CHECK(std::string_view(r["geometria"]) == "poligono");
  CHECK(int64_t(r["invalidas"]["total"]) == 2);
  CHECK(test::ids(r["invalidas"]["exemplos"]) == std::to_string(bowtie) + "," + std::to_string(bowtie2));
  CHECK(std::string_view(r["invalidas"]["exemplos"].at(0)["motivo"]) == "Self-intersection");
  CHECK(numbers(r["invalidas"]["exemplos"].at(0)["local"]) == "0.5,0.5");
  CHECK(int64_t(r["vazias"]["total"]) == 1);
  CHECK(test::ids(r["vazias"]["exemplos"]) == std::to_string(nothing));
  CHECK(int64_t(r["verticesRepetidos"]["total"]) == 1);
  CHECK(test::ids(r["verticesRepetidos"]["exemplos"]) == std::to_string(repeated));
  CHECK(int64_t(r["verticesRepetidos"]["exemplos"].at(0)["vertices"]) == 6);
  CHECK(int64_t(r["tipoErrado"]["total"]) == 1);
  CHECK(test::ids(r["tipoErrado"]["exemplos"]) == std::to_string(point));
  CHECK(std::string_view(r["tipoErrado"]["exemplos"].at(0)["tipo"]) == "POINT");
  CHECK(int64_t(r["sridErrado"]["total"]) == 0);

  // The first N offenders only; the counts stay whole.
  auto one = get("/camadas/" + std::to_string(id) + "/check?limite=1", c.owner);
  CHECK(int64_t(one->json()["invalidas"]["total"]) == 2);
  CHECK(test::ids(one->json()["invalidas"]["exemplos"]) == std::to_string(bowtie));
  refused(*get("/camadas/" + std::to_string(id) + "/check?limite=0", c.owner), 400, "parametro_invalido", "limite");
  refused(*get("/camadas/" + std::to_string(id) + "/check?limite=1001", c.owner), 400, "parametro_invalido", "limite");
  refused(*get("/camadas/" + std::to_string(id) + "/check?limite=1;drop", c.owner), 400, "parametro_invalido", "limite");

  // A layer of any type takes every geometry type.
  std::int64_t any = layer(c.owner, p, "Mista", "qualquer");
  geometry(any, "POINT(0 0)");
  geometry(any, "LINESTRING(0 0,1 1)");
  auto mixed = get("/camadas/" + std::to_string(any) + "/check", c.owner);
  CHECK(int64_t(mixed->json()["tipoErrado"]["total"]) == 0);
  CHECK(int64_t(mixed->json()["validas"]) == 2);

  guarded(c, "GET", "/camadas/" + std::to_string(id) + "/check", "", false);
  refused(*get("/camadas/1;drop/check", c.owner), 400, "parametro_invalido", "id");
}
