// Plane geometry of the demo city: local metres around the centre, conversion to
// SIRGAS 2000 longitude/latitude, block quadrilaterals and hex EWKB output for COPY.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>

namespace cadastre::store::demo {

struct Vec2 {
  double x = 0, y = 0;
};
inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 operator*(Vec2 a, double k) { return {a.x * k, a.y * k}; }
inline double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline double length(Vec2 a) { return std::sqrt(dot(a, a)); }
/// Left-hand unit normal of direction `d`.
inline Vec2 left_normal(Vec2 d) {
  double l = length(d);
  return {-d.y / l, d.x / l};
}
/// Intersection of the lines p + a·d and q + b·e (the callers never pass parallel lines).
Vec2 intersect(Vec2 p, Vec2 d, Vec2 q, Vec2 e);
/// Area of a simple polygon given as an open ring (shoelace), always positive.
double ring_area(std::span<const Vec2> ring);

/// Local east/north metres ↔ SIRGAS 2000 degrees. Uses the exact metres per degree of the
/// GRS80 ellipsoid (identical to WGS84 at this precision) at the centre latitude: the
/// meridian radius M for latitude and N·cos φ for longitude. Away from the centre the
/// scale of longitude drifts by tan φ · Δφ, i.e. below 0.1 % within ±13 km of Campinas
/// (−22.9°), so areas measured in local metres agree with ST_Area(geography) to that order
/// for cities of tens of km; angles and lengths likewise.
class LocalFrame {
 public:
  LocalFrame(double lon0, double lat0);
  double lon(double x) const { return lon0_ + x / m_per_deg_lon_; }
  double lat(double y) const { return lat0_ + y / m_per_deg_lat_; }

 private:
  double lon0_, lat0_, m_per_deg_lon_, m_per_deg_lat_;
};

/// A convex block quadrilateral, counter-clockwise: p[0] bottom-left, p[1] bottom-right,
/// p[2] top-right, p[3] top-left ("bottom" faces the street of lower grid row).
struct Quad {
  Vec2 p[4];
};

/// Bilinear parametrisation of a block. Lots are laid out on rectangles of (σ, τ) metres
/// with σ ∈ [0, S] along the bottom/top sides and τ ∈ [0, T] along the left/right sides
/// (S, T = mean side lengths). A bilinear map sends every segment of constant σ or τ to a
/// straight segment, so axis-aligned rectangles become convex quadrilaterals that tile the
/// block exactly as the rectangles tile [0, S] × [0, T]; and since the same (σ, τ) doubles
/// always give the same point, neighbouring lots share bit-identical vertices.
class BlockMap {
 public:
  explicit BlockMap(const Quad& q);
  double S() const { return s_; }
  double T() const { return t_; }
  Vec2 at(double sigma, double tau) const;
  double rect_area(double s0, double s1, double t0, double t1) const;

 private:
  Quad q_;
  double s_, t_;
};

/// Appends geometries as hexadecimal EWKB with SRID 4674, the text form PostGIS accepts
/// for geometry columns in COPY. Binary doubles are exact, so the same city always gives
/// byte-identical geometry (and no rounding can open or close gaps between lots).
class Ewkb {
 public:
  explicit Ewkb(const LocalFrame& frame) : frame_(frame) {}
  void point(std::string& out, Vec2 p) const;
  void linestring(std::string& out, std::span<const Vec2> pts) const;
  /// A MultiLineString of one part.
  void multilinestring(std::string& out, std::span<const Vec2> pts) const;
  /// A MultiPolygon of one polygon with one ring; `ring` is open (the closing point is added).
  void multipolygon(std::string& out, std::span<const Vec2> ring) const;

 private:
  void header(std::string& out, std::uint32_t type, bool srid) const;
  void count(std::string& out, std::uint32_t n) const;
  void coords(std::string& out, Vec2 p) const;
  const LocalFrame& frame_;
};

}  // namespace cadastre::store::demo
