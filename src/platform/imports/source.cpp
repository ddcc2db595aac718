// Opening and checking an uploaded vector file: see source.hpp.
#include "platform/imports/source.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>
#include <ogrsf_frmts.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "platform/imports/pvg.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::imports {
namespace {

Error unreadable(const std::string& what) { return Error(errc::invalid_argument, what, "file"); }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && lower(s.substr(s.size() - tail.size())) == tail;
}

// The files of a zip (relative paths, no folders, no macOS resource forks).
std::vector<std::string> file_names(const std::vector<limits::ZipEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries)
    if (e.name.find("__MACOSX") == std::string::npos && !e.name.empty() && e.name.back() != '/') out.push_back(e.name);
  return out;
}

// A KML is parsed whole into memory: its own, lower ceiling on what the zip declares.
void check_kml_size(const std::vector<limits::ZipEntry>& entries, std::uint64_t max_kml) {
  for (const auto& e : entries)
    if (ends_with(e.name, ".kml") && e.uncompressed > max_kml)
      throw Error(errc::payload_too_large,
                  "'" + e.name + "' no KMZ tem " + limits::human_bytes(e.uncompressed) + "; o limite de um KML é " +
                      limits::human_bytes(max_kml),
                  "file");
}

// The one entry of `entries` ending in `ext`; 400 when none or several.
std::string single(const std::vector<std::string>& entries, std::string_view ext, const std::string& what) {
  std::vector<std::string> found;
  for (const auto& e : entries)
    if (ends_with(e, ext)) found.push_back(e);
  if (found.empty()) throw unreadable("o zip não contém " + what);
  if (found.size() > 1) throw unreadable("o zip contém mais de um " + what + ": envie um por importação");
  return found.front();
}

bool has_entry(const std::vector<std::string>& entries, const std::string& wanted) {
  return std::any_of(entries.begin(), entries.end(), [&](const std::string& e) { return lower(e) == lower(wanted); });
}

}  // namespace

std::string format_name(Format f) {
  switch (f) {
    case Format::shp: return "shp";
    case Format::kml: return "kml";
    case Format::dxf: return "dxf";
    case Format::pvg: return "pvg";
  }
  return "shp";
}

QuietGdal::QuietGdal() {
  CPLPushErrorHandler(CPLQuietErrorHandler);
  CPLErrorReset();
}
QuietGdal::~QuietGdal() { CPLPopErrorHandler(); }

void init_gdal() {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
}

std::string scratch_dir(std::string_view what) {
  static std::atomic<std::uint64_t> counter{0};
  return "/vsimem/cadastre-" + std::string(what) + "-" + std::to_string(++counter) + "-" +
         store::random_token().substr(0, 12);
}

