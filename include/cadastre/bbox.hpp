// Geographic bounding boxes in longitude/latitude degrees.
//
// A BBox is the rectangle that map clients send as the query parameters minLongitude,
// minLatitude, maxLongitude and maxLatitude, and what tile bounds are reported as.
// It depends on nothing but the standard library; to_polygon() returns a geom::Geometry,
// so callers of that one member also include cadastre/geom.hpp.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace cadastre::geom {

class Geometry;

/// Reads one query parameter by name: the value when present (possibly empty), else nullopt.
/// An http::Request adapts as `[&](std::string_view n) { return req.query_value(n); }`.
using QueryGetter = std::function<std::optional<std::string>(std::string_view)>;

/// An axis-aligned box in longitude/latitude degrees (EPSG:4674 or EPSG:4326).
///
/// Antimeridian: a box that crosses the ±180° meridian is represented as in RFC 7946 §5.2,
/// with min_lon > max_lon; {170, -20, -170, -10} spans the 20° of longitude from 170°E
/// eastwards to 170°W. validate() and from_query() refuse such boxes unless
/// `allow_antimeridian` is true, because in a Brazilian cadastre a minLongitude greater than
/// maxLongitude is almost always two swapped parameters, not a request across the Pacific.
struct BBox {
  double min_lon = 0;  ///< west edge, degrees in [-180, 180]
  double min_lat = 0;  ///< south edge, degrees in [-90, 90]
  double max_lon = 0;  ///< east edge, degrees in [-180, 180]
  double max_lat = 0;  ///< north edge, degrees in [-90, 90]

  /// True when the box crosses the antimeridian (min_lon > max_lon, see above).
  bool crosses_antimeridian() const noexcept { return min_lon > max_lon; }

  /// Checks that every value is finite and within range and that min_lat <= max_lat and
  /// (unless `allow_antimeridian`) min_lon <= max_lon. Throws Error(errc::invalid_argument)
  /// naming the offending query parameter ("minLongitude", "minLatitude", ...).
  /// A degenerate box (min == max) is valid: it is a point or a line.
  void validate(bool allow_antimeridian = false) const;

  /// Reads minLongitude, minLatitude, maxLongitude and maxLatitude through `get` and
  /// validates the box. Returns nullopt when none of the four is present. When only some
  /// are present, throws Error(errc::invalid_argument) naming the first missing one; a
  /// value that is not a decimal number (e.g. "abc", "", "1,5") throws naming that field.
  static std::optional<BBox> from_query(const QueryGetter& get, bool allow_antimeridian = false);

  /// The box as a polygon with the given SRID (default SIRGAS 2000); an antimeridian-crossing
  /// box becomes a MultiPolygon of its two halves, [min_lon, 180] and [-180, max_lon]. A
  /// degenerate box gives a zero-area (invalid) polygon, still usable for intersects().
  Geometry to_polygon(int srid = 4674) const;

  /// The box as WKT: POLYGON((w s, e s, e n, w n, w s)), or a MULTIPOLYGON of the two halves
  /// when it crosses the antimeridian. Numbers are written with round-trip precision.
  std::string to_wkt() const;

  bool operator==(const BBox&) const = default;
};

}  // namespace cadastre::geom
