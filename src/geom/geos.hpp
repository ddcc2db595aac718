// Private GEOS plumbing shared by the geom and tiles modules (never in a public header).
//
// Each thread gets its own GEOS context handle, created on first use and finished when the
// thread exits, with an error handler that keeps the last GEOS message so failures can be
// reported as cadastre::Error. Readers and writers are cached in the same per-thread state.
#pragma once

#include <geos_c.h>

#include <memory>
#include <string>
#include <string_view>

#include "cadastre/geom.hpp"

namespace cadastre::geom {

/// This thread's GEOS context handle.
GEOSContextHandle_t geos();
/// The last error GEOS reported on this thread (empty if none), and clears it.
std::string take_geos_message();
/// Throws Error(errc::invalid_geometry) with "<what>: <last GEOS message>".
[[noreturn]] void throw_geos(std::string_view what);

/// Per-thread cached readers and writers (configured once: trimmed WKT, little-endian WKB).
GEOSWKTReader* wkt_reader();
GEOSWKTWriter* wkt_writer();
GEOSWKBReader* wkb_reader();
GEOSWKBWriter* wkb_writer();
GEOSGeoJSONReader* geojson_reader();
GEOSGeoJSONWriter* geojson_writer();

/// Owning pointer for GEOS geometries that are not (yet) wrapped in a Geometry.
struct GeosDeleter {
  void operator()(GEOSGeometry* g) const noexcept;
};
using GeosPtr = std::unique_ptr<GEOSGeometry, GeosDeleter>;

/// Owning pointer for prepared geometries.
struct PreparedDeleter {
  void operator()(const GEOSPreparedGeometry* p) const noexcept;
};
using PreparedPtr = std::unique_ptr<const GEOSPreparedGeometry, PreparedDeleter>;

/// Owning pointer for memory GEOS allocates (strings, buffers).
struct GeosFree {
  void operator()(void* p) const noexcept;
};

/// The library's access to the GEOS geometry inside a Geometry.
class GeometryAccess {
 public:
  /// The wrapped GEOS geometry (moved-from → Error(errc::internal)).
  static const GEOSGeometry* raw(const Geometry& g) { return g.get(); }
  /// Wraps `g`, taking ownership; null (a failed GEOS call) → throw_geos(what).
  static Geometry adopt(GEOSGeometry* g, std::string_view what) {
    if (!g) throw_geos(what);
    return Geometry(g);
  }
  /// Wraps `g`, taking ownership and giving it `srid`.
  static Geometry adopt(GEOSGeometry* g, int srid, std::string_view what) {
    if (!g) throw_geos(what);
    GEOSSetSRID_r(geos(), g, srid);
    return Geometry(g);
  }
};

}  // namespace cadastre::geom
