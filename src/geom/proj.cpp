// Coordinate transforms through PROJ, one context and one operation cache per thread.
#include <proj.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "cadastre/error.hpp"
#include "geom/geos.hpp"

namespace cadastre::geom {
namespace {

struct ProjState {
  PJ_CONTEXT* ctx = proj_context_create();
  std::map<std::pair<int, int>, PJ*> ops;

  ProjState() { proj_log_level(ctx, PJ_LOG_NONE); }  // failures are reported as exceptions
  ~ProjState() {
    clear();
    proj_context_destroy(ctx);
  }
  ProjState(const ProjState&) = delete;
  ProjState& operator=(const ProjState&) = delete;

  void clear() {
    for (auto& [key, op] : ops) proj_destroy(op);
    ops.clear();
  }
};

ProjState& proj_state() {
  thread_local ProjState s;
  return s;
}

// Codes come from user input (a layer's SRID, a query parameter), so the cache is bounded.
constexpr std::size_t max_cached_ops = 64;

std::string pair_name(int from, int to) {
  return "EPSG:" + std::to_string(from) + " → EPSG:" + std::to_string(to);
}

// The operation from `from` to `to`, with both CRSs in lon/lat (easting/northing) order.
PJ* operation(int from, int to) {
  auto& s = proj_state();
  auto key = std::make_pair(from, to);
  if (auto it = s.ops.find(key); it != s.ops.end()) return it->second;
  for (int code : {from, to}) {
    if (code <= 0) throw Error(errc::invalid_argument, "código EPSG inválido: " + std::to_string(code), "srid");
  }
  std::string a = "EPSG:" + std::to_string(from), b = "EPSG:" + std::to_string(to);
  PJ* raw = proj_create_crs_to_crs(s.ctx, a.c_str(), b.c_str(), nullptr);
  if (!raw) {
    throw Error(errc::invalid_argument,
                "sistema de referência desconhecido ou sem transformação: " + pair_name(from, to), "srid");
  }
  PJ* op = proj_normalize_for_visualization(s.ctx, raw);
  proj_destroy(raw);
  if (!op) throw Error(errc::invalid_argument, "transformação indisponível: " + pair_name(from, to), "srid");
  if (s.ops.size() >= max_cached_ops) s.clear();
  s.ops.emplace(key, op);
  return op;
}

bool apply(PJ* op, double& x, double& y) {
  PJ_COORD out = proj_trans(op, PJ_FWD, proj_coord(x, y, 0, 0));
  if (!std::isfinite(out.xy.x) || !std::isfinite(out.xy.y)) {  // PROJ signals failure with HUGE_VAL
    proj_errno_reset(op);
    return false;
  }
  x = out.xy.x;
  y = out.xy.y;
  return true;
}

}  // namespace

Point transform(Point p, int from_epsg, int to_epsg) {
  if (from_epsg == to_epsg) return p;
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
    throw Error(errc::invalid_geometry, "coordenada não finita");
  }
  if (!apply(operation(from_epsg, to_epsg), p.x, p.y)) {
    throw Error(errc::invalid_geometry, "coordenada fora do domínio da transformação " + pair_name(from_epsg, to_epsg));
  }
  return p;
}

Geometry transform(const Geometry& g, int from_epsg, int to_epsg) {
  if (from_epsg == to_epsg) {
    Geometry copy(g);
    copy.set_srid(to_epsg);
    return copy;
  }
  PJ* op = operation(from_epsg, to_epsg);
  auto callback = [](double* x, double* y, void* user) -> int {
    return apply(static_cast<PJ*>(user), *x, *y) ? 1 : 0;
  };
  GEOSGeometry* out = GEOSGeom_transformXY_r(geos(), GeometryAccess::raw(g), callback, op);
  if (!out) {
    take_geos_message();  // GEOS only says "failed to transform"; ours is more useful
    throw Error(errc::invalid_geometry, "coordenada fora do domínio da transformação " + pair_name(from_epsg, to_epsg));
  }
  return GeometryAccess::adopt(out, to_epsg, "falha ao transformar geometria");
}

Geometry transform(const Geometry& g, int to_epsg) {
  int from = g.srid();
  if (from == 0) throw Error(errc::invalid_geometry, "geometria sem SRID: informe o sistema de origem", "srid");
  return transform(g, from, to_epsg);
}

int utm_epsg_for(double lon, double lat) {
  if (!std::isfinite(lon) || !std::isfinite(lat) || lon < -78 || lon >= -24 || lat < -60 || lat > 10) {
    throw Error(errc::invalid_argument,
                "coordenada fora da área do SIRGAS 2000 / UTM no Brasil (longitude de -78 a -24, latitude de -60 a 10)",
                "coordenada");
  }
  int zone = static_cast<int>(std::floor((lon + 180.0) / 6.0)) + 1;  // 18 .. 26
  return zone == 26 ? 5396 : 31978 + (zone - 18);
}

}  // namespace cadastre::geom
