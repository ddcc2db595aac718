// Geometry for the cadastre: a RAII value type over GEOS, coordinate transforms through
// PROJ, and measurements in metres.
//
// Conventions
// - Coordinates are always (x, y) = (longitude, latitude) for geographic CRSs, whatever
//   axis order the EPSG registry declares (PROJ output is normalised for visualisation).
// - Stored geometry is SIRGAS 2000 (EPSG:4674); GeoJSON output is EPSG:4326 (the two differ
//   by less than a centimetre, and the transform between them is the identity); tiles are
//   Web Mercator (EPSG:3857); metric work happens on the GRS80 ellipsoid or in SIRGAS 2000 /
//   UTM (see utm_epsg_for).
// - Failures throw cadastre::Error: unreadable or unusable geometry → errc::invalid_geometry,
//   bad parameters (unknown EPSG code, coincident points, ...) → errc::invalid_argument.
// - Thread safety: GEOS and PROJ are used with one context per thread, created on first use.
//   A Geometry may be moved or copied to another thread; one Geometry must not be used from
//   two threads at the same time (copy it instead).
//
// This header includes no GEOS or PROJ header: Geometry holds an opaque pointer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/bbox.hpp"
#include "cadastre/error.hpp"

struct GEOSGeom_t;  // GEOS's opaque geometry type (GEOSGeometry in geos_c.h)

namespace cadastre::geom {

/// EPSG codes used across the project.
inline constexpr int epsg_sirgas2000 = 4674;  ///< SIRGAS 2000 geographic (storage)
inline constexpr int epsg_wgs84 = 4326;       ///< WGS 84 geographic (GeoJSON, RFC 7946)
inline constexpr int epsg_web_mercator = 3857;  ///< WGS 84 / Pseudo-Mercator (tiles)

/// A coordinate pair: (lon, lat) in degrees for geographic CRSs, (easting, northing) in
/// metres for projected ones.
struct Point {
  double x = 0;  ///< longitude or easting
  double y = 0;  ///< latitude or northing
  bool operator==(const Point&) const = default;
};

/// Result of Geometry::validity().
struct Validity {
  bool valid = true;        ///< true when the geometry is valid in the OGC sense
  std::string reason;       ///< why it is invalid, in Portuguese ("Autointerseção", ...); empty when valid
  std::optional<Point> location;  ///< where the problem is, when GEOS reports a place
};

/// A geometry (point, line, polygon, their multi forms or a collection) with an SRID.
///
/// Value semantics: copying clones the underlying GEOS geometry (O(number of points));
/// moving is cheap. A moved-from Geometry may only be assigned to or destroyed; any other
/// use throws Error(errc::internal). The default-constructed Geometry is an empty
/// GEOMETRYCOLLECTION with SRID 0.
class Geometry {
 public:
  Geometry();
  Geometry(const Geometry& other);
  Geometry(Geometry&& other) noexcept;
  Geometry& operator=(const Geometry& other);
  Geometry& operator=(Geometry&& other) noexcept;
  ~Geometry();

  // ---- construction and parsing -------------------------------------------------------

  /// Parses WKT, or PostGIS EWKT with a "SRID=4674;" prefix (which sets the SRID).
  static Geometry from_wkt(std::string_view wkt);
  /// Parses WKB or PostGIS EWKB (an embedded SRID is kept) from raw bytes.
  static Geometry from_wkb(std::span<const std::uint8_t> wkb);
  /// Parses WKB or EWKB held in a std::string (binary, e.g. a bytea read in binary mode).
  static Geometry from_wkb(std::string_view wkb);
  /// Parses hexadecimal WKB/EWKB as PostGIS prints it; a leading "\x" (bytea hex output)
  /// is accepted and ignored.
  static Geometry from_hex_wkb(std::string_view hex);
  /// Parses a GeoJSON geometry object (a Feature yields its geometry, a FeatureCollection a
  /// GeometryCollection). GeoJSON carries no SRID: the result has SRID `srid`.
  static Geometry from_geojson(std::string_view geojson, int srid = epsg_wgs84);
  /// A point with the given SRID.
  static Geometry point(double x, double y, int srid = 0);

  // ---- output -------------------------------------------------------------------------

