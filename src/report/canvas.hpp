// A small raster canvas for map pictures in reports: polygons filled (even-odd, holes
// included) and outlined, lines and points, drawn in pixel coordinates onto an RGB image,
// written as PNG (zlib). A View maps a world bounding box (any planar CRS) onto the canvas,
// keeping the aspect ratio.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cadastre::report {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

struct Point {
  double x = 0, y = 0;
};
using Ring = std::vector<Point>;

class Canvas {
 public:
  Canvas(int width, int height, Rgb background);
  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }

  /// Fills the polygon made of `rings` (outer and holes, even-odd), blending `opacity` (0..1).
  void fill(const std::vector<Ring>& rings, Rgb color, double opacity = 1.0);
  /// Draws the polyline (closed: back to its first point) `width` pixels wide.
  void stroke(const Ring& line, Rgb color, double width, bool closed);
  /// A filled disc.
  void dot(Point at, double radius, Rgb color);

  /// The picture as PNG bytes (8-bit RGB).
  std::string png() const;

 private:
  void blend(int x, int y, Rgb color, double opacity);
  int width_, height_;
  std::vector<std::uint8_t> pixels_;  ///< RGB, row by row from the top
};

/// World → pixel: `bbox` (minx, miny, maxx, maxy) centred in a width × height canvas with
/// `margin` pixels around, same scale on both axes, y pointing down.
class View {
 public:
  View(double minx, double miny, double maxx, double maxy, int width, int height, int margin);
  Point operator()(Point world) const noexcept;
  Ring operator()(const Ring& world) const;

 private:
  double scale_ = 1, ox_ = 0, oy_ = 0, height_ = 0;
};

}  // namespace cadastre::report
