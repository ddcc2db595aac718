#include "geom/geos.hpp"

#include <cstdlib>

#include "cadastre/error.hpp"

namespace cadastre::geom {
namespace {

// Everything GEOS needs on one thread. Readers and writers are created lazily because most
// threads only ever use a few of them.
struct ThreadState {
  GEOSContextHandle_t handle = nullptr;
  std::string last_error;
  GEOSWKTReader* wkt_r = nullptr;
  GEOSWKTWriter* wkt_w = nullptr;
  GEOSWKBReader* wkb_r = nullptr;
  GEOSWKBWriter* wkb_w = nullptr;
  GEOSGeoJSONReader* json_r = nullptr;
  GEOSGeoJSONWriter* json_w = nullptr;

  ThreadState() {
    handle = GEOS_init_r();
    if (!handle) std::abort();  // out of memory before anything could be reported
    GEOSContext_setErrorMessageHandler_r(
        handle, [](const char* msg, void* self) { static_cast<ThreadState*>(self)->last_error = msg; }, this);
  }
  ~ThreadState() {
    if (wkt_r) GEOSWKTReader_destroy_r(handle, wkt_r);
    if (wkt_w) GEOSWKTWriter_destroy_r(handle, wkt_w);
    if (wkb_r) GEOSWKBReader_destroy_r(handle, wkb_r);
    if (wkb_w) GEOSWKBWriter_destroy_r(handle, wkb_w);
    if (json_r) GEOSGeoJSONReader_destroy_r(handle, json_r);
    if (json_w) GEOSGeoJSONWriter_destroy_r(handle, json_w);
    GEOS_finish_r(handle);
  }
  ThreadState(const ThreadState&) = delete;
  ThreadState& operator=(const ThreadState&) = delete;
};

ThreadState& state() {
  thread_local ThreadState s;
  return s;
}

}  // namespace

GEOSContextHandle_t geos() { return state().handle; }

std::string take_geos_message() {
  std::string m = std::move(state().last_error);
  state().last_error.clear();
  return m;
}

void throw_geos(std::string_view what) {
  std::string msg(what);
  std::string detail = take_geos_message();
  if (!detail.empty()) msg += ": " + detail;
  throw Error(errc::invalid_geometry, std::move(msg));
}

GEOSWKTReader* wkt_reader() {
  auto& s = state();
  if (!s.wkt_r) s.wkt_r = GEOSWKTReader_create_r(s.handle);
  return s.wkt_r;
}

GEOSWKTWriter* wkt_writer() {
  auto& s = state();
  if (!s.wkt_w) {
    s.wkt_w = GEOSWKTWriter_create_r(s.handle);
    GEOSWKTWriter_setTrim_r(s.handle, s.wkt_w, 1);
    GEOSWKTWriter_setOutputDimension_r(s.handle, s.wkt_w, 3);  // keep Z when present
  }
  return s.wkt_w;
}

GEOSWKBReader* wkb_reader() {
  auto& s = state();
  if (!s.wkb_r) s.wkb_r = GEOSWKBReader_create_r(s.handle);
  return s.wkb_r;
}

GEOSWKBWriter* wkb_writer() {
  auto& s = state();
  if (!s.wkb_w) {
    s.wkb_w = GEOSWKBWriter_create_r(s.handle);
    GEOSWKBWriter_setByteOrder_r(s.handle, s.wkb_w, GEOS_WKB_NDR);
    GEOSWKBWriter_setOutputDimension_r(s.handle, s.wkb_w, 3);
  }
  return s.wkb_w;
}

GEOSGeoJSONReader* geojson_reader() {
  auto& s = state();
  if (!s.json_r) s.json_r = GEOSGeoJSONReader_create_r(s.handle);
  return s.json_r;
}

GEOSGeoJSONWriter* geojson_writer() {
  auto& s = state();
  if (!s.json_w) s.json_w = GEOSGeoJSONWriter_create_r(s.handle);
  return s.json_w;
}

void GeosDeleter::operator()(GEOSGeometry* g) const noexcept { GEOSGeom_destroy_r(geos(), g); }
void PreparedDeleter::operator()(const GEOSPreparedGeometry* p) const noexcept {
  GEOSPreparedGeom_destroy_r(geos(), p);
}
void GeosFree::operator()(void* p) const noexcept { GEOSFree_r(geos(), p); }

}  // namespace cadastre::geom
