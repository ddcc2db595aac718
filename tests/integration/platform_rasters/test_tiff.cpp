// GeoTIFF imports (jobs that create tiff layers as Cloud Optimized GeoTIFFs), their signed
// upload links, the caller's tiff jobs, and the value of a raster's pixels at a point. The
// GeoTIFFs are written by the test with GDAL (rasters_fixture.hpp: make_geotiff).
#include "rasters_fixture.hpp"
#include "support/memory.hpp"

using namespace cadastre;
using test::Cast;
using test::RastersFixture;
using test::refused;
using test::peak_memory_mb;
using test::reset_peak_memory;
using test::resident_memory_mb;

namespace {

std::string query_of(const std::string& path) { return path.substr(path.find('?') + 1); }

// The path of a signed link with one query field replaced.
std::string with_field(const std::string& path, const std::string& field, const std::string& value) {
  auto at = path.find(field + "=");
  REQUIRE(at != std::string::npos);
  auto end = path.find('&', at);
  return path.substr(0, at) + field + "=" + value + (end == std::string::npos ? "" : path.substr(end));
}

}  // namespace

TEST_CASE_FIXTURE(RastersFixture,
                  "POST /importar/tiff answers 202 with a job that creates a tiff layer stored as a Cloud Optimized "
                  "GeoTIFF in the raster's own CRS") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto a = upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  std::int64_t job = int64_t(a->json()["idImportacao"]);
  CHECK(a->text("tipo") == "tiff");
  auto done = finished(job, c.owner);
  REQUIRE_MESSAGE(done->text("estado") == "concluida", done->body);
  std::int64_t layer = int64_t(done->json()["idCamada"]);
  CHECK(int64_t(done->json()["contagens"]["importadas"]) == 1);
  CHECK(std::string_view(done->json()["parametros"]["crs"]) == "EPSG:31983");
  CHECK(int64_t(done->json()["parametros"]["bandas"]) == 2);

  std::string row = db("select concat_ws('|', tipo, nome, arquivo, st_srid(extensao)) from projeto.camadas where id = " +
                       std::to_string(layer));
  CHECK(row == "tiff|Relevo|camadas/" + std::to_string(layer) + "/raster.tif|4674");
  std::string file = test::raster_root() + "/alfa/camadas/" + std::to_string(layer) + "/raster.tif";
  REQUIRE(std::filesystem::is_regular_file(file));
  std::string info = test::run_command("gdalinfo " + file);
  CHECK_MESSAGE(info.find("LAYOUT=COG") != std::string::npos, info);
  CHECK_MESSAGE(info.find("31983") != std::string::npos, info);  // kept in its CRS
  CHECK_MESSAGE(info.find("COMPRESSION=DEFLATE") != std::string::npos, info);
  // The uploaded bytes are gone once the job ended.
  CHECK(std::filesystem::is_empty(test::raster_root() + "/alfa/importacoes/tiff"));
  // The layer reads as any tiff layer: its extent and a styled window.
  auto extent = get("/camadas/tiff/" + std::to_string(layer) + "/extent", c.reader);
  REQUIRE_MESSAGE(extent->status == 200, extent->body);
  auto styled = get("/estilizarRaster/" + std::to_string(layer) +
                        "?bbox=-48.95,-23.5,-48.9,-23.45&width=64&height=48&ramp=viridis&classes=4&opacity=0.5",
                    c.reader);
  CHECK_MESSAGE(styled->status == 200, styled->body);
  CHECK(styled->body.rfind("\x89PNG", 0) == 0);

  // The same codigo twice: the first job back, nothing new.
  auto first = upload(test::import_path(p, "Relevo 2") + "&codigo=lote-7", test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(first->status == 202, first->body);
  auto again = upload(test::import_path(p, "Relevo 2") + "&codigo=lote-7", test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(again->status == 202, again->body);
  CHECK(int64_t(again->json()["idImportacao"]) == int64_t(first->json()["idImportacao"]));
  finished(int64_t(first->json()["idImportacao"]), c.owner);
  CHECK(db("select count(*) from projeto.camadas where nome = 'Relevo 2'") == "1");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "POST /importar/tiff refuses what is not a georeferenced GeoTIFF (400 naming why) and writes "
                  "nothing") {
  Cast c = cast();
  std::int64_t p = project(c);
  refused(*upload(test::import_path(p, "Relevo"), "isto não é um tiff", &c.owner), 400, "parametro_invalido", "GeoTIFF");
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(false), &c.owner), 400, "parametro_invalido",
          "sistema de coordenadas");
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.owner, "arquivo"), 400, "campo_obrigatorio",
          "file");
  refused(*upload("/importar/tiff?idProjeto=" + std::to_string(p), test::make_geotiff(), &c.owner), 400,
          "campo_obrigatorio", "nomeCamada");
  refused(*upload(test::import_path(p, "   "), test::make_geotiff(), &c.owner), 400, "parametro_invalido", "nomeCamada");
  refused(*upload("/importar/tiff?idProjeto=1;drop&nomeCamada=x", test::make_geotiff(), &c.owner), 400,
          "parametro_invalido", "idProjeto");
  // The project's guard.
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(), nullptr), 401, "nao_autenticado");
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.reader), 403, "acesso_negado");
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.stranger), 404, "nao_encontrado");
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.beta), 404, "nao_encontrado");
  // What the license limits (licenses::require_storage, as for any upload): its end.
  platform_db("insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, max_usuarios, "
              "max_armazenamento_mb) values (" + std::to_string(tenant_id("alfa")) +
              ", 'basico_mensal', 'ativa', current_date - 30, current_date - 1, 50, 1024)");
  refused(*upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.owner), 403, "licenca_inativa", "terminou");
  CHECK(db("select count(*) from projeto.importacoes") == "0");
  CHECK(db("select count(*) from projeto.camadas") == "0");
  CHECK(std::filesystem::is_empty(test::raster_root() + "/alfa/importacoes/tiff"));
}

