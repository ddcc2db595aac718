// Measurements in metres: on the ellipsoid (geodesic.h, shipped with PROJ) or in UTM.
#include <geodesic.h>

#include <cmath>
#include <numbers>

#include "cadastre/error.hpp"
#include "geom/geos.hpp"

namespace cadastre::geom {
namespace {

constexpr double equatorial_radius = 6378137.0;  // GRS80 and WGS 84 share it

const geod_geodesic& grs80() {
  static const geod_geodesic g = [] {
    geod_geodesic e;
    geod_init(&e, equatorial_radius, 1 / 298.257222101);
    return e;
  }();
  return g;
}

const geod_geodesic& wgs84() {
  static const geod_geodesic g = [] {
    geod_geodesic e;
    geod_init(&e, equatorial_radius, 1 / 298.257223563);
    return e;
  }();
  return g;
}

bool is_lonlat_srid(int srid) { return srid == 0 || srid == epsg_sirgas2000 || srid == epsg_wgs84; }

// The geometry in lon/lat: itself when it already is, else transformed to SIRGAS 2000.
Geometry to_lonlat(const Geometry& g) {
  if (is_lonlat_srid(g.srid())) return g;
  return transform(g, epsg_sirgas2000);
}

const geod_geodesic& ellipsoid_for(int srid) { return srid == epsg_wgs84 ? wgs84() : grs80(); }

// Calls on_polygon / on_line for every polygon / line inside `g` (points are skipped).
template <class OnPolygon, class OnLine>
void visit(const GEOSGeometry* g, OnPolygon&& on_polygon, OnLine&& on_line) {
  auto h = geos();
  switch (GEOSGeomTypeId_r(h, g)) {
    case GEOS_POLYGON:
      on_polygon(g);
      break;
    case GEOS_LINESTRING:
    case GEOS_LINEARRING:
      on_line(g);
      break;
    case GEOS_MULTIPOLYGON:
    case GEOS_MULTILINESTRING:
    case GEOS_GEOMETRYCOLLECTION:
      for (int i = 0, n = GEOSGetNumGeometries_r(h, g); i < n; ++i) {
        visit(GEOSGetGeometryN_r(h, g, i), on_polygon, on_line);
      }
      break;
    default:
      break;  // points have no area and no length
  }
}

// Calls f(lon, lat) for each vertex of a line or ring.
template <class F>
void for_each_vertex(const GEOSGeometry* line, F&& f) {
  auto h = geos();
  const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(h, line);
  unsigned n = 0;
  if (!seq || !GEOSCoordSeq_getSize_r(h, seq, &n)) throw_geos("falha ao ler coordenadas");
  for (unsigned i = 0; i < n; ++i) {
    double x = 0, y = 0;
    if (!GEOSCoordSeq_getXY_r(h, seq, i, &x, &y)) throw_geos("falha ao ler coordenadas");
    f(x, y);
  }
}

double ring_area(const geod_geodesic& e, const GEOSGeometry* ring) {
  geod_polygon p;
  geod_polygon_init(&p, 0);
  // The closing vertex repeats the first one; it adds a zero-length edge, which is harmless.
  for_each_vertex(ring, [&](double lon, double lat) { geod_polygon_addpoint(&e, &p, lat, lon); });
  double area = 0;
  geod_polygon_compute(&e, &p, 0, 1, &area, nullptr);
  return std::fabs(area);  // signed by orientation; shells and holes may be wound either way
}

double line_length(const geod_geodesic& e, const GEOSGeometry* line) {
  double total = 0, plon = 0, plat = 0;
  bool first = true;
  for_each_vertex(line, [&](double lon, double lat) {
    if (!first) {
      double s12 = 0;
      geod_inverse(&e, plat, plon, lat, lon, &s12, nullptr, nullptr);
      total += s12;
    }
    first = false;
    plon = lon;
    plat = lat;
  });
  return total;
}

template <class F>
void for_each_ring(const GEOSGeometry* polygon, F&& f) {
  auto h = geos();
  f(GEOSGetExteriorRing_r(h, polygon), true);
  for (int i = 0, n = GEOSGetNumInteriorRings_r(h, polygon); i < n; ++i) f(GEOSGetInteriorRingN_r(h, polygon, i), false);
}

Geometry to_utm(const Geometry& lonlat) {
  Point c = lonlat.centroid().as_point();
  int from = lonlat.srid() == 0 ? epsg_sirgas2000 : lonlat.srid();
  return transform(lonlat, from, utm_epsg_for(c.x, c.y));
}

void check_lonlat(Point p, std::string_view field) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.y < -90 || p.y > 90) {
    throw Error(errc::invalid_argument, "coordenada inválida: latitude deve estar entre -90 e 90", std::string(field));
  }
}

double normalize_degrees(double a) {
  a = std::fmod(a, 360.0);
  if (a < 0) a += 360.0;
  return a >= 360.0 ? 0.0 : a;  // fmod of a tiny negative can round up to 360
}

}  // namespace

double area_m2(const Geometry& g, Measure method) {
  if (g.is_empty() || g.dimension() < 2) return 0;
  Geometry lonlat = to_lonlat(g);
  if (method == Measure::utm) return to_utm(lonlat).area();
  const geod_geodesic& e = ellipsoid_for(lonlat.srid());
  double total = 0;
  visit(
      GeometryAccess::raw(lonlat),
      [&](const GEOSGeometry* polygon) {
        for_each_ring(polygon, [&](const GEOSGeometry* ring, bool shell) {
          total += shell ? ring_area(e, ring) : -ring_area(e, ring);
        });
      },
      [](const GEOSGeometry*) {});
  return total;
}

double length_m(const Geometry& g, Measure method) {
  if (g.is_empty() || g.dimension() < 1) return 0;
  Geometry lonlat = to_lonlat(g);
  if (method == Measure::utm) return to_utm(lonlat).length();
  const geod_geodesic& e = ellipsoid_for(lonlat.srid());
  double total = 0;
  visit(
      GeometryAccess::raw(lonlat),
      [&](const GEOSGeometry* polygon) {
        for_each_ring(polygon, [&](const GEOSGeometry* ring, bool) { total += line_length(e, ring); });
      },
      [&](const GEOSGeometry* line) { total += line_length(e, line); });
  return total;
}

double geodesic_distance_m(Point from, Point to) {
  check_lonlat(from, "origem");
  check_lonlat(to, "destino");
  double s12 = 0;
  geod_inverse(&grs80(), from.y, from.x, to.y, to.x, &s12, nullptr, nullptr);
  return s12;
}

double azimuth_deg(Point from, Point to) {
  check_lonlat(from, "origem");
  check_lonlat(to, "destino");
  if (from == to) throw Error(errc::invalid_argument, "azimute indefinido: pontos coincidentes", "destino");
  double s12 = 0, azi1 = 0, azi2 = 0;
  geod_inverse(&grs80(), from.y, from.x, to.y, to.x, &s12, &azi1, &azi2);
  return normalize_degrees(azi1);
}

double grid_azimuth_deg(Point from, Point to) {
  if (!std::isfinite(from.x) || !std::isfinite(from.y) || !std::isfinite(to.x) || !std::isfinite(to.y)) {
    throw Error(errc::invalid_argument, "coordenada não finita", "origem");
  }
  if (from == to) throw Error(errc::invalid_argument, "azimute indefinido: pontos coincidentes", "destino");
  // atan2(east, north): measured from north, clockwise.
  double a = std::atan2(to.x - from.x, to.y - from.y) * 180.0 / std::numbers::pi;
  return normalize_degrees(a);
}

}  // namespace cadastre::geom
