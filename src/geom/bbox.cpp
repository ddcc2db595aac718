// BBox: validation, parsing from query parameters, and polygon/WKT output.
#include "cadastre/bbox.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "cadastre/error.hpp"
#include "geom/geos.hpp"

namespace cadastre::geom {
namespace {

constexpr std::array<std::string_view, 4> names = {"minLongitude", "minLatitude", "maxLongitude", "maxLatitude"};

void check_range(double v, double limit, std::string_view field) {
  if (!std::isfinite(v)) {
    throw Error(errc::invalid_argument, std::string(field) + " deve ser um número finito", std::string(field));
  }
  if (v < -limit || v > limit) {
    std::string l = limit == 180 ? "180" : "90";
    throw Error(errc::invalid_argument, std::string(field) + " deve estar entre -" + l + " e " + l, std::string(field));
  }
}

double parse_number(const std::string& text, std::string_view field) {
  double v = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, v);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw Error(errc::invalid_argument, std::string(field) + " deve ser um número decimal, recebido '" + text + "'",
                std::string(field));
  }
  return v;
}

void append_number(std::string& out, double v) {
  char buf[32];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  out.append(buf, ptr);
}

void append_ring(std::string& out, double w, double s, double e, double n) {
  const double xy[5][2] = {{w, s}, {e, s}, {e, n}, {w, n}, {w, s}};
  out += "((";
  for (int i = 0; i < 5; ++i) {
    if (i) out += ", ";
    append_number(out, xy[i][0]);
    out += ' ';
    append_number(out, xy[i][1]);
  }
  out += "))";
}

GEOSGeometry* rectangle(double w, double s, double e, double n) {
  // Built from its ring rather than GEOSGeom_createRectangle, which returns a Point or a
  // LineString for a degenerate box; a box is always a polygon here.
  auto h = geos();
  GEOSCoordSequence* seq = GEOSCoordSeq_create_r(h, 5, 2);
  const double xy[5][2] = {{w, s}, {e, s}, {e, n}, {w, n}, {w, s}};
  for (unsigned i = 0; i < 5; ++i) GEOSCoordSeq_setXY_r(h, seq, i, xy[i][0], xy[i][1]);
  GEOSGeometry* shell = GEOSGeom_createLinearRing_r(h, seq);
  return shell ? GEOSGeom_createPolygon_r(h, shell, nullptr, 0) : nullptr;
}

}  // namespace

void BBox::validate(bool allow_antimeridian) const {
  check_range(min_lon, 180, names[0]);
  check_range(min_lat, 90, names[1]);
  check_range(max_lon, 180, names[2]);
  check_range(max_lat, 90, names[3]);
  if (min_lat > max_lat) {
    throw Error(errc::invalid_argument, "minLatitude maior que maxLatitude", "minLatitude");
  }
  if (min_lon > max_lon && !allow_antimeridian) {
    throw Error(errc::invalid_argument, "minLongitude maior que maxLongitude", "minLongitude");
  }
}

std::optional<BBox> BBox::from_query(const QueryGetter& get, bool allow_antimeridian) {
  std::array<std::optional<std::string>, 4> raw;
  bool any = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    raw[i] = get(names[i]);
    any = any || raw[i].has_value();
  }
  if (!any) return std::nullopt;
  std::array<double, 4> v{};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!raw[i]) {
      throw Error(errc::invalid_argument,
                  "parâmetro " + std::string(names[i]) +
                      " ausente: informe minLongitude, minLatitude, maxLongitude e maxLatitude juntos",
                  std::string(names[i]));
    }
    v[i] = parse_number(*raw[i], names[i]);
  }
  BBox b{v[0], v[1], v[2], v[3]};
  b.validate(allow_antimeridian);
  return b;
}

Geometry BBox::to_polygon(int srid) const {
  auto h = geos();
  if (!crosses_antimeridian()) {
    return GeometryAccess::adopt(rectangle(min_lon, min_lat, max_lon, max_lat), srid, "falha ao criar retângulo");
  }
  GEOSGeometry* halves[2] = {rectangle(min_lon, min_lat, 180, max_lat), rectangle(-180, min_lat, max_lon, max_lat)};
  if (!halves[0] || !halves[1]) {
    for (auto* p : halves) {
      if (p) GEOSGeom_destroy_r(h, p);
    }
    throw_geos("falha ao criar retângulo");
  }
  return GeometryAccess::adopt(GEOSGeom_createCollection_r(h, GEOS_MULTIPOLYGON, halves, 2), srid,
                               "falha ao criar retângulo");
}

std::string BBox::to_wkt() const {
  std::string out;
  if (!crosses_antimeridian()) {
    out = "POLYGON ";
    append_ring(out, min_lon, min_lat, max_lon, max_lat);
    return out;
  }
  out = "MULTIPOLYGON (";
  append_ring(out, min_lon, min_lat, 180, max_lat);
  out += ", ";
  append_ring(out, -180, min_lat, max_lon, max_lat);
  out += ')';
  return out;
}

}  // namespace cadastre::geom
