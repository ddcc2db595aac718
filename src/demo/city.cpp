#include "demo/city.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "demo/names.hpp"

namespace cadastre::store::demo {
namespace {

constexpr double kPi = std::numbers::pi;
// Average cell (block plus half the surrounding streets) used to size the city.
constexpr double kCellU = 125, kCellV = 86;
// Lots per block assumed when sizing the grid; the real count comes from the layouts.
constexpr double kLotsPerBlock = 20;

int floor_mod(int a, int m) { return ((a % m) + m) % m; }

}  // namespace

City::City(std::int64_t lots, std::uint64_t seed, double lon, double lat)
    : seed_(seed), frame_(lon, lat), value0_(0) {
  const double blocks = static_cast<double>(lots) / kLotsPerBlock;
  radius_ = std::max(150.0, std::sqrt(blocks * kCellU * kCellV / kPi));

  Rng r(seed_, Stream::field, 0);
  value0_ = r.uniform(2000, 2800);
  f_.decay = std::max(0.45 * radius_, 1200.0);
  f_.bump_sigma = std::max(0.15 * radius_, 450.0);
  f_.bump1 = r.uniform(0.35, 0.55);
  f_.bump2 = r.uniform(0.2, 0.35);
  const double a1 = r.uniform(0, 2 * kPi), a2 = a1 + r.uniform(1.8, 2.6), ai = a1 + r.uniform(3.6, 4.4);
  f_.c1 = Vec2{std::cos(a1), std::sin(a1)} * (0.55 * radius_);
  f_.c2 = Vec2{std::cos(a2), std::sin(a2)} * (0.5 * radius_);
  f_.industrial = Vec2{std::cos(ai), std::sin(ai)} * (0.75 * radius_);
  f_.industrial_r = std::max(0.2 * radius_, 160.0);
  f_.wave_x = r.uniform(0, 2 * kPi);
  f_.wave_y = r.uniform(0, 2 * kPi);
  f_.hill_x = r.uniform(0, 2 * kPi);
  f_.hill_y = r.uniform(0, 2 * kPi);
  const double creek = r.uniform(0, kPi);
  f_.creek_cos = std::cos(creek);
  f_.creek_sin = std::sin(creek);
  f_.creek_offset = r.uniform(-0.3, 0.3) * radius_;
  f_.creek_phase = r.uniform(0, 2 * kPi);

  int half_cols = static_cast<int>(std::ceil(1.3 * radius_ / kCellU)) + 2;
  int half_rows = static_cast<int>(std::ceil(1.3 * radius_ / kCellV)) + 2;
  for (;;) {
    build_grid(half_cols, half_rows);
    if (place_blocks(lots)) break;
    half_cols = half_cols * 13 / 10 + 1;  // unusually small lots: widen the grid and try again
    half_rows = half_rows * 13 / 10 + 1;
  }
  build_streets();
  build_bairros();
}

std::uint64_t City::rel(Key what, int a, int b) const {
  return mix_key(static_cast<std::uint64_t>(what), static_cast<std::uint64_t>(a + (1 << 20)),
                 static_cast<std::uint64_t>(b + (1 << 20)));
}

void City::build_grid(int half_cols, int half_rows) {
  cols_ = 2 * half_cols;
  rows_ = 2 * half_rows;
  ci_ = half_cols;
  cj_ = half_rows;

  // Irregular block sizes: each column/row of blocks has its own width/depth. The draws are
  // keyed by the position relative to the centre, so a wider grid keeps the same core.
  std::vector<double> u(cols_ + 1), v(rows_ + 1);
  auto width = [&](int i) { return Rng(seed_, Stream::grid, rel(Key::column, i - ci_)).uniform(100, 150); };
  auto depth = [&](int j) { return Rng(seed_, Stream::grid, rel(Key::row, j - cj_)).uniform(72, 100); };
  u[ci_] = 0;
  for (int i = ci_ + 1; i <= cols_; ++i) u[i] = u[i - 1] + width(i - 1);
  for (int i = ci_ - 1; i >= 0; --i) u[i] = u[i + 1] - width(i);
  v[cj_] = 0;
  for (int j = cj_ + 1; j <= rows_; ++j) v[j] = v[j - 1] + depth(j - 1);
  for (int j = cj_ - 1; j >= 0; --j) v[j] = v[j + 1] - depth(j);

  // Avenues every 7th column line and 6th row line through the centre; wider than streets.
  col_half_.assign(cols_ + 1, 0);
  row_half_.assign(rows_ + 1, 0);
  col_avenue_.assign(cols_ + 1, 0);
  row_avenue_.assign(rows_ + 1, 0);
  for (int i = 0; i <= cols_; ++i) {
    Rng lr(seed_, Stream::grid, rel(Key::column_line, i - ci_));
    col_avenue_[i] = floor_mod(i - ci_, 7) == 0;
    col_half_[i] = col_avenue_[i] ? lr.uniform(13, 16) : lr.uniform(5.5, 7);
  }
  for (int j = 0; j <= rows_; ++j) {
    Rng lr(seed_, Stream::grid, rel(Key::row_line, j - cj_));
    row_avenue_[j] = floor_mod(j - cj_, 6) == 0;
    row_half_[j] = row_avenue_[j] ? lr.uniform(13, 16) : lr.uniform(5.5, 7);
  }

  // Gentle curvature (a smooth warp with km wavelengths, streets bend by a few degrees),
  // a little jitter per crossing and a rotation of the whole grid, so the plan does not
  // look like graph paper.
  Rng wr(seed_, Stream::grid, 5);
  const double amp = 14, l1 = wr.uniform(1400, 2600), l2 = wr.uniform(1400, 2600), l3 = wr.uniform(2000, 3500),
               l4 = wr.uniform(2000, 3500);
  const double p1 = wr.uniform(0, 2 * kPi), p2 = wr.uniform(0, 2 * kPi), p3 = wr.uniform(0, 2 * kPi),
               p4 = wr.uniform(0, 2 * kPi);
  const double theta = (wr.chance(0.5) ? 1 : -1) * wr.uniform(8, 22) * kPi / 180;
  const double ct = std::cos(theta), st = std::sin(theta);
  nodes_.resize(static_cast<std::size_t>(cols_ + 1) * (rows_ + 1));
  for (int j = 0; j <= rows_; ++j)
    for (int i = 0; i <= cols_; ++i) {
      Rng jr(seed_, Stream::grid, rel(Key::node, i - ci_, j - cj_));
      const double du = amp * (std::sin(2 * kPi * v[j] / l1 + p1) + 0.5 * std::sin(2 * kPi * (u[i] + v[j]) / l3 + p3)) +
                        jr.uniform(-2.5, 2.5);
      const double dv = amp * (std::sin(2 * kPi * u[i] / l2 + p2) + 0.5 * std::sin(2 * kPi * (u[i] - v[j]) / l4 + p4)) +
                        jr.uniform(-2.5, 2.5);
      const double x = u[i] + du, y = v[j] + dv;
      nodes_[static_cast<std::size_t>(j) * (cols_ + 1) + i] = {x * ct - y * st, x * st + y * ct};
    }
}

bool City::place_blocks(std::int64_t lots) {
  // Blocks in order of distance from the centre node, measured in average cell sizes: the
  // built area is a disc, and every grid line crosses it in one contiguous run, so each
  // street is a single unbroken line.
  std::vector<std::pair<double, std::int32_t>> order;
  order.reserve(static_cast<std::size_t>(cols_) * rows_);
  for (int j = 0; j < rows_; ++j)
    for (int i = 0; i < cols_; ++i) {
      const double du = (i + 0.5 - ci_) * kCellU, dv = (j + 0.5 - cj_) * kCellV;
      order.emplace_back(du * du + dv * dv, j * cols_ + i);
    }
  std::sort(order.begin(), order.end());

  blocks_.clear();
  cell_block_.assign(order.size(), -1);
  std::vector<LotPlan> plans;
  std::int64_t total = 0;
  for (const auto& [d, cell] : order) {
    Block b;
    b.i = cell % cols_;
    b.j = cell / cols_;
    // Reaching the border means the grid is too small for the lots asked for (smaller lots
    // than estimated): the disc would be cut square, so start again with a larger grid.
    if (b.i == 0 || b.j == 0 || b.i == cols_ - 1 || b.j == rows_ - 1) return false;
    const BlockMap map(quad(b));
    Rng rng(block_key(b));
    layout_block(map.S(), map.T(), layout_params(zone(map.at(map.S() / 2, map.T() / 2))), rng, plans);
    if (plans.empty()) continue;
    const auto n = static_cast<std::int64_t>(plans.size());
    b.lots = static_cast<std::int32_t>(std::min(n, lots - total));
    total += b.lots;
    cell_block_[static_cast<std::size_t>(cell)] = static_cast<std::int32_t>(blocks_.size());
    blocks_.push_back(b);
    if (total == lots) return true;
  }
  return false;
}

bool City::used(int i, int j) const {
  if (i < 0 || j < 0 || i >= cols_ || j >= rows_) return false;
  return cell_block_[static_cast<std::size_t>(j) * cols_ + i] >= 0;
}

void City::build_streets() {
  streets_.clear();
  h_street_.assign(static_cast<std::size_t>(rows_ + 1) * cols_, -1);
  v_street_.assign(static_cast<std::size_t>(cols_ + 1) * rows_, -1);
  h_start_.assign(h_street_.size(), 0);
  v_start_.assign(v_street_.size(), 0);
  StreetNamer namer(seed_);

  // One grid line is cut into runs of edges, each run a street with its own name; avenues
  // keep their name longer. Only the part along built blocks is kept.
  auto add_line = [&](bool vertical, int line, int edges, bool avenue) {
    Rng sr(seed_, Stream::street, rel(vertical ? Key::column_line : Key::row_line, line - (vertical ? ci_ : cj_)));
    for (int s = 0; s < edges;) {
      const int e = std::min(edges, s + (avenue ? sr.between(18, 36) : sr.between(4, 12)));
      int lo = -1, hi = -1;
      for (int k = s; k < e; ++k) {
        const bool on = vertical ? (used(line - 1, k) || used(line, k)) : (used(k, line - 1) || used(k, line));
        if (on) {
          if (lo < 0) lo = k;
          hi = k;
        }
      }
      s = e;
      if (lo < 0) continue;
      Street st;
      st.id = static_cast<std::int64_t>(streets_.size()) + 1;
      st.vertical = vertical;
      st.line = line;
      st.e0 = lo;
      st.e1 = hi + 1;
      st.avenue = avenue;
      Rng nr(seed_, Stream::names, static_cast<std::uint64_t>(st.id));
      StreetName name = namer.next(nr);
      st.nome = std::move(name.name);
      if (avenue)
        st.tipo = "AV";
      else if (name.kind == StreetKind::tree && nr.chance(0.7))
        st.tipo = "AL";
      else if (st.e1 - st.e0 <= 2)
        st.tipo = "TV";
      else
        st.tipo = "RUA";
      st.codigo = fmt::format("{:05d}", st.id);
      // One CEP per street, as in most Brazilian cities; suffixes 000–899 are the range for
      // logradouros. The 130xx prefix is that of Campinas.
      st.cep = fmt::format("{:05d}-{:03d}", 13010 + st.id / 900, (st.id % 900 * 7 + 13) % 900);
      const auto idx = static_cast<std::int32_t>(streets_.size());
      double dist = 0;
      for (int k = st.e0; k < st.e1; ++k) {
        Vec2 a, b;
        std::size_t slot;
        if (vertical) {
          a = node(line, k);
          b = node(line, k + 1);
          slot = static_cast<std::size_t>(line) * rows_ + k;
          v_street_[slot] = idx;
          v_start_[slot] = dist;
        } else {
          a = node(k, line);
          b = node(k + 1, line);
          slot = static_cast<std::size_t>(line) * cols_ + k;
          h_street_[slot] = idx;
          h_start_[slot] = dist;
        }
        dist += length(b - a);
      }
      streets_.push_back(std::move(st));
    }
  };
  for (int i = 0; i <= cols_; ++i) add_line(true, i, rows_, col_avenue_[i]);
  for (int j = 0; j <= rows_; ++j) add_line(false, j, cols_, row_avenue_[j]);
}

void City::build_bairros() {
  // Bands of 4–8 block columns, each cut into 4–8 block rows at its own offsets (like
  // bricks), so neighbourhood borders are streets but do not line up across the city.
  // The central neighbourhood is centred on the centre node.
  auto cuts = [&](int centre, int n, Rng& r) {
    std::vector<int> c{std::clamp(centre, 0, n)};
    for (int x = centre; x < n;) c.push_back(std::min(n, x += (x == centre ? 6 : r.between(4, 8))));
    for (int x = centre; x > 0;) c.push_back(std::max(0, x -= r.between(4, 8)));
    c.push_back(0);
    c.push_back(n);
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    return c;
  };
  Rng cr(seed_, Stream::bairro, 1);
  const std::vector<int> col_cuts = cuts(ci_ - 3, cols_, cr);
  struct Raw {
    int i0, i1, j0, j1;
    std::int32_t first_block = -1;
  };
  std::vector<Raw> raw;
  std::vector<std::int32_t> cell_raw(static_cast<std::size_t>(cols_) * rows_, -1);
  for (std::size_t k = 0; k + 1 < col_cuts.size(); ++k) {
    const int i0 = col_cuts[k], i1 = col_cuts[k + 1];
    Rng rr(seed_, Stream::bairro, rel(Key::column, i0 - ci_));
    const bool central = i0 <= ci_ && ci_ < i1;
    const std::vector<int> row_cuts = cuts(cj_ - 3 + (central ? 0 : rr.between(-2, 2)), rows_, rr);
    for (std::size_t m = 0; m + 1 < row_cuts.size(); ++m) {
      const int j0 = row_cuts[m], j1 = row_cuts[m + 1];
      for (int j = j0; j < j1; ++j)
        for (int i = i0; i < i1; ++i) cell_raw[static_cast<std::size_t>(j) * cols_ + i] = static_cast<std::int32_t>(raw.size());
      raw.push_back({i0, i1, j0, j1});
    }
  }
  for (std::size_t q = 0; q < blocks_.size(); ++q) {
    Raw& r = raw[static_cast<std::size_t>(cell_raw[static_cast<std::size_t>(blocks_[q].j) * cols_ + blocks_[q].i])];
    if (r.first_block < 0) r.first_block = static_cast<std::int32_t>(q);
  }
  // Ids in order of the first block, so the central neighbourhood ("Centro") is number 1.
  std::vector<std::size_t> built;
  for (std::size_t k = 0; k < raw.size(); ++k)
    if (raw[k].first_block >= 0) built.push_back(k);
  std::sort(built.begin(), built.end(), [&](std::size_t a, std::size_t b) { return raw[a].first_block < raw[b].first_block; });
  std::vector<std::int32_t> raw_to_bairro(raw.size(), -1);
  bairros_.clear();
  BairroNamer namer(seed_);
  const int width = std::max(3, static_cast<int>(fmt::formatted_size("{}", built.size())));
  setor_width_ = std::max(2, static_cast<int>(fmt::formatted_size("{}", built.size())));
  for (std::size_t k : built) {
    Bairro b;
    b.id = static_cast<std::int64_t>(bairros_.size()) + 1;
    b.j0 = raw[k].j0;
    b.j1 = raw[k].j1;
    b.lo.assign(static_cast<std::size_t>(b.j1 - b.j0), raw[k].i0);
    b.hi.assign(b.lo.size(), raw[k].i1);
    b.codigo = fmt::format("{:0{}d}", b.id, width);
    b.nome = b.id == 1 ? "Centro" : namer.next();
    raw_to_bairro[k] = static_cast<std::int32_t>(bairros_.size());
    bairros_.push_back(std::move(b));
  }
  std::vector<std::int32_t> cell_bairro(cell_raw.size(), -1);
  for (std::size_t c = 0; c < cell_raw.size(); ++c) cell_bairro[c] = raw_to_bairro[static_cast<std::size_t>(cell_raw[c])];
  outline_bairros();
  // Block numbers run row by row inside each neighbourhood (its setor).
  std::vector<std::int32_t> next_number(bairros_.size(), 0);
  for (int j = 0; j < rows_; ++j)
    for (int i = 0; i < cols_; ++i) {
      const std::int32_t q = cell_block_[static_cast<std::size_t>(j) * cols_ + i];
      if (q < 0) continue;
      Block& b = blocks_[static_cast<std::size_t>(q)];
      b.bairro = cell_bairro[static_cast<std::size_t>(j) * cols_ + i];
      b.numero = ++next_number[static_cast<std::size_t>(b.bairro)];
    }
}

Quad City::quad(const Block& b) const {
  const Vec2 A = node(b.i, b.j), B = node(b.i + 1, b.j), C = node(b.i + 1, b.j + 1), D = node(b.i, b.j + 1);
  // Each side is its street's centreline moved into the block by half the street width.
  const Vec2 bottom = A + left_normal(B - A) * row_half_[b.j];
  const Vec2 top = D - left_normal(C - D) * row_half_[b.j + 1];
  const Vec2 left = A - left_normal(D - A) * col_half_[b.i];
  const Vec2 right = B + left_normal(C - B) * col_half_[b.i + 1];
  Quad q;
  q.p[0] = intersect(bottom, B - A, left, D - A);
  q.p[1] = intersect(bottom, B - A, right, C - B);
  q.p[2] = intersect(top, C - D, right, C - B);
  q.p[3] = intersect(top, C - D, left, D - A);
  return q;
}

Side City::side(const Block& b, int s) const {
  // Numbering convention: walking in the street's direction (increasing grid index), even
  // numbers on the right, odd on the left.
  Side out;
  std::size_t slot;
  switch (s) {
    case 0:
      slot = static_cast<std::size_t>(b.j) * cols_ + b.i;
      out = {&streets_[static_cast<std::size_t>(h_street_[slot])], false, node(b.i, b.j), node(b.i + 1, b.j), h_start_[slot]};
      break;
    case 1:
      slot = static_cast<std::size_t>(b.i + 1) * rows_ + b.j;
      out = {&streets_[static_cast<std::size_t>(v_street_[slot])], false, node(b.i + 1, b.j), node(b.i + 1, b.j + 1),
             v_start_[slot]};
      break;
    case 2:
      slot = static_cast<std::size_t>(b.j + 1) * cols_ + b.i;
      out = {&streets_[static_cast<std::size_t>(h_street_[slot])], true, node(b.i, b.j + 1), node(b.i + 1, b.j + 1),
             h_start_[slot]};
      break;
    default:
      slot = static_cast<std::size_t>(b.i) * rows_ + b.j;
      out = {&streets_[static_cast<std::size_t>(v_street_[slot])], true, node(b.i, b.j), node(b.i, b.j + 1), v_start_[slot]};
  }
  return out;
}

std::uint64_t City::block_key(const Block& b) const {
  return mix_key(seed_, static_cast<std::uint64_t>(Stream::block), rel(Key::cell, b.i - ci_, b.j - cj_));
}

std::string City::setor(const Block& b) const {
  return fmt::format("{:0{}d}", bairros_[static_cast<std::size_t>(b.bairro)].id, setor_width_);
}

std::string City::quadra_code(const Block& b) const { return fmt::format("{}.{:03d}", setor(b), b.numero); }

std::vector<Vec2> City::street_points(const Street& s) const {
  std::vector<Vec2> pts;
  for (int k = s.e0; k <= s.e1; ++k) pts.push_back(s.vertical ? node(s.line, k) : node(k, s.line));
  return pts;
}

std::vector<Vec2> City::bairro_ring(const Bairro& b) const {
  // A staircase around the rows of cells: bottom edge, up the right ends, back along the
  // top edge and down the left ends, moving one grid node at a time.
  std::vector<Vec2> ring;
  int i = b.lo.front(), j = b.j0;
  auto go = [&](int ti, int tj) {
    while (i != ti || j != tj) {
      if (i != ti)
        i += ti > i ? 1 : -1;
      else
        j += tj > j ? 1 : -1;
      ring.push_back(node(i, j));
    }
  };
  ring.push_back(node(i, j));
  const auto rows = static_cast<int>(b.lo.size());
  for (int k = 0; k < rows; ++k) {
    go(b.hi[static_cast<std::size_t>(k)], b.j0 + k);
    go(b.hi[static_cast<std::size_t>(k)], b.j0 + k + 1);
  }
  for (int k = rows - 1; k >= 0; --k) {
    go(b.lo[static_cast<std::size_t>(k)], b.j0 + k + 1);
    go(b.lo[static_cast<std::size_t>(k)], b.j0 + k);
  }
  ring.pop_back();  // back at the start
  return ring;
}

void City::outline_bairros() {
  // Trim every neighbourhood to its built cells, one run per grid row. The built area is
  // a disc, so the runs of a neighbourhood are contiguous and consecutive runs overlap,
  // which makes the staircase outline a simple polygon; should that ever fail (it cannot
  // with the disc, but the check is cheap) the neighbourhood keeps its full rectangle.
  for (std::size_t n = 0; n < bairros_.size(); ++n) {
    Bairro& b = bairros_[n];
    const int i0 = b.lo.front(), i1 = b.hi.front();
    std::vector<std::int32_t> lo, hi;
    int first = -1, last = -1;
    bool ok = true;
    for (int j = b.j0; j < b.j1 && ok; ++j) {
      int a = -1, z = -1, count = 0;
      for (int i = i0; i < i1; ++i)
        if (used(i, j)) {
          if (a < 0) a = i;
          z = i + 1;
          ++count;
        }
      if (count == 0) {
        if (first >= 0 && last < 0) last = j;  // rows after a gap would split the polygon
        continue;
      }
      if (last >= 0 || count != z - a) ok = false;
      if (first < 0) first = j;
      if (!lo.empty() && std::max(lo.back(), a) >= std::min(hi.back(), z)) ok = false;
      lo.push_back(a);
      hi.push_back(z);
    }
    if (!ok || lo.empty()) continue;
    b.j0 = first;
    b.j1 = first + static_cast<std::int32_t>(lo.size());
    b.lo = std::move(lo);
    b.hi = std::move(hi);
  }
}

double City::valor_m2(Vec2 p, bool avenue) const {
  // Planta de valores: a base decaying away from the centre, two secondary centres,
  // a slight undulation, a cheaper industrial district and a premium along avenues.
  // Every term is smooth, so faces of neighbouring blocks have close values.
  const double r = length(p);
  double v = 0.22 + 0.78 * std::exp(-r / f_.decay);
  const double s2 = 2 * f_.bump_sigma * f_.bump_sigma;
  v += f_.bump1 * std::exp(-dot(p - f_.c1, p - f_.c1) / s2) + f_.bump2 * std::exp(-dot(p - f_.c2, p - f_.c2) / s2);
  v *= 1 + 0.06 * std::sin(p.x / 700 + f_.wave_x) * std::sin(p.y / 900 + f_.wave_y);
  v *= 1 - 0.25 * std::exp(-dot(p - f_.industrial, p - f_.industrial) / (4.5 * f_.industrial_r * f_.industrial_r));
  if (avenue) v *= 1.3;
  return value0_ * v;
}

int City::melhoramentos(Vec2 p, bool avenue, Rng& rng) const {
  // Of the 7 public improvements (water, sewer, paving, lighting, drainage, kerb, refuse
  // collection) the centre has all, the edge 3 or so.
  const double m = 2 + 5 * std::exp(-length(p) / (0.7 * radius_)) + (avenue ? 1 : 0) + rng.uniform(-0.6, 0.6);
  return std::clamp(static_cast<int>(std::lround(m)), 0, 7);
}

Zone City::zone(Vec2 p) const {
  Zone z;
  z.centrality = length(p) / radius_;
  z.industrial = length(p - f_.industrial) < f_.industrial_r;
  z.value = valor_m2(p, false);
  z.value_ratio = z.value / value0_;
  z.hill = 0.5 + 0.5 * std::sin(p.x / 850 + f_.hill_x) * std::sin(p.y / 1150 + f_.hill_y);
  // The creek meanders along a straight axis through the city; flood risk fades within ~100 m.
  const double along = p.x * f_.creek_cos + p.y * f_.creek_sin, across = -p.x * f_.creek_sin + p.y * f_.creek_cos;
  const double d = across - (f_.creek_offset + 120 * std::sin(along / 600 + f_.creek_phase));
  z.flood = std::exp(-(d * d) / (70.0 * 70.0));
  return z;
}

}  // namespace cadastre::store::demo