std::shared_ptr<Source> Source::open(Format format, Upload upload, const Params& params, const ImportLimits& limits) {
  init_gdal();
  QuietGdal quiet;
  std::shared_ptr<Source> src(new Source());
  src->format_ = format;
  src->bytes_ = std::move(upload.bytes);
  src->dir_ = scratch_dir("import");
  const bool zipped = src->bytes_.size() >= 4 && src->bytes_.compare(0, 2, "PK") == 0;
  // A KMZ keeps its extension: LIBKML opens it whole (doc.kml and the layers it links).
  const std::string raw =
      src->dir_ + (zipped ? (format == Format::kml ? "/upload.kmz" : "/upload.zip") : "/upload");
  // What a zip declares is checked before GDAL inflates a byte of it.
  std::vector<limits::ZipEntry> declared;
  src->decoded_ = src->bytes_.size();
  if (zipped && (format == Format::shp || format == Format::kml)) {
    declared = limits::zip_entries(src->bytes_);
    limits::check_archive(declared, limits.archive);
    limits::check_inflated(src->bytes_, declared);  // the readers do not hold a zip to its word
    std::uint64_t total = 0;
    for (const auto& e : declared) total += e.uncompressed;  // bounded by check_archive
    src->decoded_ = std::max<std::uint64_t>(total, src->decoded_);
  }
  VSIFCloseL(VSIFileFromMemBuffer(raw.c_str(), reinterpret_cast<GByte*>(src->bytes_.data()),
                                  static_cast<vsi_l_offset>(src->bytes_.size()), FALSE));

  CPLStringList options;
  std::vector<const char*> drivers;
  switch (format) {
    case Format::shp: {
      if (!zipped) throw unreadable("envie o shapefile num zip com .shp, .shx e .dbf (e .prj, .cpg opcionais)");
      auto entries = file_names(declared);
      std::string shp = single(entries, ".shp", "arquivo .shp");
      std::string stem = shp.substr(0, shp.size() - 4);
      for (const char* ext : {".shx", ".dbf"})
        if (!has_entry(entries, stem + ext)) throw unreadable(std::string("o zip não contém o ") + ext + " do shapefile");
      src->path_ = "/vsizip/" + raw + "/" + shp;
      if (has_entry(entries, stem + ".cpg")) {
        src->encoding_source_ = "cpg";  // the driver reads it
      } else {
        options.SetNameValue("ENCODING", params.encoding.value_or("CP1252").c_str());
        src->encoding_source_ = params.encoding ? "parametro" : "padrao";
      }
      drivers = {"ESRI Shapefile", nullptr};
      break;
    }
    case Format::kml: {
      if (zipped) {
        check_kml_size(declared, limits.max_kml);
        auto entries = file_names(declared);
        bool has_kml = std::any_of(entries.begin(), entries.end(), [](const std::string& e) { return ends_with(e, ".kml"); });
        if (!has_kml) throw unreadable("o KMZ não contém um arquivo .kml");
        src->path_ = raw;
      } else {
        if (src->bytes_.find("<kml") == std::string::npos) throw unreadable("o arquivo enviado não é KML nem KMZ");
        src->path_ = raw;
      }
      src->encoding_source_ = "utf-8";
      drivers = {"LIBKML", "KML", nullptr};
      break;
    }
    case Format::dxf:
      if (zipped) throw unreadable("envie o DXF sem compactar");
      src->path_ = raw;
      src->encoding_source_ = "dxf";
      drivers = {"DXF", nullptr};
      break;
    case Format::pvg:
      check_pvg(src->bytes_);  // 400 for a document that is not the profile
      src->path_ = raw;
      src->encoding_source_ = "utf-8";
      drivers = {"GeoJSON", nullptr};
      break;
  }
  if (format == Format::dxf) CPLSetThreadLocalConfigOption("DXF_CLOSED_LINE_AS_POLYGON", "TRUE");
  GDALDataset* ds = GDALDataset::FromHandle(
      GDALOpenEx(src->path_.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY, drivers.data(), options.List(), nullptr));
  if (format == Format::dxf) CPLSetThreadLocalConfigOption("DXF_CLOSED_LINE_AS_POLYGON", nullptr);
  if (!ds) throw unreadable("o arquivo enviado não é um " + format_name(format) + " legível");
  src->ds_.reset(ds);
  if (ds->GetLayerCount() == 0) throw unreadable("o arquivo não contém camadas");
  if (format == Format::shp) {
    // The DBF's header tells the record count and each field's width: the attributes'
    // size is known before a record is read.
    OGRLayer* layer = ds->GetLayer(0);
    OGRFeatureDefn* defn = layer->GetLayerDefn();
    std::uint64_t record = 1;  // the deletion flag
    for (int i = 0; i < defn->GetFieldCount(); ++i)
      record += static_cast<std::uint64_t>(std::max(defn->GetFieldDefn(i)->GetWidth(), 1));
    limits::check_table(layer->GetFeatureCount(FALSE), defn->GetFieldCount(), record, limits.table);
  }
  src->resolve_crs(params);
  return src;
}

void Source::resolve_crs(const Params& params) {
  const OGRSpatialReference* file_crs = ds_->GetLayer(0)->GetSpatialRef();
  // The file's own CRS wins (a .prj, KML's WGS 84), except for GeoJSON, whose RFC 7946
  // default (WGS 84) is what GDAL reports when the document says nothing: there srid says
  // the document's coordinates are in another CRS.
  bool use_param = params.srid && (!file_crs || format_ == Format::pvg || format_ == Format::dxf);
  crs_ = std::make_unique<OGRSpatialReference>();
  if (use_param) {
    if (crs_->importFromEPSG(*params.srid) != OGRERR_NONE)
      throw Error(errc::invalid_argument, "srid " + std::to_string(*params.srid) + " desconhecido", "srid");
  } else if (file_crs && format_ != Format::dxf) {
    *crs_ = *file_crs;
  } else {
    throw Error(errc::missing_field,
                format_ == Format::dxf ? "um DXF não diz seu sistema de coordenadas: informe srid"
                                       : "o arquivo não tem .prj: informe srid (o sistema não é adivinhado)",
                "srid");
  }
  crs_->SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  // Identify it (an ESRI .prj names "SIRGAS_2000_UTM_Zone_23S"): for the report only; the
  // transformation uses the definition itself.
  crs_name_ = crs_->GetName() ? crs_->GetName() : "desconhecido";
  int count = 0;
  int* confidence = nullptr;
  OGRSpatialReferenceH* matches = crs_->FindMatches(nullptr, &count, &confidence);
  if (matches && count > 0 && confidence[0] >= 70) {
    auto* best = OGRSpatialReference::FromHandle(matches[0]);
    if (best->GetAuthorityName(nullptr) && best->GetAuthorityCode(nullptr))
      crs_name_ = std::string(best->GetAuthorityName(nullptr)) + ":" + best->GetAuthorityCode(nullptr);
  }
  OSRFreeSRSArray(matches);
  CPLFree(confidence);
}

Source::~Source() {
  if (ds_) GDALClose(GDALDataset::ToHandle(ds_.release()));
  VSIRmdirRecursive(dir_.c_str());
}

}  // namespace cadastre::platform::imports
