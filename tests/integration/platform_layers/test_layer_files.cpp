// A layer's files in the tenant's file store: GET /camadas/arquivos/:id lists them (size,
// sha256, type); tiff, dxf and wms layers' extents and deletes (the row and its files go
// together, and a failed deletion leaves both); GET /estilizarRaster/:id colours a window
// of a GeoTIFF (written here with GDAL) into a PNG (read back with GDAL).
#include <cpl_conv.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <ogr_srs_api.h>

#include <fstream>

#include "layers_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::LayersFixture;
using test::numbers;
using test::refused;
namespace fs = std::filesystem;

namespace {

fs::path tenant_dir() { return fs::path(test::files_root()) / "alfa"; }

void write_file(const fs::path& p, const std::string& content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

// A 10 × 10 Float32 GeoTIFF in SIRGAS 2000 over lon -48..-47.99, lat -27..-26.99: the pixel
// of row r, column c holds r * 10 + c, except row 0, column 9, which is no data.
void write_geotiff(const fs::path& p) {
  GDALAllRegister();
  fs::create_directories(p.parent_path());
  GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), p.c_str(), 10, 10, 1, GDT_Float32, nullptr);
  REQUIRE(ds);
  double gt[6] = {-48.0, 0.001, 0, -26.99, 0, -0.001};
  GDALSetGeoTransform(ds, gt);
  OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
  OSRImportFromEPSG(srs, 4674);
  char* wkt = nullptr;
  OSRExportToWkt(srs, &wkt);
  GDALSetProjection(ds, wkt);
  CPLFree(wkt);
  OSRDestroySpatialReference(srs);
  std::vector<float> v(100);
  for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  v[9] = -9999;
  GDALRasterBandH band = GDALGetRasterBand(ds, 1);
  GDALSetRasterNoDataValue(band, -9999);
  REQUIRE(GDALRasterIO(band, GF_Write, 0, 0, 10, 10, v.data(), 10, 10, GDT_Float32, 0, 0) == CE_None);
  GDALClose(ds);
}

// A PNG answer read back: its size and the RGBA of each pixel.
struct Png {
  int width = 0, height = 0;
  std::vector<std::vector<std::uint8_t>> bands;
  std::array<int, 4> at(int x, int y) const {
    std::size_t i = static_cast<std::size_t>(y * width + x);
    return {bands[0][i], bands[1][i], bands[2][i], bands[3][i]};
  }
};

