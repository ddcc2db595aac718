#include "platform/rasters/tiff.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <gdal_utils.h>
#include <ogr_srs_api.h>

#include <cmath>
#include <filesystem>
#include <exception>
#include <memory>
#include <mutex>

#include "cadastre/error.hpp"
#include "platform/gdal.hpp"

namespace cadastre::platform::rasters {
namespace {

void init() {
  static std::once_flag once;
  std::call_once(once, [] {
    CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");  // no .aux.xml beside the stored files
    GDALAllRegister();
  });
}

using gdal::Dataset;
using gdal::Quiet;

struct SrsFree {
  void operator()(void* s) const { OSRDestroySpatialReference(s); }
};
using Srs = std::unique_ptr<void, SrsFree>;

Dataset open(const std::string& path) {
  const char* const drivers[] = {"GTiff", nullptr};
  return Dataset(GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, drivers, nullptr, nullptr));
}

std::string crs_name(GDALDatasetH ds) {
  OGRSpatialReferenceH srs = GDALGetSpatialRef(ds);
  if (!srs) return "";
  const char* auth = OSRGetAuthorityName(srs, nullptr);
  const char* code = OSRGetAuthorityCode(srs, nullptr);
  if (auth && code) return std::string(auth) + ":" + code;
  const char* name = OSRGetName(srs);
  return name ? name : "";
}

struct Args {
  char** list = nullptr;
  Args(std::initializer_list<const char*> items) {
    for (const char* s : items) list = CSLAddString(list, s);
  }
  ~Args() { CSLDestroy(list); }
  Args(const Args&) = delete;
  Args& operator=(const Args&) = delete;
};

struct Progress {
  const std::function<bool(double)>* fn;
  std::exception_ptr failure;
};

int progress_cb(double done, const char*, void* data) {
  auto* p = static_cast<Progress*>(data);
  try {
    return (*p->fn)(done) ? TRUE : FALSE;
  } catch (...) {  // never through GDAL's C frames: kept and rethrown after it returns
    p->failure = std::current_exception();
    return FALSE;
  }
}

}  // namespace

Info inspect(const std::string& path, const limits::RasterLimits& lim) {
  init();
  Quiet quiet;
  Dataset ds = open(path);
  if (!ds) throw Error(errc::invalid_argument, "o arquivo não é um GeoTIFF legível", "file");
  Info info{GDALGetRasterXSize(ds.get()), GDALGetRasterYSize(ds.get()), GDALGetRasterCount(ds.get()),
            crs_name(ds.get())};
  if (info.bands < 1) throw Error(errc::invalid_argument, "o GeoTIFF não tem bandas", "file");
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  limits::check_raster({info.width, info.height, info.bands,
                        GDALGetDataTypeSizeBytes(GDALGetRasterDataType(GDALGetRasterBand(ds.get(), 1))),
                        ec ? 0 : static_cast<std::uint64_t>(size)},
                       lim);
  if (!GDALGetSpatialRef(ds.get()))
    throw Error(errc::invalid_argument, "o GeoTIFF não tem sistema de coordenadas (CRS)", "file");
  double gt[6];
  if (GDALGetGeoTransform(ds.get(), gt) != CE_None || gt[1] == 0 || gt[5] == 0)
    throw Error(errc::invalid_argument, "o GeoTIFF não tem georreferência (geotransformação)", "file");
  return info;
}

void to_cog(const std::string& src, const std::string& dst, const std::function<bool(double)>& progress) {
  init();
  Quiet quiet;
  Dataset in = open(src);
  if (!in) throw Error(errc::unprocessable, "o arquivo não é um GeoTIFF legível");
  Args args{"-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BIGTIFF=IF_SAFER", "-co", "NUM_THREADS=1"};
  GDALTranslateOptions* opt = GDALTranslateOptionsNew(args.list, nullptr);
  Progress p{&progress, nullptr};
  GDALTranslateOptionsSetProgress(opt, progress_cb, &p);
  int usage = 0;
  Dataset out(GDALTranslate(dst.c_str(), in.get(), opt, &usage));
  GDALTranslateOptionsFree(opt);
  if (out) out.reset();  // closes (writes) the file
  // Warnings (a lossy overview, say) are not failures; a CE_Failure or a missing file is.
  std::string why = CPLGetLastErrorType() >= CE_Failure ? CPLGetLastErrorMsg() : "";
  if (p.failure) std::rethrow_exception(p.failure);
  if (usage || !why.empty() || !is_cog(dst)) {
    if (why.empty()) why = "o arquivo convertido não é um COG";
    throw Error(errc::unprocessable, "não foi possível converter o GeoTIFF: " + why);
  }
}

