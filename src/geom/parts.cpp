// geom::parts: a geometry's coordinates by kind, read straight from GEOS's sequences.
#include "cadastre/geom.hpp"
#include "geom/geos.hpp"

namespace cadastre::geom {
namespace {

std::vector<Point> coordinates(const GEOSGeometry* g) {
  auto h = geos();
  const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(h, g);
  if (!seq) throw_geos("falha ao ler as coordenadas");
  unsigned int n = 0;
  if (!GEOSCoordSeq_getSize_r(h, seq, &n)) throw_geos("falha ao ler as coordenadas");
  std::vector<Point> out(n);
  for (unsigned int i = 0; i < n; ++i)
    if (!GEOSCoordSeq_getXY_r(h, seq, i, &out[i].x, &out[i].y)) throw_geos("falha ao ler as coordenadas");
  return out;
}

void collect(const GEOSGeometry* g, Parts& out) {
  auto h = geos();
  if (GEOSisEmpty_r(h, g) == 1) return;
  switch (GEOSGeomTypeId_r(h, g)) {
    case GEOS_POINT: {
      Point p;
      if (!GEOSGeomGetX_r(h, g, &p.x) || !GEOSGeomGetY_r(h, g, &p.y)) throw_geos("falha ao ler o ponto");
      out.points.push_back(p);
      return;
    }
    case GEOS_LINESTRING:
    case GEOS_LINEARRING:
      out.lines.push_back(coordinates(g));
      return;
    case GEOS_POLYGON: {
      std::vector<std::vector<Point>> rings{coordinates(GEOSGetExteriorRing_r(h, g))};
      int holes = GEOSGetNumInteriorRings_r(h, g);
      for (int i = 0; i < holes; ++i) rings.push_back(coordinates(GEOSGetInteriorRingN_r(h, g, i)));
      out.polygons.push_back(std::move(rings));
      return;
    }
    default: {  // multi geometries and collections
      int n = GEOSGetNumGeometries_r(h, g);
      for (int i = 0; i < n; ++i) collect(GEOSGetGeometryN_r(h, g, i), out);
    }
  }
}

}  // namespace

Parts parts(const Geometry& g) {
  Parts out;
  collect(GeometryAccess::raw(g), out);
  return out;
}

}  // namespace cadastre::geom