TEST_CASE_FIXTURE(RastersFixture,
                  "GET /importar/tiff/credentials gives a signed PUT link that imports once without a session; "
                  "altered, expired or spent links are refused") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto cred = get("/importar/tiff/credentials?idProjeto=" + std::to_string(p) + "&nomeCamada=Ortofoto", c.owner);
  REQUIRE_MESSAGE(cred->status == 200, cred->body);
  CHECK(cred->text("metodo") == "PUT");
  std::string path = cred->text("caminho");
  CHECK(cred->text("url") == app->public_url() + path);
  CHECK(int64_t(cred->json()["expira"]) > 0);
  const httplib::Headers none;

  // Altered: another key, another tenant, another expiry.
  std::string other_key = with_field(path, "chave", std::string(64, 'a'));
  refused(*raw("PUT", other_key, none, test::make_geotiff(), "image/tiff"), 403, "acesso_negado");
  refused(*raw("PUT", with_field(path, "municipio", "beta"), none, test::make_geotiff(), "image/tiff"), 403,
          "acesso_negado");
  refused(*raw("PUT", with_field(path, "expira", "99999999999"), none, test::make_geotiff(), "image/tiff"), 403,
          "acesso_negado");
  refused(*raw("PUT", "/importar/tiff/envio?" + query_of(with_field(path, "assinatura", "1;drop")), none,
               test::make_geotiff(), "image/tiff"),
          400, "parametro_invalido", "assinatura");
  // A wrong file does not spend the link.
  refused(*raw("PUT", path, none, "não é tiff", "image/tiff"), 400, "parametro_invalido", "GeoTIFF");

  auto sent = raw("PUT", path, none, test::make_geotiff(), "image/tiff");
  REQUIRE_MESSAGE(sent->status == 202, sent->body);
  std::int64_t job = int64_t(sent->json()["idImportacao"]);
  auto done = finished(job, c.owner);  // the issuer's job
  REQUIRE_MESSAGE(done->text("estado") == "concluida", done->body);
  CHECK(db("select nome from projeto.camadas where id = " + std::to_string(int64_t(done->json()["idCamada"]))) ==
        "Ortofoto");
  // Once only.
  refused(*raw("PUT", path, none, test::make_geotiff(), "image/tiff"), 403, "acesso_negado", "já usado");

  // Expired: a link signed with the platform's key whose time has passed.
  auto fresh = get("/importar/tiff/credentials?idProjeto=" + std::to_string(p) + "&nomeCamada=Outra", c.owner);
  REQUIRE(fresh->status == 200);
  std::string chave = fresh->text("caminho");
  chave = chave.substr(chave.find("chave=") + 6, 64);
  std::int64_t past = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count() - 60;
  std::string expired = "/importar/tiff/envio?municipio=alfa&chave=" + chave + "&expira=" + std::to_string(past) +
                        "&assinatura=" + platform::files::sign(test::kSecret, tenant_id("alfa"), "tiff:" + chave, past);
  refused(*raw("PUT", expired, none, test::make_geotiff(), "image/tiff"), 403, "acesso_negado", "expirado");

  // Issuing a link is the import's permission.
  std::string q = "/importar/tiff/credentials?idProjeto=" + std::to_string(p) + "&nomeCamada=X";
  guarded(c, "GET", q, "", true);
  refused(*get("/importar/tiff/credentials?idProjeto=" + std::to_string(p), c.owner), 400, "campo_obrigatorio",
          "nomeCamada");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "/importacoes-tiff lists and reads the caller's tiff jobs; PUT renames the created layer and hides "
                  "a finished job") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto a = upload(test::import_path(p, "Declividade"), test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  std::int64_t job = int64_t(a->json()["idImportacao"]);
  std::string path = "/importacoes-tiff/" + std::to_string(job);
  auto done = finished(job, c.owner);
  std::int64_t layer = int64_t(done->json()["idCamada"]);

  auto list = get("/importacoes-tiff", c.owner);
  REQUIRE_MESSAGE(list->status == 200, list->body);
  CHECK(int64_t(list->json()["totalElements"]) == 1);
  CHECK(int64_t(list->json()["content"].at(0)["idImportacao"]) == job);
  CHECK(int64_t(get("/importacoes-tiff", c.reader)->json()["totalElements"]) == 0);  // another user's jobs

  // Another user's job, another tenant's, no session, a malformed id.
  refused(*get(path, c.stranger), 404, "nao_encontrado");
  refused(*get(path, c.beta), 404, "nao_encontrado");
  refused(*request("GET", path, {}), 401, "nao_autenticado");
  refused(*get("/importacoes-tiff/1;drop", c.owner), 400, "parametro_invalido", "id");
  refused(*put(path, R"({"nomeCamada":"X"})", c.stranger), 404, "nao_encontrado");

  auto renamed = put(path, R"~({"nomeCamada":"Declividade (%)"})~", c.owner);
  REQUIRE_MESSAGE(renamed->status == 200, renamed->body);
  CHECK(db("select nome from projeto.camadas where id = " + std::to_string(layer)) == "Declividade (%)");
  refused(*put(path, R"({})", c.owner), 400, "campo_obrigatorio", "nomeCamada");
  refused(*put(path, R"({"oculta":false})", c.owner), 400, "parametro_invalido", "oculta");
  refused(*put(path, R"({"nomeCamada":""})", c.owner), 400, "parametro_invalido", "nomeCamada");
  refused(*put(path, R"({"cor":1})", c.owner), 400, "campo_desconhecido", "cor");

  // A job that failed has no layer to rename.
  std::int64_t failed = id_of("insert into projeto.importacoes (tipo, estado, mensagem, projeto_id, criado_por) values "
                              "('tiff', 'falhou', 'GeoTIFF corrompido', " + std::to_string(p) + ", " +
                              std::to_string(c.owner.user_id) + ") returning id");
  refused(*put("/importacoes-tiff/" + std::to_string(failed), R"({"nomeCamada":"X"})", c.owner), 409,
          "transicao_invalida", "falhou");
  // A job of another type is not a tiff job.
  std::int64_t shp = id_of("insert into projeto.importacoes (tipo, estado, criado_por) values ('shp', 'concluida', " +
                           std::to_string(c.owner.user_id) + ") returning id");
  refused(*get("/importacoes-tiff/" + std::to_string(shp), c.owner), 404, "nao_encontrado");

  auto hidden = put(path, R"({"oculta":true})", c.owner);
  REQUIRE_MESSAGE(hidden->status == 200, hidden->body);
  CHECK(hidden->json()["oculta"].get_bool().value());
  CHECK(int64_t(get("/importacoes-tiff", c.owner)->json()["totalElements"]) == 1);  // the failed one is left
}

