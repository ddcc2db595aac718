#include "platform/city_reports/map.hpp"

#include <algorithm>
#include <limits>

#include "report/canvas.hpp"

namespace cadastre::platform::city_reports {
namespace {

using report::Point;
using report::Ring;

Point point(const geom::Point& p) { return {p.x, p.y}; }

Ring ring(const std::vector<geom::Point>& points) {
  Ring r;
  for (const auto& p : points) r.push_back(point(p));
  return r;
}

struct Box {
  double minx = std::numeric_limits<double>::max(), miny = minx, maxx = std::numeric_limits<double>::lowest(), maxy = maxx;
  void add(Point p) {
    minx = std::min(minx, p.x), miny = std::min(miny, p.y), maxx = std::max(maxx, p.x), maxy = std::max(maxy, p.y);
  }
  bool empty() const { return minx > maxx; }
};

}  // namespace

std::string map_png(const std::vector<Shape>& shapes, int width, int height) {
  Box frame;  // the lot and the platform geometry, with room for the neighbours around
  for (const auto& s : shapes) {
    if (s.kind != "lote" && s.kind != "geometria") continue;
    for (const auto& polygon : s.parts.polygons)
      for (const auto& r : polygon)
        for (const auto& pt : r) frame.add(point(pt));
    for (const auto& l : s.parts.lines)
      for (const auto& pt : l) frame.add(point(pt));
    for (const auto& pt : s.parts.points) frame.add(point(pt));
  }
  if (frame.empty()) return {};
  double grow = std::max({frame.maxx - frame.minx, frame.maxy - frame.miny, 20.0}) * 0.6;
  report::View view(frame.minx - grow, frame.miny - grow, frame.maxx + grow, frame.maxy + grow, width, height, 8);
  report::Canvas canvas(width, height, {250, 250, 246});
  const report::Rgb kNeighbour{215, 215, 215}, kEdge{130, 130, 130}, kBuilding{110, 110, 115}, kLot{70, 120, 200},
      kLotEdge{20, 60, 140}, kGeometry{210, 30, 30};
  auto draw = [&](const std::string& kind) {
    for (const auto& shape : shapes) {
      if (shape.kind != kind) continue;
      for (const auto& polygon : shape.parts.polygons) {
        std::vector<Ring> rings;
        for (const auto& r : polygon) rings.push_back(view(ring(r)));
        if (kind == "vizinho") canvas.fill(rings, kNeighbour);
        if (kind == "edificacao") canvas.fill(rings, kBuilding, 0.8);
        if (kind == "lote") canvas.fill(rings, kLot, 0.45);
        for (const auto& r : rings)
          canvas.stroke(r, kind == "geometria" ? kGeometry : kind == "lote" ? kLotEdge : kEdge,
                        kind == "geometria" ? 3 : kind == "lote" ? 2 : 1, true);
      }
      for (const auto& l : shape.parts.lines) canvas.stroke(view(ring(l)), kGeometry, 3, false);
      for (const auto& pt : shape.parts.points) canvas.dot(view(point(pt)), 6, kGeometry);
    }
  };
  for (const char* kind : {"vizinho", "lote", "edificacao", "geometria"}) draw(kind);
  return canvas.png();
}

}  // namespace cadastre::platform::city_reports
