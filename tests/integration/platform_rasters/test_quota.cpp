// The storage quota counts the layers' own files: a tiff layer's Cloud Optimized GeoTIFF
// takes space in /licencas/meu-plano and in the quota the next upload is checked against.
#include <random>

#include "rasters_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::RastersFixture;
using test::refused;

namespace {

// A GeoTIFF of side × side random values: random floats barely compress, so its COG takes
// about side² × 4 bytes.
std::string noisy_geotiff(int side, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> value(0, 1000);
  return test::utm23_geotiff(side, side, 10, [&](int, int) { return value(gen); });
}

}  // namespace

TEST_CASE_FIXTURE(RastersFixture,
                  "a tiff layer's raster file counts in the storage in use and in the quota the next upload is "
                  "checked against") {
  Cast c = cast();
  std::int64_t p = project(c);
  // A license of 1 MB.
  platform_db("insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, max_usuarios, "
              "max_armazenamento_mb) values (" + std::to_string(tenant_id("alfa")) +
              ", 'basico_mensal', 'ativa', current_date - 1, current_date + 30, 50, 1)");
  auto before = get("/licencas/meu-plano", c.admin);
  REQUIRE_MESSAGE(before->status == 200, before->body);
  CHECK(int64_t(before->json()["armazenamento"]["emUsoBytes"]) == 0);

  // About 640 KB of noise: it fits the empty megabyte.
  auto first = upload(test::import_path(p, "Ruido"), noisy_geotiff(400, 1), &c.owner);
  REQUIRE_MESSAGE(first->status == 202, first->body);
  auto done = finished(int64_t(first->json()["idImportacao"]), c.owner);
  REQUIRE_MESSAGE(done->text("estado") == "concluida", done->body);
  std::int64_t layer = int64_t(done->json()["idCamada"]);
  const std::string file = test::raster_root() + "/alfa/" + db("select arquivo from projeto.camadas where id = " +
                                                               std::to_string(layer));
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(file));
  CHECK(size > 500 * 1024);

  // The layer's file is in use now, to the byte.
  auto after = get("/licencas/meu-plano", c.admin);
  CHECK(int64_t(after->json()["armazenamento"]["emUsoBytes"]) == size);
  // So a second such file no longer fits: refused before anything is kept.
  refused(*upload(test::import_path(p, "Ruido2"), noisy_geotiff(400, 2), &c.owner), 403, "cota_excedida", "1 MB");
  CHECK(db("select count(*) from projeto.importacoes") == "1");
  CHECK(db("select count(*) from projeto.camadas") == "1");
  // A small one still fits.
  auto small = upload(test::import_path(p, "Pequeno"), test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(small->status == 202, small->body);
  CHECK(finished(int64_t(small->json()["idImportacao"]), c.owner)->text("estado") == "concluida");
}