TEST_CASE_FIXTURE(RastersFixture,
                  "GET /valorPixel answers each band's value at a lon/lat point, no data as null, outside the raster "
                  "404") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto a = upload(test::import_path(p, "Relevo"), test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  auto done = finished(int64_t(a->json()["idImportacao"]), c.owner);
  std::int64_t layer = int64_t(done->json()["idCamada"]);
  std::string base = "/valorPixel/" + std::to_string(layer);
  auto at = [&](int col, int row) {
    auto [x, y] = test::cell_center(col, row);
    return base + "?x=" + test::number(x) + "&y=" + test::number(y);
  };

  auto v = get(at(2, 1), c.reader);  // leitura is enough
  REQUIRE_MESSAGE(v->status == 200, v->body);
  CHECK(int64_t(v->json()["coluna"]) == 2);
  CHECK(int64_t(v->json()["linha"]) == 1);
  CHECK(v->text("crs") == "EPSG:31983");
  CHECK(double(v->json()["valores"].at(0)["valor"]) == 12.0);
  CHECK(double(v->json()["valores"].at(1)["valor"]) == 24.0);
  CHECK(int64_t(v->json()["valores"].at(1)["banda"]) == 2);
  auto corner = get(at(3, 2), c.owner);
  REQUIRE(corner->status == 200);
  CHECK(double(corner->json()["valores"].at(0)["valor"]) == 23.0);
  auto nodata = get(at(0, 0), c.owner);
  REQUIRE(nodata->status == 200);
  CHECK(nodata->json()["valores"].at(0)["valor"].is_null());
  CHECK(nodata->json()["valores"].at(1)["valor"].is_null());

  refused(*get(base + "?x=-40&y=-10", c.owner), 404, "nao_encontrado", "fora do raster");
  refused(*get(base + "?x=abc&y=-10", c.owner), 400, "parametro_invalido", "x");
  refused(*get(base + "?x=-40&y=-100", c.owner), 400, "parametro_invalido", "y");
  refused(*get(base + "?x=-40", c.owner), 400, "campo_obrigatorio", "y");
  refused(*get("/valorPixel/1;drop?x=-40&y=-10", c.owner), 400, "parametro_invalido");
  // A vector layer has no pixels.
  std::int64_t vector = id_of("insert into projeto.camadas (projeto_id, nome, criado_por) values (" + std::to_string(p) +
                              ", 'lotes', 1) returning id");
  refused(*get("/valorPixel/" + std::to_string(vector) + "?x=-40&y=-10", c.owner), 409, "conflito", "tiff");
  guarded(c, "GET", at(2, 1), "", false);
}