bool is_cog(const std::string& path) {
  init();
  Quiet quiet;
  Dataset ds = open(path);
  if (!ds) return false;
  const char* layout = GDALGetMetadataItem(ds.get(), "LAYOUT", "IMAGE_STRUCTURE");
  return layout && std::string(layout) == "COG";
}

Pixel pixel(const std::string& path, double lon, double lat) {
  init();
  Quiet quiet;
  Dataset ds = open(path);
  if (!ds) throw Error(errc::unprocessable, "o arquivo da camada não é um GeoTIFF legível");
  OGRSpatialReferenceH target = GDALGetSpatialRef(ds.get());
  double gt[6], inv[6];
  if (!target || GDALGetGeoTransform(ds.get(), gt) != CE_None || !GDALInvGeoTransform(gt, inv))
    throw Error(errc::unprocessable, "o raster da camada não tem georreferência");
  Srs source(OSRNewSpatialReference(nullptr));
  OSRImportFromEPSG(source.get(), 4674);
  OSRSetAxisMappingStrategy(source.get(), OAMS_TRADITIONAL_GIS_ORDER);
  Srs dest(OSRClone(target));
  OSRSetAxisMappingStrategy(dest.get(), OAMS_TRADITIONAL_GIS_ORDER);
  OGRCoordinateTransformationH ct = OCTNewCoordinateTransformation(source.get(), dest.get());
  if (!ct) throw Error(errc::unprocessable, "não há transformação de EPSG:4674 para o sistema do raster");
  Pixel out;
  out.x = lon;
  out.y = lat;
  int ok = OCTTransform(ct, 1, &out.x, &out.y, nullptr);
  OCTDestroyCoordinateTransformation(ct);
  out.crs = crs_name(ds.get());
  const double col = inv[0] + inv[1] * out.x + inv[2] * out.y;
  const double row = inv[3] + inv[4] * out.x + inv[5] * out.y;
  const int w = GDALGetRasterXSize(ds.get()), h = GDALGetRasterYSize(ds.get());
  if (!ok || !std::isfinite(col) || !std::isfinite(row) || col < 0 || row < 0 || col >= w || row >= h)
    throw Error(errc::not_found, "o ponto está fora do raster", "x");
  out.coluna = static_cast<int>(std::floor(col));
  out.linha = static_cast<int>(std::floor(row));
  for (int b = 1; b <= GDALGetRasterCount(ds.get()); ++b) {
    GDALRasterBandH band = GDALGetRasterBand(ds.get(), b);
    double v = 0;
    if (GDALRasterIO(band, GF_Read, out.coluna, out.linha, 1, 1, &v, 1, 1, GDT_Float64, 0, 0) != CE_None)
      throw Error(errc::unprocessable, std::string("não foi possível ler o raster: ") + CPLGetLastErrorMsg());
    int has_nodata = 0;
    double nodata = GDALGetRasterNoDataValue(band, &has_nodata);
    bool missing = !std::isfinite(v) || (has_nodata && (v == nodata || (std::isnan(nodata) && std::isnan(v))));
    // A mask band (an alpha band, a per-dataset mask) hides pixels too.
    int flags = GDALGetMaskFlags(band);
    if (!missing && !(flags & GMF_ALL_VALID) && !(flags & GMF_NODATA)) {
      unsigned char m = 255;
      if (GDALRasterIO(GDALGetMaskBand(band), GF_Read, out.coluna, out.linha, 1, 1, &m, 1, 1, GDT_Byte, 0, 0) == CE_None &&
          m == 0)
        missing = true;
    }
    out.valores.push_back(missing ? std::nullopt : std::optional<double>(v));
  }
  return out;
}

}  // namespace cadastre::platform::rasters
