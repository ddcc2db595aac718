// The 2-d tree behind krige_grid's neighbourhood; see NeighbourIndex in geostat.hpp.
// It must return exactly what the scan in kriging.cpp returns (same d², same tie rule),
// because a grid cell has to equal krige() at its centre bit for bit.
#include <algorithm>
#include <cmath>

#include "cadastre/geostat.hpp"
#include "geostat/util.hpp"

namespace cadastre::geostat {
namespace {

constexpr std::uint32_t leaf_size = 8;

struct Candidate {
  double d2;
  std::size_t i;
};
// The order of the scan: nearer first, then the lower index.
bool closer(const Candidate& a, const Candidate& b) {
  return a.d2 < b.d2 || (a.d2 == b.d2 && a.i < b.i);
}

// Lower bound of d² from (x, y) to the box. Rounding is monotone, so for every point p in
// the box fl(p.x − x)² + fl(p.y − y)² ≥ this bound: pruning on "bound > worst" is exact.
double box_d2(double x0, double y0, double x1, double y1, double x, double y) {
  double dx = 0, dy = 0;
  if (x < x0) dx = x0 - x;
  else if (x > x1) dx = x - x1;
  if (y < y0) dy = y0 - y;
  else if (y > y1) dy = y - y1;
  return dx * dx + dy * dy;
}

}  // namespace

NeighbourIndex::NeighbourIndex(std::span<const Sample> samples) {
  if (samples.size() >= std::numeric_limits<std::uint32_t>::max())
    detail::bad("amostras demais para o índice de vizinhança", "amostras");
  points_.reserve(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i)
    points_.push_back({samples[i].x, samples[i].y, i});
  if (!points_.empty()) {
    nodes_.reserve(2 * points_.size() / leaf_size + 2);
    build(0, static_cast<std::uint32_t>(points_.size()), 0);
  }
}

std::int32_t NeighbourIndex::build(std::uint32_t begin, std::uint32_t end, int depth) {
  Node node{points_[begin].x, points_[begin].y, points_[begin].x, points_[begin].y, begin, end};
  for (std::uint32_t k = begin; k < end; ++k) {
    node.x0 = std::min(node.x0, points_[k].x);
    node.x1 = std::max(node.x1, points_[k].x);
    node.y0 = std::min(node.y0, points_[k].y);
    node.y1 = std::max(node.y1, points_[k].y);
  }
  const auto id = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back(node);
  if (end - begin <= leaf_size || depth > 64) return id;
  // split the wider side at the median
  const bool by_x = node.x1 - node.x0 >= node.y1 - node.y0;
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(points_.begin() + begin, points_.begin() + mid, points_.begin() + end,
                   [by_x](const Point& a, const Point& b) { return by_x ? a.x < b.x : a.y < b.y; });
  const std::int32_t left = build(begin, mid, depth + 1);
  const std::int32_t right = build(mid, end, depth + 1);
  nodes_[static_cast<std::size_t>(id)].left = left;
  nodes_[static_cast<std::size_t>(id)].right = right;
  return id;
}

void NeighbourIndex::find(double x, double y, std::size_t nmax, double maxdist,
                          std::vector<std::size_t>& out) const {
  out.clear();
  if (nodes_.empty()) return;
  const double md2 = detail::maxdist2(maxdist);
  // nmax = 0: every point within maxdist; else a max-heap (by `closer`) of the best nmax.
  thread_local std::vector<Candidate> heap;
  heap.clear();
  const bool bounded = nmax > 0;
  auto visit = [&](auto&& self, std::int32_t id) -> void {
    const Node& n = nodes_[static_cast<std::size_t>(id)];
    const double lb = box_d2(n.x0, n.y0, n.x1, n.y1, x, y);
    if (lb > md2) return;
    if (bounded && heap.size() == nmax && lb > heap.front().d2) return;
    if (n.left < 0) {
      for (std::uint32_t k = n.begin; k < n.end; ++k) {
        const Point& p = points_[k];
        const Candidate c{detail::dist2(p.x, p.y, x, y), p.index};
        if (c.d2 > md2) continue;
        if (!bounded || heap.size() < nmax) {
          heap.push_back(c);
          if (bounded) std::push_heap(heap.begin(), heap.end(), closer);
        } else if (closer(c, heap.front())) {
          std::pop_heap(heap.begin(), heap.end(), closer);
          heap.back() = c;
          std::push_heap(heap.begin(), heap.end(), closer);
        }
      }
      return;
    }
    // the nearer child first, so the heap tightens early
    const Node& l = nodes_[static_cast<std::size_t>(n.left)];
    const Node& r = nodes_[static_cast<std::size_t>(n.right)];
    const double dl = box_d2(l.x0, l.y0, l.x1, l.y1, x, y);
    const double dr = box_d2(r.x0, r.y0, r.x1, r.y1, x, y);
    if (dl <= dr) {
      self(self, n.left);
      self(self, n.right);
    } else {
      self(self, n.right);
      self(self, n.left);
    }
  };
  visit(visit, 0);
  std::sort(heap.begin(), heap.end(), closer);
  out.reserve(heap.size());
  for (const auto& c : heap) out.push_back(c.i);
}

std::vector<std::size_t> NeighbourIndex::find(double x, double y, std::size_t nmax,
                                              double maxdist) const {
  std::vector<std::size_t> out;
  find(x, y, nmax, maxdist, out);
  return out;
}

}  // namespace cadastre::geostat