  /// WKT with trailing zeros trimmed; `decimals` < 0 keeps full precision.
  std::string to_wkt(int decimals = -1) const;
  /// WKB in little-endian byte order; with `include_srid`, PostGIS EWKB carrying the SRID.
  std::vector<std::uint8_t> to_wkb(bool include_srid = false) const;
  /// to_wkb() as upper-case hexadecimal text (what PostGIS accepts as geometry input).
  std::string to_hex_wkb(bool include_srid = false) const;
  /// The geometry as a GeoJSON geometry object; `indent` < 0 writes it on one line.
  std::string to_geojson(int indent = -1) const;

  // ---- properties ---------------------------------------------------------------------

  /// Spatial reference id (EPSG code), 0 when unknown.
  int srid() const;
  /// Sets the SRID without changing coordinates (use transform() to reproject).
  void set_srid(int srid);
  /// True for an empty geometry (e.g. POINT EMPTY, GEOMETRYCOLLECTION EMPTY).
  bool is_empty() const;
  /// GEOS type name: "Point", "LineString", "Polygon", "MultiPolygon", "GeometryCollection", ...
  std::string type_name() const;
  /// Topological dimension: 0 points, 1 lines, 2 polygons (a collection: its highest).
  int dimension() const;
  /// Number of coordinates in all components.
  std::size_t num_points() const;
  /// Number of components: 1 for a simple geometry, the parts of a multi/collection.
  std::size_t num_geometries() const;
  /// Copy of component `i` (0-based) of a multi geometry or collection; the geometry itself
  /// for a simple one. Out of range → Error(errc::invalid_argument).
  Geometry geometry_n(std::size_t i) const;
  /// The coordinate of a non-empty Point; anything else → Error(errc::invalid_geometry).
  Point as_point() const;
  /// The bounding box of a non-empty geometry in its own units (for lon/lat data a BBox in
  /// degrees). Empty → Error(errc::invalid_geometry).
  BBox bbox() const;

  // ---- validity -----------------------------------------------------------------------

  /// Whether the geometry is valid, and if not why and where.
  Validity validity() const;
  /// Shorthand for validity().valid.
  bool is_valid() const;
  /// A valid version of the geometry (GEOS "structure" method: a bow-tie becomes a
  /// MultiPolygon of its two triangles; collapsed parts are dropped). Valid input is
  /// returned unchanged.
  Geometry make_valid() const;

  // ---- predicates and measures in the geometry's own units ----------------------------

  /// True when the two geometries share at least one point (boundaries included).
  bool intersects(const Geometry& other) const;
  /// True when `other` lies inside this geometry with no point of it in the exterior.
  bool covers(const Geometry& other) const;
  /// Topological equality (same point set, whatever the vertex order).
  bool equals(const Geometry& other) const;
  /// Planar area in squared CRS units (degrees² for lon/lat: use area_m2 for metres).
  double area() const;
  /// Planar length (perimeter for polygons) in CRS units (use length_m for metres).
  double length() const;
  /// Minimum planar distance in CRS units (use geodesic_distance_m for metres).
  double distance(const Geometry& other) const;
  /// The closest pair of points: [0] on this geometry, [1] on `other`.
  std::array<Point, 2> nearest_points(const Geometry& other) const;

  // ---- constructive operations (results keep this geometry's SRID) --------------------

  Geometry intersection(const Geometry& other) const;
  /// Planar area of intersection(other), in squared CRS units.
  double intersection_area(const Geometry& other) const;
  Geometry difference(const Geometry& other) const;
  /// Buffer by `distance` CRS units; `quadrant_segments` segments approximate a quarter
  /// circle (8 gives a buffered point an area within 1.3% of πr²).
  Geometry buffer(double distance, int quadrant_segments = 8) const;
  /// Centre of mass (may lie outside a concave polygon).
  Geometry centroid() const;
  /// A point guaranteed to lie on the geometry (inside a polygon).
  Geometry point_on_surface() const;
  /// The bounding rectangle as a Polygon (a Point or a LineString when degenerate).
  Geometry envelope() const;
  /// Cuts a polygonal geometry with a line and returns the pieces, largest first. The
  /// boundary and the line are noded together and polygonized; faces outside the original
  /// (holes, or the outside of a concave shape) are dropped. A line that does not cross the
  /// polygon returns the polygon as the single piece. A non-polygonal geometry or a
  /// non-lineal `blade` → Error(errc::invalid_argument).
  std::vector<Geometry> split(const Geometry& blade) const;

