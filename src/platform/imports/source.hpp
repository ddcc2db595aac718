// An uploaded vector file opened by GDAL: checked at once (the route answers 400 for a file
// GDAL cannot read, a zip without a single .shp, a corrupt zip, or a file whose CRS is
// unknown), then read by the job on the worker thread. The bytes stay in memory (a
// /vsimem/ file over them, no copy), removed when the Source is destroyed.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cadastre/limits.hpp"
#include "platform/imports/input.hpp"

class GDALDataset;
class OGRSpatialReference;

namespace cadastre::platform::imports {

enum class Format { shp, kml, dxf, pvg };
std::string format_name(Format f);  ///< "shp", "kml", "dxf", "pvg" (the job's tipo)

/// GDAL's errors are reported per thread; this silences them for a scope (the messages
/// carry internal paths: ours are written in Portuguese instead).
class QuietGdal {
 public:
  QuietGdal();
  ~QuietGdal();
  QuietGdal(const QuietGdal&) = delete;
  QuietGdal& operator=(const QuietGdal&) = delete;
};

/// What an import may declare: see cadastre/limits.hpp.
struct ImportLimits {
  limits::ArchiveLimits archive;        ///< a shapefile's zip, a KMZ
  std::uint64_t max_kml = 64 * limits::kMiB;  ///< a KML, after unzipping (parsed whole in memory)
  limits::TableLimits table;            ///< features, fields, attribute bytes, vertices
};

/// Registers GDAL's drivers once.
void init_gdal();

/// A unique /vsimem/ directory name for one request or job.
std::string scratch_dir(std::string_view what);

class Source {
 public:
  /// Opens and checks the upload: 400 (field "file") for what GDAL cannot read, 400
  /// (field "srid") when no CRS can be known; 413 naming the limit, before GDAL inflates
  /// or parses anything, for a zip that declares more than `limits.archive` allows (or a
  /// KML over `limits.max_kml`), and for a shapefile whose DBF declares more fields or
  /// attribute bytes than `limits.table` allows.
  static std::shared_ptr<Source> open(Format format, Upload upload, const Params& params, const ImportLimits& limits);
  ~Source();
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  Format format() const noexcept { return format_; }
  GDALDataset& dataset() noexcept { return *ds_; }
  /// The file's CRS (traditional GIS axis order: x = longitude/easting).
  const OGRSpatialReference& crs() const noexcept { return *crs_; }
  /// "EPSG:31983" when identified, else the CRS's name; for the job's report.
  const std::string& crs_name() const noexcept { return crs_name_; }
  /// Where the attributes' encoding came from: "cpg", "parametro", "padrao" (CP1252),
  /// "utf-8" (KML, GeoJSON), "dxf" ($DWGCODEPAGE).
  const std::string& encoding_source() const noexcept { return encoding_source_; }
  /// What the file declares it decodes to: a zip's uncompressed total, else its size.
  std::uint64_t decoded_bytes() const noexcept { return decoded_; }

 private:
  Source() = default;
  void resolve_crs(const Params& params);

  Format format_ = Format::shp;
  std::string bytes_, dir_, path_, crs_name_, encoding_source_;
  std::uint64_t decoded_ = 0;
  std::unique_ptr<GDALDataset> ds_;
  std::unique_ptr<OGRSpatialReference> crs_;
};

}  // namespace cadastre::platform::imports
