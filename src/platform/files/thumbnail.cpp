#include "platform/files/thumbnail.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal.h>
#include <gdal_utils.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "cadastre/error.hpp"
#include "platform/gdal.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::files {
namespace {

// Whether the bytes are a PNG whose IHDR says Adam7 interlacing (byte 28 of the file).
bool interlaced_png(std::string_view b) {
  return b.size() > 28 && b.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0 && b.compare(12, 4, "IHDR") == 0 && b[28] == 1;
}

void init() {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
}

using gdal::Dataset;
using gdal::Quiet;

// A file in GDAL's memory filesystem, unlinked with the object.
struct MemFile {
  std::string name;
  explicit MemFile(std::string ext) : name("/vsimem/miniatura-" + store::random_token().substr(0, 24) + ext) {}
  ~MemFile() { VSIUnlink(name.c_str()); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
};

struct Args {
  char** list = nullptr;
  ~Args() { CSLDestroy(list); }
  void add(const std::string& s) { list = CSLAddString(list, s.c_str()); }
};

[[noreturn]] void unreadable() { throw Error(errc::unprocessable, "não foi possível ler a imagem para a miniatura"); }

}  // namespace

std::string thumbnail(std::string_view image, int side, const limits::RasterLimits& lim) {
  init();
  Quiet quiet;
  MemFile in(""), out(".png");
  // The bytes are not copied: GDAL reads the caller's buffer (bTakeOwnership = FALSE).
  VSILFILE* f = VSIFileFromMemBuffer(in.name.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(image.data())),
                                     image.size(), FALSE);
  if (!f) unreadable();
  VSIFCloseL(f);
  const char* const drivers[] = {"PNG", "JPEG", "GIF", "WEBP", nullptr};
  Dataset src(GDALOpenEx(in.name.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY, drivers, nullptr, nullptr));
  if (!src) unreadable();
  int w = GDALGetRasterXSize(src.get()), h = GDALGetRasterYSize(src.get());
  int bands = GDALGetRasterCount(src.get());
  if (w < 1 || h < 1 || bands < 1) unreadable();
  // A few KB of PNG can claim a huge canvas: decoding it would hold a worker for long.
  limits::RasterLimits l = lim;
  if (interlaced_png(image)) l.max_pixels /= 4, l.max_decoded /= 4;
  limits::check_raster({w, h, bands, 1, image.size()}, l);
  double scale = std::min(1.0, static_cast<double>(side) / std::max(w, h));
  int tw = std::max(1, static_cast<int>(w * scale + 0.5)), th = std::max(1, static_cast<int>(h * scale + 0.5));

  Args a;
  for (const char* s : {"-of", "PNG", "-outsize"}) a.add(s);
  a.add(std::to_string(tw));
  a.add(std::to_string(th));
  // A paletted image (PNG, GIF) is expanded so that resampling averages colours, not indices.
  if (GDALGetRasterColorTable(GDALGetRasterBand(src.get(), 1))) {
    a.add("-expand");
    a.add("rgba");
  }
  a.add("-r");
  a.add("bilinear");
  GDALTranslateOptions* opt = GDALTranslateOptionsNew(a.list, nullptr);
  int usage = 0;
  Dataset dst(GDALTranslate(out.name.c_str(), src.get(), opt, &usage));
  GDALTranslateOptionsFree(opt);
  if (!dst) unreadable();
  dst.reset();  // flushes the PNG
  vsi_l_offset length = 0;
  GByte* data = VSIGetMemFileBuffer(out.name.c_str(), &length, FALSE);
  if (!data || length == 0) unreadable();
  return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(length));
}

}  // namespace cadastre::platform::files
