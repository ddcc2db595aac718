// Desktop GIS interoperability: GDAL (what QGIS uses) opens a list URL as a vector layer.
#include <cstdio>

#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture, "GDAL's ogrinfo reads a layer list URL directly as a GeoJSON layer") {
  auto& stack = city();
  std::string url = "http://127.0.0.1:" + std::to_string(stack.app().server().port()) + "/alfa/lote/?limit=7";
  std::string cmd = "ogrinfo --config GDAL_HTTP_HEADERS \"Authorization: Bearer " + stack.user("alfa").token +
                    "\" -ro -al -so \"GeoJSON:" + url + "\" 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int rc = pclose(p);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("Feature Count: 7") != std::string::npos);
  CHECK(out.find("Geometry: Multi Polygon") != std::string::npos);
  CHECK(out.find("inscricao: String") != std::string::npos);
}
