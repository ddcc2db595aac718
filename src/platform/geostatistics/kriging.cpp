#include "platform/geostatistics/kriging.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>

#include "cadastre/error.hpp"

namespace cadastre::platform::geostatistics {
namespace {

void init() {
  static std::once_flag once;
  std::call_once(once, [] {
    CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");  // no .aux.xml beside the layer's file
    GDALAllRegister();
  });
}

// GDAL reports through a per-thread handler: quiet it, and say what failed in Portuguese.
struct Quiet {
  Quiet() {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
  }
  ~Quiet() { CPLPopErrorHandler(); }
  [[noreturn]] static void fail(const std::string& what) {
    throw Error(errc::unprocessable, what + ": " + CPLGetLastErrorMsg(), "raster");
  }
};

struct GeometryDeleter {
  void operator()(OGRGeometryH g) const { OGR_G_DestroyGeometry(g); }
};
using GeometryPtr = std::unique_ptr<std::remove_pointer_t<OGRGeometryH>, GeometryDeleter>;

GeometryPtr from_wkt(const std::string& wkt) {
  OGRGeometryH g = nullptr;
  char* text = const_cast<char*>(wkt.c_str());
  if (OGR_G_CreateFromWkt(&text, nullptr, &g) != OGRERR_NONE || !g)
    throw Error(errc::invalid_argument, "idDominioGeografico: polígono ilegível", "idDominioGeografico");
  return GeometryPtr(g);
}

}  // namespace

KrigingResult krige_domain(std::span<const geostat::Sample> samples, const KrigingRequest& r) {
  double width = r.maxx - r.minx, height = r.maxy - r.miny;
  if (!(width > 0) || !(height > 0))
    throw Error(errc::invalid_argument, "idDominioGeografico: o polígono não tem área", "idDominioGeografico");
  double cell = r.cell.value_or(std::max(width, height) / 200.0);
  double cols = std::ceil(width / cell), rows = std::ceil(height / cell);
  if (cols * rows > static_cast<double>(kMaxCells))
    throw Error(errc::invalid_argument,
                "celula: a grade teria " + std::to_string(static_cast<long long>(cols * rows)) + " células (máximo " +
                    std::to_string(kMaxCells) + "); use células maiores",
                "celula");
  geostat::validate(r.model);

  geostat::GridSpec spec{r.minx, r.maxy, cell, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)};
  geostat::KrigingOptions options = r.options;
  options.nodata = kNoData;  // a cell out of every sample's reach is nodata, not an error
  options.threads = 2;       // the platform serves other requests meanwhile
  // The library's grid (k-d tree neighbourhood, threads) over the polygon's box; a log
  // model's cells back-transformed by ordinary lognormal kriging, exp(ŷ + σ²/2 − μ).
  KrigingResult out;
  out.grid = geostat::krige_grid(samples, r.model, spec, options);
  if (r.log) out.grid = geostat::lognormal_back_transform(out.grid);
  geostat::Grid& g = out.grid;

  // Cells whose centre is outside the domain become nodata.
  GeometryPtr domain = from_wkt(r.domain_wkt);
  OGRPreparedGeometryH prepared = OGRCreatePreparedGeometry(domain.get());
  std::unique_ptr<std::remove_pointer_t<OGRPreparedGeometryH>, void (*)(OGRPreparedGeometryH)> keep(
      prepared, OGRDestroyPreparedGeometry);
  GeometryPtr point(OGR_G_CreateGeometry(wkbPoint));
  double sum = 0, sum_var = 0;
  out.min = INFINITY;
  out.max = -INFINITY;
  for (std::size_t row = 0; row < g.rows; ++row) {
    for (std::size_t col = 0; col < g.cols; ++col) {
      std::size_t i = row * g.cols + col;
      OGR_G_SetPoint_2D(point.get(), 0, g.x_of(col), g.y_of(row));
      if (!OGRPreparedGeometryContains(prepared, point.get())) {
        g.values[i] = g.variances[i] = kNoData;
        g.neighbours[i] = 0;
        continue;
      }
      ++out.inside;
      if (g.neighbours[i] == 0) continue;
      ++out.kriged;
      sum += g.values[i];
      sum_var += g.variances[i];
      out.min = std::min(out.min, g.values[i]);
      out.max = std::max(out.max, g.values[i]);
    }
  }
  if (out.kriged == 0) {
    throw Error(errc::unprocessable,
                "nenhuma célula do domínio foi estimada: o domínio está longe das amostras ou é menor que uma célula",
                "idDominioGeografico");
  }
  out.mean = sum / static_cast<double>(out.kriged);
  out.mean_variance = sum_var / static_cast<double>(out.kriged);
  return out;
}

