// Geometry: validity, predicates, measures and constructive operations (planar, CRS units).
#include <algorithm>
#include <utility>

#include "cadastre/error.hpp"
#include "geom/geos.hpp"

namespace cadastre::geom {
namespace {

using GeosString = std::unique_ptr<char, GeosFree>;

// GEOS reports validity problems in English; users read Portuguese.
std::string translate_reason(std::string_view reason) {
  static constexpr std::pair<std::string_view, std::string_view> table[] = {
      {"Topology Validation Error", "Erro de validação topológica"},
      {"Repeated Point", "Ponto repetido"},
      {"Hole lies outside shell", "Buraco fora do contorno externo"},
      {"Holes are nested", "Buracos aninhados"},
      {"Interior is disconnected", "Interior desconexo"},
      {"Self-intersection", "Autointerseção"},
      {"Ring Self-intersection", "Autointerseção de anel"},
      {"Nested shells", "Polígonos aninhados"},
      {"Duplicate Rings", "Anéis duplicados"},
      {"Too few points in geometry component", "Poucos pontos em um componente da geometria"},
      {"Invalid Coordinate", "Coordenada inválida"},
      {"Ring is not closed", "Anel não fechado"},
  };
  for (auto [en, pt] : table) {
    if (reason == en) return std::string(pt);
  }
  return std::string(reason);
}

bool predicate(char r, std::string_view what) {
  if (r == 2) throw_geos(what);
  return r == 1;
}

// Runs a GEOS measure (GEOSArea_r, ...) that reports through an out-parameter.
template <class F>
double measure(F&& f, std::string_view what) {
  double value = 0;
  if (!f(&value)) throw_geos(what);
  return value;
}

bool is_polygonal(const GEOSGeometry* g) {
  int t = GEOSGeomTypeId_r(geos(), g);
  return t == GEOS_POLYGON || t == GEOS_MULTIPOLYGON;
}

bool is_lineal(const GEOSGeometry* g) {
  int t = GEOSGeomTypeId_r(geos(), g);
  return t == GEOS_LINESTRING || t == GEOS_LINEARRING || t == GEOS_MULTILINESTRING;
}

}  // namespace

// ---- validity ---------------------------------------------------------------------------

Validity Geometry::validity() const {
  char* reason = nullptr;
  GEOSGeometry* location = nullptr;
  char r = GEOSisValidDetail_r(geos(), get(), 0, &reason, &location);
  GeosString reason_owner(reason);
  GeosPtr location_owner(location);
  if (r == 2) throw_geos("falha ao validar geometria");
  Validity v;
  v.valid = r == 1;
  if (!v.valid) {
    v.reason = translate_reason(reason ? reason : "");
    if (location && GEOSisEmpty_r(geos(), location) == 0) {
      Point p;
      if (GEOSGeomGetX_r(geos(), location, &p.x) && GEOSGeomGetY_r(geos(), location, &p.y)) v.location = p;
    }
  }
  return v;
}

bool Geometry::is_valid() const { return predicate(GEOSisValid_r(geos(), get()), "falha ao validar geometria"); }

Geometry Geometry::make_valid() const {
  if (is_valid()) return *this;
  auto h = geos();
  GEOSMakeValidParams* params = GEOSMakeValidParams_create_r(h);
  GEOSMakeValidParams_setMethod_r(h, params, GEOS_MAKE_VALID_STRUCTURE);
  GEOSMakeValidParams_setKeepCollapsed_r(h, params, 0);
  GEOSGeometry* fixed = GEOSMakeValidWithParams_r(h, get(), params);
  GEOSMakeValidParams_destroy_r(h, params);
  return GeometryAccess::adopt(fixed, srid(), "falha ao corrigir geometria");
}

// ---- predicates and measures --------------------------------------------------------------

bool Geometry::intersects(const Geometry& other) const {
  return predicate(GEOSIntersects_r(geos(), get(), other.get()), "falha ao testar interseção");
}

bool Geometry::covers(const Geometry& other) const {
  return predicate(GEOSCovers_r(geos(), get(), other.get()), "falha ao testar cobertura");
}

bool Geometry::equals(const Geometry& other) const {
  return predicate(GEOSEquals_r(geos(), get(), other.get()), "falha ao comparar geometrias");
}

double Geometry::area() const {
  return measure([&](double* v) { return GEOSArea_r(geos(), get(), v); }, "falha ao calcular área");
}

double Geometry::length() const {
  return measure([&](double* v) { return GEOSLength_r(geos(), get(), v); }, "falha ao calcular comprimento");
}

double Geometry::distance(const Geometry& other) const {
  return measure([&](double* v) { return GEOSDistance_r(geos(), get(), other.get(), v); },
                 "falha ao calcular distância");
}

std::array<Point, 2> Geometry::nearest_points(const Geometry& other) const {
  if (is_empty() || other.is_empty()) {
    throw Error(errc::invalid_geometry, "pontos mais próximos de geometria vazia não existem");
  }
  auto h = geos();
  GEOSCoordSequence* seq = GEOSNearestPoints_r(h, get(), other.get());
  if (!seq) throw_geos("falha ao calcular pontos mais próximos");
  std::array<Point, 2> out;
  bool ok = GEOSCoordSeq_getXY_r(h, seq, 0, &out[0].x, &out[0].y) && GEOSCoordSeq_getXY_r(h, seq, 1, &out[1].x, &out[1].y);
  GEOSCoordSeq_destroy_r(h, seq);
  if (!ok) throw_geos("falha ao ler pontos mais próximos");
  return out;
}

// ---- constructive operations --------------------------------------------------------------

Geometry Geometry::intersection(const Geometry& other) const {
  return GeometryAccess::adopt(GEOSIntersection_r(geos(), get(), other.get()), srid(), "falha ao calcular interseção");
}

double Geometry::intersection_area(const Geometry& other) const { return intersection(other).area(); }

Geometry Geometry::difference(const Geometry& other) const {
  return GeometryAccess::adopt(GEOSDifference_r(geos(), get(), other.get()), srid(), "falha ao calcular diferença");
}

Geometry Geometry::buffer(double distance, int quadrant_segments) const {
  if (quadrant_segments < 1) {
    throw Error(errc::invalid_argument, "segmentos por quadrante deve ser ao menos 1", "quadrant_segments");
  }
  return GeometryAccess::adopt(GEOSBuffer_r(geos(), get(), distance, quadrant_segments), srid(),
                               "falha ao calcular buffer");
}

Geometry Geometry::centroid() const {
  return GeometryAccess::adopt(GEOSGetCentroid_r(geos(), get()), srid(), "falha ao calcular centroide");
}

Geometry Geometry::point_on_surface() const {
  return GeometryAccess::adopt(GEOSPointOnSurface_r(geos(), get()), srid(), "falha ao calcular ponto na superfície");
}

Geometry Geometry::envelope() const {
  return GeometryAccess::adopt(GEOSEnvelope_r(geos(), get()), srid(), "falha ao calcular envelope");
}

std::vector<Geometry> Geometry::split(const Geometry& blade) const {
  auto h = geos();
  if (!is_polygonal(get())) {
    throw Error(errc::invalid_argument, "só é possível dividir polígonos, recebido " + type_name(), "geometria");
  }
  if (!is_lineal(blade.get())) {
    throw Error(errc::invalid_argument, "a linha de corte deve ser uma linha, recebido " + blade.type_name(), "linha");
  }
  // Union nodes the boundary and the blade at every crossing, so polygonize sees a clean
  // planar graph; dangling ends of the blade outside the polygon are ignored by polygonize.
  GeosPtr boundary(GEOSBoundary_r(h, get()));
  if (!boundary) throw_geos("falha ao obter contorno");
  GeosPtr noded(GEOSUnion_r(h, boundary.get(), blade.get()));
  if (!noded) throw_geos("falha ao nodificar linhas");
  const GEOSGeometry* edges[] = {noded.get()};
  GeosPtr faces(GEOSPolygonize_r(h, edges, 1));
  if (!faces) throw_geos("falha ao poligonizar");

  std::vector<Geometry> pieces;
  int n = GEOSGetNumGeometries_r(h, faces.get());
  for (int i = 0; i < n; ++i) {
    const GEOSGeometry* face = GEOSGetGeometryN_r(h, faces.get(), i);
    // A face is a piece when its interior lies in the original: holes and the notches of a
    // concave polygon closed by the blade are faces too, but outside.
    GeosPtr inside(GEOSPointOnSurface_r(h, face));
    if (!inside) throw_geos("falha ao classificar face");
    if (!predicate(GEOSContains_r(h, get(), inside.get()), "falha ao classificar face")) continue;
    pieces.push_back(GeometryAccess::adopt(GEOSGeom_clone_r(h, face), srid(), "falha ao copiar face"));
  }
  std::stable_sort(pieces.begin(), pieces.end(), [](const Geometry& a, const Geometry& b) { return a.area() > b.area(); });
  return pieces;
}

Geometry union_all(const std::vector<Geometry>& geometries) {
  auto h = geos();
  if (geometries.empty()) return Geometry();
  std::vector<GEOSGeometry*> parts;
  parts.reserve(geometries.size());
  for (const auto& g : geometries) {
    GEOSGeometry* c = GEOSGeom_clone_r(h, GeometryAccess::raw(g));
    if (!c) {
      for (auto* p : parts) GEOSGeom_destroy_r(h, p);
      throw_geos("falha ao copiar geometria");
    }
    parts.push_back(c);
  }
  // The collection takes ownership of the parts (GEOS frees them even when it fails).
  GeosPtr collection(GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, parts.data(),
                                                 static_cast<unsigned>(parts.size())));
  if (!collection) throw_geos("falha ao agrupar geometrias");
  return GeometryAccess::adopt(GEOSUnaryUnion_r(h, collection.get()), geometries.front().srid(),
                               "falha ao unir geometrias");
}

}  // namespace cadastre::geom
