// The raster and WMS routes in /swagger.json (the fourteen of the spec and the signed
// upload), each with components that exist.
#include <string>
#include <vector>

#include "integration/platform/openapi_check.hpp"

using namespace cadastre;
using test::PlatformFixture;

TEST_CASE_FIXTURE(PlatformFixture, "swagger.json documents the raster and WMS routes with resolvable schemas") {
  const std::vector<std::pair<std::string, std::string>> routes = {
      {"post", "/importar/tiff"},          {"get", "/importar/tiff/credentials"},
      {"put", "/importar/tiff/envio"},     {"get", "/importacoes-tiff"},
      {"get", "/importacoes-tiff/{id}"},   {"put", "/importacoes-tiff/{id}"},
      {"get", "/valorPixel/{idTiff}"},     {"post", "/importar/wms"},
      {"get", "/proxy/wms/capabilities"},  {"get", "/fonteswms"},
      {"post", "/fonteswms"},              {"get", "/fonteswms/{id}"},
      {"put", "/fonteswms/{id}"},          {"post", "/fonteswms/{id}/imagem"}};
  test::check_documented(*this, routes, false);
}