Png read_png(const std::string& bytes) {
  GDALAllRegister();
  static int n = 0;
  std::string name = "/vsimem/resposta-" + std::to_string(++n) + ".png";
  VSILFILE* f = VSIFileFromMemBuffer(name.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(bytes.data())),
                                     bytes.size(), FALSE);
  VSIFCloseL(f);
  GDALDatasetH ds = GDALOpen(name.c_str(), GA_ReadOnly);
  REQUIRE(ds);
  CHECK(std::string(GDALGetDriverShortName(GDALGetDatasetDriver(ds))) == "PNG");
  Png png;
  png.width = GDALGetRasterXSize(ds);
  png.height = GDALGetRasterYSize(ds);
  REQUIRE(GDALGetRasterCount(ds) == 4);
  for (int b = 1; b <= 4; ++b) {
    std::vector<std::uint8_t> v(static_cast<std::size_t>(png.width * png.height));
    REQUIRE(GDALRasterIO(GDALGetRasterBand(ds, b), GF_Read, 0, 0, png.width, png.height, v.data(), png.width,
                         png.height, GDT_Byte, 0, 0) == CE_None);
    png.bands.push_back(std::move(v));
  }
  GDALClose(ds);
  VSIUnlink(name.c_str());
  return png;
}

}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a layer's files are listed with size, sha256 and type, its main file marked") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t vetor = layer(c.owner, p, "Lotes");

  auto none = get("/camadas/arquivos/" + std::to_string(vetor), c.reader);
  REQUIRE_MESSAGE(none->status == 200, none->body);
  CHECK(none->json()["arquivos"].get_array().size() == 0);

  fs::path dir = tenant_dir() / "camadas" / std::to_string(vetor);
  write_file(dir / "memorial.pdf", "abc");
  write_file(dir / "fotos" / "frente.JPG", "");
  // A link planted in the folder is not followed: nothing outside the store is read.
  fs::create_symlink("/etc/passwd", dir / "senhas.txt");
  auto listed = get("/camadas/arquivos/" + std::to_string(vetor), c.reader);
  REQUIRE_MESSAGE(listed->status == 200, listed->body);
  simdjson::dom::element files = listed->json()["arquivos"];
  CHECK(test::ids(files, "caminho") == "camadas/" + std::to_string(vetor) + "/fotos/frente.JPG,camadas/" + std::to_string(vetor) + "/memorial.pdf");
  CHECK(std::string_view(files.at(1)["sha256"]) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(int64_t(files.at(1)["tamanho"]) == 3);
  CHECK(std::string_view(files.at(1)["tipo"]) == "application/pdf");
  CHECK(std::string_view(files.at(0)["tipo"]) == "image/jpeg");
  CHECK(std::string_view(files.at(0)["sha256"]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(bool(files.at(1)["principal"]) == false);

  // A raster layer whose file lives in an import's folder, plus a legend in its own.
  std::int64_t tiff = kind_layer(p, "tiff", "'importacoes/7/mde.tif'");
  write_geotiff(tenant_dir() / "importacoes" / "7" / "mde.tif");
  write_file(tenant_dir() / "camadas" / std::to_string(tiff) / "legenda.png", "png");
  auto raster_files = get("/camadas/arquivos/" + std::to_string(tiff), c.reader);
  REQUIRE_MESSAGE(raster_files->status == 200, raster_files->body);
  CHECK(test::ids(raster_files->json()["arquivos"], "nome") == "legenda.png,mde.tif");
  CHECK(bool(raster_files->json()["arquivos"].at(1)["principal"]) == true);
  CHECK(std::string_view(raster_files->json()["arquivos"].at(1)["tipo"]) == "image/tiff");

  // A record whose path would climb out of the tenant's store is refused, not followed.
  std::int64_t broken = kind_layer(p, "dxf", "'../beta/segredo.dxf'");
  refused(*get("/camadas/arquivos/" + std::to_string(broken), c.owner), 409, "conflito", "caminho");

  guarded(c, "GET", "/camadas/arquivos/" + std::to_string(vetor), "", false);
  refused(*get("/camadas/arquivos/1;drop", c.owner), 400, "parametro_invalido", "id");
}

TEST_CASE_FIXTURE(LayersFixture, "tiff, dxf and wms layers: extents by kind, and deletes that take the files along") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t vetor = layer(c.owner, p, "Lotes");
  std::int64_t tiff = kind_layer(p, "tiff", "'importacoes/1/mde.tif'");
  write_geotiff(tenant_dir() / "importacoes" / "1" / "mde.tif");
  write_file(tenant_dir() / "camadas" / std::to_string(tiff) / "legenda.png", "png");
  std::int64_t dxf = kind_layer(p, "dxf", "'camadas/dxf/planta.dxf'", "st_makeenvelope(-48.1, -27.1, -48, -27, 4674)");
  write_file(tenant_dir() / "camadas" / "dxf" / "planta.dxf", "0\nSECTION\n");
  std::int64_t wms = id_of("insert into projeto.camadas (projeto_id, nome, tipo, url, camadas_wms, criado_por) values (" +
                           std::to_string(p) + ", 'ortofoto', 'wms', 'https://wms.exemplo.gov.br/wms', 'orto2020', 1) returning id");

  // Extents: a tiff without a recorded extent is measured from its file.
  auto tiff_extent = get("/camadas/tiff/" + std::to_string(tiff) + "/extent", c.reader);
  REQUIRE_MESSAGE(tiff_extent->status == 200, tiff_extent->body);
  CHECK(numbers(tiff_extent->json()["bbox"]) == "-48,-27,-47.99,-26.99");
  CHECK(numbers(get("/camadas/" + std::to_string(tiff) + "/extent", c.reader)->json()["bbox"]) == "-48,-27,-47.99,-26.99");
  auto dxf_extent = get("/camadas/dxf/" + std::to_string(dxf) + "/extent", c.reader);
  REQUIRE_MESSAGE(dxf_extent->status == 200, dxf_extent->body);
  CHECK(numbers(dxf_extent->json()["bbox"]) == "-48.1,-27.1,-48,-27");
  refused(*get("/camadas/tiff/" + std::to_string(dxf) + "/extent", c.reader), 409, "conflito", "tipo dxf");
  refused(*get("/camadas/dxf/" + std::to_string(vetor) + "/extent", c.reader), 409, "conflito", "tipo vetor");
  guarded(c, "GET", "/camadas/tiff/" + std::to_string(tiff) + "/extent", "", false);
  guarded(c, "GET", "/camadas/dxf/" + std::to_string(dxf) + "/extent", "", false);
  refused(*get("/camadas/tiff/1;drop/extent", c.owner), 400, "parametro_invalido", "id");

  // Deletes by kind: another kind is refused and nothing moves.
  refused(*del("/camadas/dxf/" + std::to_string(tiff), c.owner), 409, "conflito", "tipo tiff");
  refused(*del("/camadas/wms/" + std::to_string(vetor), c.owner), 409, "conflito", "tipo vetor");
  CHECK(fs::exists(tenant_dir() / "importacoes" / "1" / "mde.tif"));
  for (const std::string kind : {"tiff", "dxf", "wms"}) {
    std::int64_t id = kind == "tiff" ? tiff : kind == "dxf" ? dxf : wms;
    refused(*del("/camadas/" + kind + "/" + std::to_string(id), c.editor), 403, "acesso_negado");
    guarded(c, "DELETE", "/camadas/" + kind + "/" + std::to_string(id), "", true);
    refused(*del("/camadas/" + kind + "/1;drop", c.owner), 400, "parametro_invalido", "id");
  }

  // A deletion that fails in the database leaves the row and puts the files back.
  db("create function projeto.recusa_exclusao() returns trigger language plpgsql as "
     "$$ begin raise exception 'exclusão recusada'; end $$");
  db("create trigger recusa before delete on projeto.camadas for each row when (old.id = " + std::to_string(tiff) +
     ") execute function projeto.recusa_exclusao()");
  CHECK(del("/camadas/tiff/" + std::to_string(tiff), c.owner)->status == 500);
  CHECK(db("select count(*) from projeto.camadas where id = " + std::to_string(tiff)) == "1");
  CHECK(fs::exists(tenant_dir() / "importacoes" / "1" / "mde.tif"));
  CHECK(fs::exists(tenant_dir() / "camadas" / std::to_string(tiff) / "legenda.png"));
  CHECK(fs::is_empty(tenant_dir() / ".lixeira"));
  db("drop trigger recusa on projeto.camadas");

  // Row and files go together.
  auto gone = del("/camadas/tiff/" + std::to_string(tiff), c.owner);
  CHECK_MESSAGE(gone->status == 204, gone->body);
  CHECK(db("select count(*) from projeto.camadas where id = " + std::to_string(tiff)) == "0");
  CHECK_FALSE(fs::exists(tenant_dir() / "importacoes" / "1" / "mde.tif"));
  CHECK_FALSE(fs::exists(tenant_dir() / "camadas" / std::to_string(tiff)));
  CHECK(fs::is_empty(tenant_dir() / ".lixeira"));
  CHECK(del("/camadas/dxf/" + std::to_string(dxf), c.owner)->status == 204);
  CHECK_FALSE(fs::exists(tenant_dir() / "camadas" / "dxf" / "planta.dxf"));
  CHECK(del("/camadas/wms/" + std::to_string(wms), c.owner)->status == 204);
  CHECK(db("select count(*) from projeto.camadas where tipo <> 'vetor'") == "0");
  refused(*del("/camadas/wms/" + std::to_string(wms), c.owner), 404, "nao_encontrado");

  // DELETE /camadas/:id takes a vector layer's folder too.
  write_file(tenant_dir() / "camadas" / std::to_string(vetor) / "memorial.pdf", "abc");
  CHECK(del("/camadas/" + std::to_string(vetor), c.owner)->status == 204);
  CHECK_FALSE(fs::exists(tenant_dir() / "camadas" / std::to_string(vetor)));
}

TEST_CASE_FIXTURE(LayersFixture, "estilizarRaster colours a GeoTIFF window by ramp, classes and opacity into a PNG") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t tiff = kind_layer(p, "tiff", "null");
  db("update projeto.camadas set arquivo = 'camadas/" + std::to_string(tiff) + "/mde.tif' where id = " + std::to_string(tiff));
  write_geotiff(tenant_dir() / "camadas" / std::to_string(tiff) / "mde.tif");
  const std::string base = "/estilizarRaster/" + std::to_string(tiff) + "?bbox=-48,-27,-47.99,-26.99";

  // One output pixel per stored pixel: grey from black (0) to white (99).
  auto grey = get(base + "&width=10&height=10&ramp=cinza", c.reader);
  REQUIRE_MESSAGE(grey->status == 200, grey->body);
  CHECK(grey->content_type == "image/png");
  Png png = read_png(grey->body);
  CHECK(png.width == 10);
  CHECK(png.height == 10);
  CHECK(png.at(0, 0) == std::array<int, 4>{0, 0, 0, 255});
  CHECK(png.at(9, 9) == std::array<int, 4>{255, 255, 255, 255});
  CHECK(png.at(9, 0)[3] == 0);  // no data: transparent
  // Rendering set no process-wide GDAL option that would hide a shapefile's .prj and .dbf
  // from the imports running in the same process.
  CHECK(CPLGetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", nullptr) == nullptr);
  int mid = png.at(0, 5)[0];    // 50 of 0..99
  CHECK(mid >= 128);
  CHECK(mid <= 130);

  // Two classes, half opacity, another ramp and size.
  auto classes = get(base + "&width=20&height=20&ramp=viridis&classes=2&opacity=0.5", c.reader);
  REQUIRE_MESSAGE(classes->status == 200, classes->body);
  Png two = read_png(classes->body);
  CHECK(two.width == 20);
  CHECK(two.height == 20);
  CHECK(two.at(0, 0) == std::array<int, 4>{68, 1, 84, 128});        // viridis' start
  CHECK(two.at(19, 19) == std::array<int, 4>{253, 231, 37, 128});   // and its end
  CHECK(two.at(0, 8) == std::array<int, 4>{68, 1, 84, 128});        // 40: lower class
  CHECK(two.at(0, 12) == std::array<int, 4>{253, 231, 37, 128});    // 60: upper class
  // min/max place the ramp's ends.
  Png clipped = read_png(get(base + "&width=10&height=10&min=50&max=60", c.reader)->body);
  CHECK(clipped.at(0, 0) == std::array<int, 4>{0, 0, 0, 255});
  CHECK(clipped.at(0, 7) == std::array<int, 4>{255, 255, 255, 255});
  // A window beside the raster is all transparent.
  Png outside = read_png(get("/estilizarRaster/" + std::to_string(tiff) + "?bbox=-50,-30,-49,-29&width=4&height=4", c.reader)->body);
  CHECK(outside.at(2, 2)[3] == 0);

  // Bad requests, each named.
  refused(*get("/estilizarRaster/" + std::to_string(tiff), c.reader), 400, "campo_obrigatorio", "bbox");
  refused(*get("/estilizarRaster/" + std::to_string(tiff) + "?bbox=1,2,3", c.reader), 400, "parametro_invalido", "bbox");
  refused(*get("/estilizarRaster/" + std::to_string(tiff) + "?bbox=-47,-27,-48,-26", c.reader), 400, "parametro_invalido", "bbox");
  refused(*get("/estilizarRaster/" + std::to_string(tiff) + "?bbox=-48,-27,-47,x", c.reader), 400, "parametro_invalido", "bbox");
  refused(*get(base + "&width=4097", c.reader), 400, "parametro_invalido", "width");
  refused(*get(base + "&height=0", c.reader), 400, "parametro_invalido", "height");
  refused(*get(base + "&ramp=rosa", c.reader), 400, "parametro_invalido", "ramp");
  refused(*get(base + "&classes=1", c.reader), 400, "parametro_invalido", "classes");
  refused(*get(base + "&opacity=2", c.reader), 400, "parametro_invalido", "opacity");
  refused(*get(base + "&banda=2", c.reader), 400, "parametro_invalido", "banda");
  refused(*get(base + "&min=5&max=1", c.reader), 400, "parametro_invalido", "min");

  // Only tiff layers, with their file.
  std::int64_t vetor = layer(c.owner, p, "Lotes");
  refused(*get("/estilizarRaster/" + std::to_string(vetor) + "?bbox=-48,-27,-47.99,-26.99", c.reader), 409, "conflito", "tipo vetor");
  std::int64_t lost = kind_layer(p, "tiff", "'camadas/sumiu.tif'");
  refused(*get("/estilizarRaster/" + std::to_string(lost) + "?bbox=-48,-27,-47.99,-26.99", c.reader), 409, "conflito", "armazenamento");
  std::int64_t junk = kind_layer(p, "tiff", "'camadas/lixo.tif'");
  write_file(tenant_dir() / "camadas" / "lixo.tif", "not a tiff");
  refused(*get("/estilizarRaster/" + std::to_string(junk) + "?bbox=-48,-27,-47.99,-26.99", c.reader), 422, "entidade_improcessavel");

  guarded(c, "GET", base, "", false);
  refused(*get("/estilizarRaster/1;drop?bbox=-48,-27,-47.99,-26.99", c.owner), 400, "parametro_invalido", "id");
}
