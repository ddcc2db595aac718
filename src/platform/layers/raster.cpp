#include "platform/layers/raster.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <gdal_alg.h>
#include <gdal_utils.h>

#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <vector>

#include "cadastre/error.hpp"
#include "platform/gdal.hpp"
#include "cadastre/palette.hpp"

namespace cadastre::platform::layers::raster {
namespace {

void init() {
  static std::once_flag once;
  std::call_once(once, [] {
    // No .aux.xml written beside a layer's file. (Not listing the folder on open is asked
    // per open, below: as a process-wide option it would also hide the .prj and .dbf of the
    // shapefiles the imports open.)
    CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");
    GDALAllRegister();
  });
}

using gdal::Dataset;
using gdal::Quiet;

Dataset open(const std::string& path) {
  const char* const drivers[] = {"GTiff", nullptr};
  // An empty list of sibling files: GDAL does not list the layer's folder on open.
  const char* const siblings[] = {nullptr};
  Dataset ds(GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, drivers, nullptr, siblings));
  if (!ds) throw Error(errc::unprocessable, "o arquivo da camada não é um GeoTIFF legível");
  return ds;
}

bool georeferenced(GDALDatasetH ds) {
  double gt[6];
  const char* wkt = GDALGetProjectionRef(ds);
  return wkt && *wkt && GDALGetGeoTransform(ds, gt) == CE_None;
}

// A GDAL utility's argument list (a NULL-terminated char* array, freed with it).
struct Args {
  char** list = nullptr;
  Args(std::initializer_list<std::string> items) {
    for (const std::string& s : items) list = CSLAddString(list, s.c_str());
  }
  ~Args() { CSLDestroy(list); }
  Args(const Args&) = delete;
  Args& operator=(const Args&) = delete;
};

std::string number(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

// The window: band `band` of `src` warped to EPSG:4674 over the bbox, as Float32 with an
// alpha band (0 where there is no data).
Dataset warp(GDALDatasetH src, const Style& st) {
  Args one{"-of", "VRT", "-b", std::to_string(st.band)};
  GDALTranslateOptions* topt = GDALTranslateOptionsNew(one.list, nullptr);
  int usage = 0;
  Dataset band(GDALTranslate("", src, topt, &usage));
  GDALTranslateOptionsFree(topt);
  if (!band) throw Error(errc::unprocessable, std::string("não foi possível ler a banda: ") + CPLGetLastErrorMsg());
  Args w{"-of", "MEM", "-t_srs", "EPSG:4674", "-te", number(st.bbox.minx), number(st.bbox.miny),
         number(st.bbox.maxx), number(st.bbox.maxy), "-ts", std::to_string(st.width), std::to_string(st.height),
         "-r", "near", "-ot", "Float32", "-dstalpha"};
  GDALWarpAppOptions* wopt = GDALWarpAppOptionsNew(w.list, nullptr);
  GDALDatasetH in = band.get();
  Dataset out(GDALWarp("", nullptr, 1, &in, wopt, &usage));
  GDALWarpAppOptionsFree(wopt);
  if (!out) throw Error(errc::unprocessable, std::string("não foi possível reprojetar o raster: ") + CPLGetLastErrorMsg());
  return out;
}

std::vector<float> read_band(GDALDatasetH ds, int band, int w, int h) {
  std::vector<float> v(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  if (GDALRasterIO(GDALGetRasterBand(ds, band), GF_Read, 0, 0, w, h, v.data(), w, h, GDT_Float32, 0, 0) != CE_None)
    throw Error(errc::unprocessable, std::string("não foi possível ler o raster: ") + CPLGetLastErrorMsg());
  return v;
}

// The PNG encoding of four byte planes.
std::string encode_png(const std::array<std::vector<std::uint8_t>, 4>& planes, int w, int h) {
  Dataset mem(GDALCreate(GDALGetDriverByName("MEM"), "", w, h, 4, GDT_Byte, nullptr));
  if (!mem) throw std::runtime_error("GDAL MEM driver unavailable");
  for (int b = 0; b < 4; ++b) {
    auto* data = const_cast<std::uint8_t*>(planes[static_cast<std::size_t>(b)].data());
    if (GDALRasterIO(GDALGetRasterBand(mem.get(), b + 1), GF_Write, 0, 0, w, h, data, w, h, GDT_Byte, 0, 0) != CE_None)
      throw std::runtime_error(CPLGetLastErrorMsg());
  }
  static std::atomic<unsigned long> counter{0};
  std::string name = "/vsimem/cadastre-raster-" + std::to_string(++counter) + ".png";
  Dataset png(GDALCreateCopy(GDALGetDriverByName("PNG"), name.c_str(), mem.get(), FALSE, nullptr, nullptr, nullptr));
  if (!png) throw std::runtime_error(CPLGetLastErrorMsg());
  png.reset();  // flushes the file
  vsi_l_offset size = 0;
  GByte* bytes = VSIGetMemFileBuffer(name.c_str(), &size, TRUE);  // takes it and unlinks it
  std::string out(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  CPLFree(bytes);
  return out;
}

}  // namespace

std::optional<Box> extent(const std::string& path) {
  init();
  Quiet quiet;
  Dataset ds = open(path);
  if (!georeferenced(ds.get())) return std::nullopt;
  Args opts{"DST_SRS=EPSG:4674"};
  void* t = GDALCreateGenImgProjTransformer2(ds.get(), nullptr, opts.list);
  if (!t) return std::nullopt;
  double gt[6], box[4];
  int px = 0, lines = 0;
  CPLErr err = GDALSuggestedWarpOutput2(ds.get(), GDALGenImgProjTransform, t, gt, &px, &lines, box, 0);
  GDALDestroyGenImgProjTransformer(t);
  if (err != CE_None) return std::nullopt;
  return Box{box[0], box[1], box[2], box[3]};
}

std::string render_png(const std::string& path, const Style& st) {
  init();
  Quiet quiet;
  Dataset src = open(path);
  int bands = GDALGetRasterCount(src.get());
  if (st.band < 1 || st.band > bands)
    throw Error(errc::invalid_argument, "banda deve ser de 1 a " + std::to_string(bands) + " neste raster", "banda");
  if (!georeferenced(src.get()))
    throw Error(errc::unprocessable, "o raster da camada não tem georreferência (sistema de coordenadas)");
  double lo = st.min.value_or(0), hi = st.max.value_or(0);
  if (!st.min || !st.max) {
    double mm[2] = {0, 0};
    if (GDALComputeRasterMinMax(GDALGetRasterBand(src.get(), st.band), TRUE, mm) == CE_None) {
      if (!st.min) lo = mm[0];
      if (!st.max) hi = mm[1];
    }
  }
  Dataset win = warp(src.get(), st);
  std::vector<float> values = read_band(win.get(), 1, st.width, st.height);
  std::vector<float> alpha = read_band(win.get(), 2, st.width, st.height);

  // 256 colours of the ramp (or one per class), looked up per pixel.
  std::array<palette::Rgb, 256> lut{};
  for (std::size_t i = 0; i < lut.size(); ++i) lut[i] = palette::ramp(st.ramp, static_cast<double>(i) / 255.0);
  const double span = hi - lo;
  const auto opaque = static_cast<std::uint8_t>(std::lround(255.0 * st.opacity));
  std::array<std::vector<std::uint8_t>, 4> planes;
  for (auto& p : planes) p.assign(values.size(), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    double v = values[i];
    if (!(alpha[i] > 0) || !std::isfinite(v)) continue;  // no data: transparent
    double t = span > 0 ? (v - lo) / span : 0.0;
    t = std::fmin(1.0, std::fmax(0.0, t));
    if (st.classes >= 2) {
      double k = std::fmin(std::floor(t * st.classes), st.classes - 1);
      t = k / (st.classes - 1);
    }
    const palette::Rgb& c = lut[static_cast<std::size_t>(std::lround(t * 255.0))];
    planes[0][i] = c[0];
    planes[1][i] = c[1];
    planes[2][i] = c[2];
    planes[3][i] = opaque;
  }
  return encode_png(planes, st.width, st.height);
}

}  // namespace cadastre::platform::layers::raster
