// Decode budgets: the one rule every decoder of the services follows before it allocates.
//
// A few kilobytes of upload can declare gigabytes of content: a zip whose entries inflate a
// thousandfold, a GeoTIFF or PNG whose header claims 100,000 × 100,000 pixels, a DBF whose
// 250 fields of 254 characters repeat in every record. Each check here looks only at what
// the file declares (a zip's central directory, a raster's header, a table's schema) and
// refuses with 413 corpo_muito_grande, naming the limit and the declared value, before
// anything is inflated, decoded or written. The limits are plain values: the services take
// their defaults from here and let operators change them with flags (docs/operations.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::limits {

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

/// One file inside a zip, as the archive's central directory declares it.
struct ZipEntry {
  std::string name;
  std::uint64_t compressed = 0;    ///< bytes stored in the archive
  std::uint64_t uncompressed = 0;  ///< bytes it inflates to (as declared)
  std::uint64_t offset = 0;        ///< where its local header starts
  int method = 0;                  ///< 0 stored, 8 deflate (the two that readers here take)
};

/// The entries of the zip in `bytes`, read from its central directory (ZIP64 included)
/// without inflating anything. Throws Error(invalid_argument, field "file") when `bytes`
/// is not a zip whose directory can be read. Directory entries (names ending in '/') are
/// listed too.
std::vector<ZipEntry> zip_entries(std::string_view bytes);

struct ArchiveLimits {
  std::uint64_t max_total = 256 * kMiB;  ///< sum of the declared uncompressed sizes
  std::uint64_t max_entries = 1000;
  /// Largest uncompressed/compressed ratio of one entry. Deflate cannot exceed ~1032:1,
  /// so this catches entries crafted to be all-alike (the classic bomb), not ordinary
  /// files; it applies only to entries larger than `ratio_floor`.
  double max_ratio = 1000;
  std::uint64_t ratio_floor = kMiB;
};

/// Refuses (413, field "file") an archive whose entries break `limits`; the message names
/// the limit and what the archive declares.
void check_archive(const std::vector<ZipEntry>& entries, const ArchiveLimits& limits);

/// Inflates every entry of `zip` into nothing, counting, and refuses (413) an entry that
/// inflates to more than it declares; 400 for a compression method other than stored or
/// deflate, or data that does not inflate. A declaration is a promise the readers do not
/// keep for us (GDAL's /vsizip/ reads a lying entry to its real end), so it is checked.
/// Memory: a 64 KB buffer; time: proportional to the declared total, already bounded by
/// check_archive.
void check_inflated(std::string_view zip, const std::vector<ZipEntry>& entries);

struct RasterLimits {
  int max_side = 100000;   ///< pixels per side
  int max_bands = 64;
  std::uint64_t max_pixels = 400'000'000;      ///< width × height
  std::uint64_t max_decoded = 4096 * kMiB;     ///< width × height × bands × bytes per sample
  /// Largest decoded/encoded ratio once the decoded size passes `ratio_floor`: a sparse or
  /// all-alike file declares far more than its bytes can hold of real imagery.
  double max_ratio = 200;
  std::uint64_t ratio_floor = 256 * kMiB;
};

/// What a raster's header declares.
struct RasterShape {
  std::int64_t width = 0, height = 0, bands = 0;
  int bytes_per_sample = 1;
  std::uint64_t encoded_bytes = 0;  ///< the file's size
};

/// Decoded size of a raster (width × height × bands × bytes per sample), saturating at
/// UINT64_MAX instead of overflowing.
std::uint64_t decoded_bytes(const RasterShape& r) noexcept;

/// Refuses (413, field `field`) a raster whose declared shape breaks `limits`.
void check_raster(const RasterShape& r, const RasterLimits& limits, std::string_view field = "file");

struct TableLimits {
  std::int64_t max_features = 500000;
  int max_fields = 500;
  /// Largest size of the attributes as declared: features × the sum of the fields' widths
  /// (a DBF's record length). Text values are also counted as they are read (add_text).
  std::uint64_t max_attribute_bytes = 256 * kMiB;
  std::size_t max_vertices = 1'000'000;  ///< per geometry
  /// Vertices of the whole file per byte it decodes to, above `vertices_floor`. A vertex
  /// takes at least 16 bytes in a shapefile and several characters in KML, GeoJSON or DXF;
  /// more vertices than bytes means the file repeats what it holds (a DXF block inserted
  /// thousands of times), which the reader would expand without end.
  double max_vertices_per_byte = 1;
  std::uint64_t vertices_floor = 1'000'000;
};

/// The most vertices a file that decodes to `decoded_bytes` may hold in all.
std::uint64_t max_total_vertices(std::uint64_t decoded_bytes, const TableLimits& limits) noexcept;

/// Refuses (413, field "file") a table whose schema and declared size break `limits`:
/// more fields than max_fields, or features × record_bytes over max_attribute_bytes
/// (features < 0: the count is not known before reading; only the fields are checked).
void check_table(std::int64_t features, std::int64_t fields, std::uint64_t record_bytes, const TableLimits& limits);

/// Refuses (413, field "file") a geometry of more than limits.max_vertices vertices.
/// `where` says which (e.g. "feição 12").
void check_vertices(std::size_t vertices, const TableLimits& limits, std::string_view where);

/// A running total held under a ceiling: add() refuses (413, field "file") the amount that
/// would pass it, before the caller keeps it. `bytes`: the message writes the ceiling as a
/// size ("256 MB"), else as a count.
class Budget {
 public:
  Budget(std::uint64_t ceiling, std::string what, bool bytes = true)
      : ceiling_(ceiling), what_(std::move(what)), bytes_(bytes) {}
  void add(std::uint64_t amount);
  std::uint64_t used() const noexcept { return used_; }

 private:
  std::uint64_t ceiling_, used_ = 0;
  std::string what_;
  bool bytes_;
};

/// "256 MB", "1.5 GB", "812 KB", "17 bytes": sizes in messages.
std::string human_bytes(std::uint64_t bytes);

}  // namespace cadastre::limits