namespace {

// A sparse GeoTIFF that declares cols × rows × bands pixels of `type` and holds none: a
// few hundred bytes of tile index, like the probe's 300 KB 100000 × 100000 file.
std::string sparse_geotiff(int cols, int rows, int bands, GDALDataType type) {
  GDALAllRegister();
  const std::string path = test::vsimem_path();
  const char* options[] = {"SPARSE_OK=TRUE", "TILED=YES", "COMPRESS=DEFLATE", "BIGTIFF=YES", nullptr};
  GDALDatasetH ds =
      GDALCreate(GDALGetDriverByName("GTiff"), path.c_str(), cols, rows, bands, type, const_cast<char**>(options));
  double gt[6] = {300000, 1, 0, 7400000, 0, -1};
  GDALSetGeoTransform(ds, gt);
  test::set_utm23(ds);
  GDALClose(ds);
  return test::take_vsimem(path);
}

}  // namespace

TEST_CASE_FIXTURE(RastersFixture, "GeoTIFFs declaring more than the limits are refused from their header, before a job") {
  Cast c = cast();
  std::int64_t p = project(c);
  const std::string before = db("select count(*) from projeto.importacoes");
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  // The probe's V4: 100000 × 100000, 10,000 megapixels in a tiny file.
  std::string huge = sparse_geotiff(100000, 100000, 1, GDT_Byte);
  REQUIRE(huge.size() < 4u << 20);
  refused(*upload(test::import_path(p, "Enorme"), huge, &c.owner), 413, "corpo_muito_grande",
          "a imagem declara 10000 megapixels; o limite é 400");
  // 20000 × 20000 × 64 bands of Float64 (within the sides and bands): 190 GB decoded.
  refused(*upload(test::import_path(p, "Bandas"), sparse_geotiff(20000, 20000, 64, GDT_Float64), &c.owner), 413,
          "corpo_muito_grande", "se decodifica em");
  // 19000 × 19000 × 1 byte in a few KB: 344 MB of pixels declared by a file that holds none.
  refused(*upload(test::import_path(p, "Vazio"), sparse_geotiff(19000, 19000, 1, GDT_Byte), &c.owner), 413,
          "corpo_muito_grande", "envie a imagem real");
  CHECK(peak_memory_mb() - start < 64);
  CHECK(db("select count(*) from projeto.importacoes") == before);
  CHECK(db("select count(*) from projeto.camadas") == "0");
}