void write_geotiff(const std::string& path, const geostat::Grid& grid, int epsg) {
  init();
  Quiet quiet;
  GDALDriverH driver = GDALGetDriverByName("GTiff");
  char** create = CSLSetNameValue(nullptr, "COMPRESS", "DEFLATE");
  create = CSLSetNameValue(create, "TILED", "YES");
  GDALDatasetH ds = GDALCreate(driver, path.c_str(), static_cast<int>(grid.cols), static_cast<int>(grid.rows), 2,
                               GDT_Float64, create);
  CSLDestroy(create);
  if (!ds) Quiet::fail("falha ao criar o GeoTIFF");
  double transform[6] = {grid.origin_x, grid.cell_size, 0, grid.origin_y, 0, -grid.cell_size};
  GDALSetGeoTransform(ds, transform);
  OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
  OSRImportFromEPSG(srs, epsg);
  GDALSetSpatialRef(ds, srs);
  OSRDestroySpatialReference(srs);
  bool ok = true;
  const std::vector<double>* bands[2] = {&grid.values, &grid.variances};
  for (int b = 0; b < 2; ++b) {
    GDALRasterBandH band = GDALGetRasterBand(ds, b + 1);
    GDALSetRasterNoDataValue(band, kNoData);
    ok = ok && GDALRasterIO(band, GF_Write, 0, 0, static_cast<int>(grid.cols), static_cast<int>(grid.rows),
                            const_cast<double*>(bands[b]->data()), static_cast<int>(grid.cols),
                            static_cast<int>(grid.rows), GDT_Float64, 0, 0) == CE_None;
    GDALSetDescription(band, b == 0 ? "valor" : "variancia");
  }
  GDALClose(ds);
  if (!ok || CPLGetLastErrorType() >= CE_Failure) Quiet::fail("falha ao gravar o GeoTIFF");
}

std::string geotiff_bytes(const geostat::Grid& grid, int epsg) {
  static std::atomic<unsigned long> counter{0};
  std::string name = "/vsimem/krigagem-" + std::to_string(++counter) + ".tif";
  write_geotiff(name, grid, epsg);
  vsi_l_offset size = 0;
  GByte* data = VSIGetMemFileBuffer(name.c_str(), &size, TRUE);  // TRUE: we own it now
  std::string out(reinterpret_cast<char*>(data), static_cast<std::size_t>(size));
  CPLFree(data);
  return out;
}

std::vector<std::optional<double>> sample_raster(const std::string& path,
                                                 std::span<const std::pair<double, double>> lonlat) {
  init();
  Quiet quiet;
  const char* only_gtiff[] = {"GTiff", nullptr};
  GDALDatasetH ds = GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, only_gtiff, nullptr, nullptr);
  if (!ds) Quiet::fail("o arquivo da camada não é um GeoTIFF legível");
  std::unique_ptr<void, void (*)(void*)> close(ds, [](void* d) { GDALClose(static_cast<GDALDatasetH>(d)); });
  double t[6];
  OGRSpatialReferenceH target = GDALGetSpatialRef(ds);
  if (GDALGetGeoTransform(ds, t) != CE_None || !target || t[2] != 0 || t[4] != 0)
    throw Error(errc::unprocessable, "o GeoTIFF não tem georreferenciamento norte-acima", "raster");
  OGRSpatialReferenceH source = OSRNewSpatialReference(nullptr);
  OSRImportFromEPSG(source, 4674);
  OSRSetAxisMappingStrategy(source, OAMS_TRADITIONAL_GIS_ORDER);
  OGRSpatialReferenceH to = OSRClone(target);
  OSRSetAxisMappingStrategy(to, OAMS_TRADITIONAL_GIS_ORDER);
  OGRCoordinateTransformationH ct = OCTNewCoordinateTransformation(source, to);
  OSRDestroySpatialReference(source);
  OSRDestroySpatialReference(to);
  if (!ct) Quiet::fail("transformação de coordenadas indisponível");
  GDALRasterBandH band = GDALGetRasterBand(ds, 1);
  int has_nodata = 0;
  double nodata = GDALGetRasterNoDataValue(band, &has_nodata);
  int cols = GDALGetRasterXSize(ds), rows = GDALGetRasterYSize(ds);
  std::vector<std::optional<double>> out;
  out.reserve(lonlat.size());
  for (auto [lon, lat] : lonlat) {
    double x = lon, y = lat;
    std::optional<double> v;
    if (OCTTransform(ct, 1, &x, &y, nullptr)) {
      int c = static_cast<int>(std::floor((x - t[0]) / t[1]));
      int r = static_cast<int>(std::floor((y - t[3]) / t[5]));
      double pixel = 0;
      if (c >= 0 && r >= 0 && c < cols && r < rows &&
          GDALRasterIO(band, GF_Read, c, r, 1, 1, &pixel, 1, 1, GDT_Float64, 0, 0) == CE_None &&
          std::isfinite(pixel) && !(has_nodata && pixel == nodata))
        v = pixel;
    }
    out.push_back(v);
  }
  OCTDestroyCoordinateTransformation(ct);
  return out;
}

}  // namespace cadastre::platform::geostatistics
