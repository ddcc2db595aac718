// GeoJSON conversions: see convert.hpp.
#include "platform/imports/convert.hpp"

#include <cpl_conv.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal_priv.h>
#include <gdal_utils.h>

#include <memory>

#include "cadastre/error.hpp"
#include "platform/imports/pvg.hpp"
#include "platform/imports/source.hpp"

namespace cadastre::platform::imports {
namespace {

struct Output {
  const char* driver;
  const char* ext;
  const char* content_type;
};

Output format_of(const std::string& t) {
  if (t == "shp") return {"ESRI Shapefile", "zip", "application/zip"};
  if (t == "kml") return {"KML", "kml", "application/vnd.google-earth.kml+xml"};
  if (t == "gpkg") return {"GPKG", "gpkg", "application/geopackage+sqlite3"};
  if (t == "dxf") return {"DXF", "dxf", "image/vnd.dxf"};
  return {"CSV", "csv", "text/csv; charset=utf-8"};
}

std::string read_mem(const std::string& path) {
  vsi_l_offset size = 0;
  GByte* data = VSIGetMemFileBuffer(path.c_str(), &size, FALSE);
  if (!data) throw Error(errc::internal, "conversão sem resultado");
  return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
}

// Zips the files GDAL wrote in `dir` (a shapefile's .shp, .shx, .dbf, .prj, .cpg).
std::string zip_dir(const std::string& dir) {
  const std::string zip = dir + ".zip";
  void* h = CPLCreateZip(zip.c_str(), nullptr);
  if (!h) throw Error(errc::internal, "zip não criado");
  CPLStringList files(VSIReadDir(dir.c_str()));
  for (int i = 0; i < files.size(); ++i) {
    std::string name = files[i];
    if (name == "." || name == "..") continue;
    std::string bytes = read_mem(dir + "/" + name);
    CPLCreateFileInZip(h, name.c_str(), nullptr);
    CPLWriteFileInZip(h, bytes.data(), static_cast<int>(bytes.size()));
    CPLCloseFileInZip(h);
  }
  CPLCloseZip(h);
  return read_mem(zip);
}

struct Scratch {
  std::string dir;
  ~Scratch() { VSIRmdirRecursive(dir.c_str()); }
};

}  // namespace

Converted convert_geojson(std::string_view geojson, const std::string& target, const std::string& municipio) {
  if (target == "pvg") return {export_pvg(geojson, municipio), "application/geo+json", "pvg.geojson"};
  check_geojson_vertices(geojson, "corpo");  // before GDAL's GeoJSON driver holds it all
  init_gdal();
  QuietGdal quiet;
  Scratch scratch{scratch_dir("convert")};
  VSIMkdir(scratch.dir.c_str(), 0755);  // the CSV driver checks that the target's folder exists
  const std::string in = scratch.dir + "/in.geojson";
  std::string body(geojson);
  VSIFCloseL(VSIFileFromMemBuffer(in.c_str(), reinterpret_cast<GByte*>(body.data()), body.size(), FALSE));
  const char* drivers[] = {"GeoJSON", nullptr};
  GDALDatasetH src = GDALOpenEx(in.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY, drivers, nullptr, nullptr);
  if (!src) throw Error(errc::invalid_argument, "o corpo não é um GeoJSON legível", "corpo");
  std::unique_ptr<void, void (*)(void*)> src_guard(src, [](void* d) { GDALClose(d); });

  Output f = format_of(target);
  CPLStringList argv;
  argv.AddString("-f"), argv.AddString(f.driver);
  argv.AddString("-nln"), argv.AddString("camada");
  if (target == "shp") {
    argv.AddString("-lco"), argv.AddString("ENCODING=UTF-8");  // writes the .cpg
  } else if (target == "csv") {
    argv.AddString("-lco"), argv.AddString("GEOMETRY=AS_WKT");
  }
  std::unique_ptr<GDALVectorTranslateOptions, void (*)(GDALVectorTranslateOptions*)> options(
      GDALVectorTranslateOptionsNew(argv.List(), nullptr), GDALVectorTranslateOptionsFree);
  const std::string out = scratch.dir + (target == "shp" ? "/shp" : std::string("/out.") + f.ext);
  int usage_error = 0;
  GDALDatasetH dst = GDALVectorTranslate(out.c_str(), nullptr, 1, &src, options.get(), &usage_error);
  if (!dst) {  // without -skipfailures, a feature the target cannot hold fails the whole translation
    throw Error(errc::invalid_argument,
                target == "shp" ? "não foi possível converter para shapefile (um shapefile tem um só tipo de geometria)"
                                : "não foi possível converter o GeoJSON para " + target,
                "corpo");
  }
  GDALClose(dst);  // flushes the files
  std::string bytes = target == "shp" ? zip_dir(out) : read_mem(out);
  return {std::move(bytes), f.content_type, std::string("camada.") + f.ext};
}

}  // namespace cadastre::platform::imports
