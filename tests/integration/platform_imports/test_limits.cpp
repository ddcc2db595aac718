// The feature limit of imports (kMaxFeatures = 500,000 in src/platform/imports/input.hpp):
// a real 500,001-point shapefile, made by ogr2ogr, is refused with 413 before any job is
// queued, and nothing is written. A PVG that large cannot reach the feature count: its
// smallest valid feature takes 78 bytes, so 500,001 of them are over the 32 MiB upload
// limit, which refuses the body first (also 413, also nothing written).
#include <doctest/doctest.h>

#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;

namespace {

constexpr int kOverLimit = 500001;

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "a shapefile of 500,001 features is refused with 413 before a job, nothing written") {
  auto c = cast();
  std::string csv = "id,x,y\n";
  csv.reserve(static_cast<std::size_t>(kOverLimit) * 28);
  for (int i = 0; i < kOverLimit; ++i)  // a 1000 × 501 grid of points near Campinas
    csv += std::to_string(i) + "," + std::to_string(-47.0 + (i % 1000) * 0.0001) + "," +
           std::to_string(-23.0 - (i / 1000) * 0.0001) + "\n";
  write("limite.csv", csv);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:4674 -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y "
     "-oo KEEP_GEOM_COLUMNS=NO limite.shp limite.csv");
  REQUIRE(out("ogrinfo -so -al limite.shp").find("Feature Count: 500001") != std::string::npos);
  sh("zip -j limite.zip limite.shp limite.shx limite.dbf limite.prj");
  const std::string zip = read("limite.zip");
  REQUIRE(zip.size() < (std::size_t{32} << 20));  // under the upload limit: the count is what refuses it

  const std::string before = footprint();
  auto a = upload(route("shp", "limite", c.projeto, "Limite"), zip, "limite.zip", c.owner);
  refused(*a, 413, "corpo_muito_grande", "o arquivo tem 500001 feições; o limite é 500000");
  // Refused by the route from the shapefile's header, before the job: no job row, no layer.
  CHECK(footprint() == before);
  CHECK(db("select count(*) from projeto.importacoes where codigo = 'limite'") == "0");
  auto jobs = get("/importar/pendentes", c.owner);
  REQUIRE_MESSAGE(jobs->status == 200, jobs->body);
  CHECK(int64_t(jobs->json()["totalElements"]) == 0);
}

TEST_CASE_FIXTURE(ImportsFixture, "a PVG of 500,001 features is over the upload limit: 413, nothing written") {
  auto c = cast();
  std::string pvg = R"({"type":"FeatureCollection","pvg":{"municipio":"Campinas","versao":"1","data":"2026-01-15",)"
                    R"("unidade":"R$/m²"},"features":[)";
  pvg.reserve(static_cast<std::size_t>(kOverLimit) * 80 + pvg.size());
  for (int i = 0; i < kOverLimit; ++i)  // the smallest feature the profile accepts
    pvg += std::string(i ? "," : "") + R"({"geometry":{"type":"LineString"},"properties":{"codigo":")" +
           std::to_string(i) + R"(","valor_m2":1}})";
  pvg += "]}";
  REQUIRE(pvg.size() > (std::size_t{32} << 20));

  const std::string before = footprint();
  auto a = upload(route("pvg", "pvg-limite", c.projeto, "PVG"), pvg, "pvg.geojson", c.owner);
  refused(*a, 413, "corpo_muito_grande", "excede o limite");
  CHECK(footprint() == before);
  CHECK(db("select count(*) from projeto.importacoes where codigo = 'pvg-limite'") == "0");
}
