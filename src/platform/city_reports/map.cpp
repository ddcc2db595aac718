#include "platform/city_reports/map.hpp"

#include <simdjson.h>

#include <algorithm>
#include <limits>

#include "report/canvas.hpp"

namespace cadastre::platform::city_reports {
namespace {

using report::Point;
using report::Ring;

// A GeoJSON geometry as parts, each a list of rings (points and lines: one ring each).
struct Parts {
  std::vector<std::vector<Ring>> polygons;
  std::vector<Ring> lines;
  std::vector<Point> points;
};

Point point(simdjson::dom::array xy) {
  auto it = xy.begin();
  double x = double(*it);
  ++it;
  return {x, double(*it)};
}

Ring ring(simdjson::dom::array coords) {
  Ring r;
  for (simdjson::dom::array xy : coords) r.push_back(point(xy));
  return r;
}

std::vector<Ring> polygon(simdjson::dom::array rings) {
  std::vector<Ring> out;
  for (simdjson::dom::array r : rings) out.push_back(ring(r));
  return out;
}

void parts_of(simdjson::dom::object g, Parts& out) {
  std::string_view type = g["type"];
  if (type == "GeometryCollection") {
    for (simdjson::dom::object member : simdjson::dom::array(g["geometries"])) parts_of(member, out);
    return;
  }
  simdjson::dom::array c = g["coordinates"];
  if (type == "Polygon") out.polygons.push_back(polygon(c));
  if (type == "MultiPolygon")
    for (simdjson::dom::array p : c) out.polygons.push_back(polygon(p));
  if (type == "LineString") out.lines.push_back(ring(c));
  if (type == "MultiLineString")
    for (simdjson::dom::array l : c) out.lines.push_back(ring(l));
  if (type == "Point") out.points.push_back(point(c));
  if (type == "MultiPoint")
    for (simdjson::dom::array p : c) out.points.push_back(point(p));
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
  simdjson::dom::parser parser;
  std::vector<std::pair<std::string, Parts>> drawn;
  Box frame;  // the lot and the platform geometry, with room for the neighbours around
  for (const auto& s : shapes) {
    Parts parts;
    parts_of(parser.parse(s.geojson).get_object(), parts);
    if (s.kind == "lote" || s.kind == "geometria") {
      for (const auto& p : parts.polygons)
        for (const auto& r : p)
          for (const auto& pt : r) frame.add(pt);
      for (const auto& l : parts.lines)
        for (const auto& pt : l) frame.add(pt);
      for (const auto& pt : parts.points) frame.add(pt);
    }
    drawn.emplace_back(s.kind, std::move(parts));
  }
  if (frame.empty()) return {};
  double grow = std::max({frame.maxx - frame.minx, frame.maxy - frame.miny, 20.0}) * 0.6;
  report::View view(frame.minx - grow, frame.miny - grow, frame.maxx + grow, frame.maxy + grow, width, height, 8);
  report::Canvas canvas(width, height, {250, 250, 246});
  const report::Rgb kNeighbour{215, 215, 215}, kEdge{130, 130, 130}, kBuilding{110, 110, 115}, kLot{70, 120, 200},
      kLotEdge{20, 60, 140}, kGeometry{210, 30, 30};
  auto draw = [&](const std::string& kind) {
    for (const auto& [k, parts] : drawn) {
      if (k != kind) continue;
      for (const auto& p : parts.polygons) {
        std::vector<Ring> rings;
        for (const auto& r : p) rings.push_back(view(r));
        if (kind == "vizinho") canvas.fill(rings, kNeighbour);
        if (kind == "edificacao") canvas.fill(rings, kBuilding, 0.8);
        if (kind == "lote") canvas.fill(rings, kLot, 0.45);
        for (const auto& r : rings)
          canvas.stroke(r, kind == "geometria" ? kGeometry : kind == "lote" ? kLotEdge : kEdge,
                        kind == "geometria" ? 3 : kind == "lote" ? 2 : 1, true);
      }
      for (const auto& l : parts.lines) canvas.stroke(view(l), kGeometry, 3, false);
      for (const auto& pt : parts.points) canvas.dot(view(pt), 6, kGeometry);
    }
  };
  for (const char* kind : {"vizinho", "lote", "edificacao", "geometria"}) draw(kind);
  return canvas.png();
}

}  // namespace cadastre::platform::city_reports