 private:
  explicit Geometry(GEOSGeom_t* g) noexcept : g_(g) {}
  GEOSGeom_t* get() const;
  friend class GeometryAccess;  // src/geom/geos.hpp: the library's internal access
  GEOSGeom_t* g_ = nullptr;
};

/// A geometry's coordinates by kind, for a renderer that draws them: each polygon as its
/// rings (exterior first), each line, each point. Multi geometries and collections are
/// flattened, in their order; empty components contribute nothing.
struct Parts {
  std::vector<std::vector<std::vector<Point>>> polygons;
  std::vector<std::vector<Point>> lines;
  std::vector<Point> points;
};
Parts parts(const Geometry& g);

/// Union of all the geometries (dissolving shared boundaries). An empty vector gives an
/// empty GEOMETRYCOLLECTION. The result takes the SRID of the first input.
Geometry union_all(const std::vector<Geometry>& geometries);

// ---- coordinate reference systems --------------------------------------------------------

/// Transforms a point between two EPSG CRSs, coordinates in lon/lat (or easting/northing)
/// order. Unknown codes → Error(errc::invalid_argument, field "srid"); a point outside the
/// domain of the projection → Error(errc::invalid_geometry).
Point transform(Point p, int from_epsg, int to_epsg);
/// Transforms every coordinate of `g` from `from_epsg` to `to_epsg`; the result has SRID
/// `to_epsg`.
Geometry transform(const Geometry& g, int from_epsg, int to_epsg);
/// Transforms `g` from its own SRID; SRID 0 → Error(errc::invalid_geometry, field "srid").
Geometry transform(const Geometry& g, int to_epsg);

/// The SIRGAS 2000 / UTM CRS for a place in Brazil, by the UTM zone of `lon`.
///
/// Zones 18–25 → EPSG:31978–31985 ("UTM zone 18S"–"25S") and zone 26 (Trindade and Martim
/// Vaz) → EPSG:5396 — in BOTH hemispheres. The EPSG area of use of these "south" CRSs is
/// "Brazil, northern and southern hemispheres" (the "north" ones, EPSG:31972–31976 for
/// 18N–22N, exclude Brazil onshore; note 31977 is 17S, not 22N), so Roraima and Amapá get
/// one CRS per zone like the rest of the country. North or south only changes the false
/// northing, never a length or an area. Accepted area: lon in [-78, -24), lat in [-60, 10];
/// anything else → Error(errc::invalid_argument).
int utm_epsg_for(double lon, double lat);

// ---- measurements in metres -----------------------------------------------------------

/// How area_m2 and length_m measure.
enum class Measure {
  /// On the ellipsoid (GRS80 for SIRGAS 2000, WGS 84 for EPSG:4326), edges taken as
  /// geodesics. The true ground area; independent of zones. Default.
  geodesic,
  /// Planar, in the SIRGAS 2000 / UTM zone of the geometry's centroid (utm_epsg_for). The
  /// value PostGIS gives for ST_Area(ST_Transform(geom, 3198x)) and what many municipal
  /// registries record; differs from the geodesic value by the UTM scale factor squared
  /// (about -0.08% on the central meridian, up to +0.2% at the zone edges).
  utm,
};

/// Area in square metres of a polygonal geometry. Geometries with SRID 0, 4674 or 4326 are
/// taken as lon/lat; any other SRID is first transformed to EPSG:4674. Points and lines → 0.
double area_m2(const Geometry& g, Measure method = Measure::geodesic);
/// Length in metres of lines (for polygons: the perimeter, rings included), with the same
/// SRID rules as area_m2. Points → 0.
double length_m(const Geometry& g, Measure method = Measure::geodesic);

/// Geodesic distance in metres between two lon/lat points on the GRS80 ellipsoid.
double geodesic_distance_m(Point from, Point to);

/// Azimuth of the geodesic from `from` to `to` at `from`, both lon/lat on the GRS80
/// ellipsoid: degrees clockwise from true north, in [0, 360). Coincident points →
/// Error(errc::invalid_argument).
double azimuth_deg(Point from, Point to);

/// Grid azimuth from `from` to `to` in a projected CRS (e.g. UTM easting/northing):
/// degrees clockwise from grid north, in [0, 360). Differs from azimuth_deg by the meridian
/// convergence. Coincident points → Error(errc::invalid_argument).
double grid_azimuth_deg(Point from, Point to);

}  // namespace cadastre::geom
