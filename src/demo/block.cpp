#include "demo/block.hpp"

#include <algorithm>
#include <cmath>

namespace cadastre::store::demo {
namespace {

// Cuts [a, b] into frontages drawn from [lo, hi] (corner lots 30 % wider) and appends the
// cut positions to `cuts`, starting with exactly a and ending with exactly b. The draws
// are rescaled to fill the interval, so frontages vary around the drawn values.
void split(double a, double b, double lo, double hi, bool corner_a, bool corner_b, Rng& rng,
           std::vector<double>& cuts) {
  cuts.clear();
  cuts.push_back(a);
  const double len = b - a;
  if (len < 1.6 * lo) {  // room for one lot only
    cuts.push_back(b);
    return;
  }
  const double wa = corner_a ? rng.uniform(lo, hi) * 1.3 : 0;
  const double wb = corner_b ? rng.uniform(lo, hi) * 1.3 : 0;
  const double mid = len - wa - wb;
  if (mid < 0.75 * lo) {  // only the corner lots fit: share the interval between them
    if (corner_a && corner_b) cuts.push_back(a + len * wa / (wa + wb));
    cuts.push_back(b);
    return;
  }
  double draws[64];
  std::size_t n = 0;
  double sum = 0;
  while (sum < mid && n < 64) {
    draws[n] = rng.uniform(lo, hi);
    sum += draws[n++];
  }
  // Keep the count whose natural total is closest to the room available.
  if (n > 1 && sum - mid > mid - (sum - draws[n - 1])) sum -= draws[--n];
  const double k = mid / sum;
  double x = a;
  if (corner_a) cuts.push_back(x += wa);
  for (std::size_t i = 0; i + 1 < n; ++i) cuts.push_back(x += draws[i] * k);
  if (corner_b) cuts.push_back(b - wb);
  cuts.push_back(b);
}

bool interior_bottom(const LotPlan& l, double S, double tm) {
  return l.t0 == 0 && l.t1 == tm && l.s0 > 0 && l.s1 < S && l.situacao == Situacao::meio_quadra;
}

// Splits one bottom-row lot into a front lot and a landlocked lot behind it.
void add_encravado(std::vector<LotPlan>& row, double S, double tm, Rng& rng) {
  if (tm < 28) return;
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < row.size(); ++i)
    if (interior_bottom(row[i], S, tm) && row[i].s1 - row[i].s0 >= 8) candidates.push_back(i);
  if (candidates.empty()) return;
  const std::size_t i = candidates[rng.below(static_cast<std::uint32_t>(candidates.size()))];
  const double tf = tm * rng.uniform(0.5, 0.6);
  LotPlan back = row[i];
  back.t0 = tf;
  back.situacao = Situacao::encravado;  // no street frontage: testada is its boundary with the front lot
  row[i].t1 = tf;
  row.insert(row.begin() + static_cast<std::ptrdiff_t>(i) + 1, back);
}

// Replaces a run of bottom-row lots 16–34 m wide by a 4 m private alley with small houses.
void add_vila(std::vector<LotPlan>& row, double S, double tm, Rng& rng) {
  if (row.empty()) return;
  const std::size_t start = rng.below(static_cast<std::uint32_t>(row.size()));
  std::size_t end = start;
  double width = 0;
  while (end < row.size() && interior_bottom(row[end], S, tm) && width < 16) width = row[end++].s1 - row[start].s0;
  if (width < 16 || width > 34) return;
  const double x0 = row[start].s0, x1 = row[end - 1].s1;
  const int houses = std::max(2, static_cast<int>(tm / rng.uniform(6.5, 8.5)));
  const double h = tm / houses, xa = x0 + 4;
  std::vector<LotPlan> vila;
  for (int k = 0; k < houses; ++k) {
    LotPlan l;
    l.s0 = xa;
    l.s1 = x1;
    l.t0 = k == 0 ? 0.0 : vila.back().t1;
    l.t1 = k + 1 == houses ? tm : h * (k + 1);
    l.street_side = 0;
    l.front_edge = 3;  // the alley side
    l.situacao = Situacao::vila;
    l.vila_house = static_cast<std::uint16_t>(k + 1);
    vila.push_back(l);
  }
  row.erase(row.begin() + static_cast<std::ptrdiff_t>(start), row.begin() + static_cast<std::ptrdiff_t>(end));
  row.insert(row.begin() + static_cast<std::ptrdiff_t>(start), vila.begin(), vila.end());
}

}  // namespace

const char* code(Situacao s) {
  switch (s) {
    case Situacao::meio_quadra: return "meio_quadra";
    case Situacao::esquina: return "esquina";
    case Situacao::duas_frentes: return "duas_frentes";
    case Situacao::encravado: return "encravado";
    case Situacao::vila: return "vila";
  }
  return "meio_quadra";
}

LayoutParams layout_params(const Zone& z) {
  LayoutParams p;
  if (z.industrial) {
    p.frontage_lo = 20;
    p.frontage_hi = 45;
    p.p_end_zones = 0.1;
    p.p_through = 0.2;
    p.p_encravado = 0.02;
    p.p_vila = 0;
    return p;
  }
  // Larger lots in the old centre, narrow popular subdivisions at the edge; continuous in
  // the centrality so lot sizes change gradually across the city.
  const double c = z.centrality;
  p.frontage_lo = 8.5 + 3.5 * std::max(0.0, 1 - c / 0.8);
  p.frontage_hi = p.frontage_lo * (1.45 + 0.35 * std::max(0.0, 1 - c / 0.5));
  p.p_end_zones = 0.3 + 0.15 * std::max(0.0, 1 - c);
  p.p_through = 0.12 + 0.1 * std::max(0.0, 1 - c);
  p.p_encravado = 0.05;
  p.p_vila = 0.02 + 0.06 * std::min(1.0, c);
  return p;
}

void layout_block(double S, double T, const LayoutParams& p, Rng& rng, std::vector<LotPlan>& out) {
  out.clear();
  const double lo = p.frontage_lo, hi = p.frontage_hi;
  const double tm = T * rng.uniform(0.45, 0.55);  // depth of the bottom row

  double eL = 0, eR = 0;  // end zones: lots fronting the left/right streets
  if (rng.chance(p.p_end_zones)) {
    const double l = rng.uniform(24, 34), r = rng.uniform(24, 34);
    if (S - l - r >= 3 * lo && T >= 2.5 * lo) {
      eL = l;
      eR = r;
    }
  }
  const double a = eL, b = S - eR;
  double th0 = -1, th1 = -1;  // through lot (duas_frentes)
  if (rng.chance(p.p_through) && b - a > 60) {
    const double w = rng.uniform(12, 20);
    th0 = rng.uniform(a + 20, b - 20 - w);
    th1 = th0 + w;
  }

  std::vector<double> cuts;
  std::vector<LotPlan> bottom, top, right, left;
  auto row = [&](bool is_bottom, std::vector<LotPlan>& dst) {
    auto segment = [&](double x0, double x1) {
      split(x0, x1, lo, hi, x0 == 0, x1 == S, rng, cuts);
      for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        LotPlan l;
        l.s0 = cuts[k];
        l.s1 = cuts[k + 1];
        l.t0 = is_bottom ? 0.0 : tm;
        l.t1 = is_bottom ? tm : T;
        l.street_side = l.front_edge = is_bottom ? 0 : 2;
        dst.push_back(l);
      }
    };
    if (th0 < 0) {
      segment(a, b);
      return;
    }
    segment(a, th0);
    if (is_bottom) {
      LotPlan l;
      l.s0 = th0;
      l.s1 = th1;
      l.t0 = 0;
      l.t1 = T;
      l.street_side = l.front_edge = 0;
      l.situacao = Situacao::duas_frentes;
      dst.push_back(l);
    }
    segment(th1, b);
  };
  auto end_zone = [&](double x0, double x1, std::uint8_t side, std::vector<LotPlan>& dst) {
    split(0, T, lo, hi, true, true, rng, cuts);
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      LotPlan l;
      l.s0 = x0;
      l.s1 = x1;
      l.t0 = cuts[k];
      l.t1 = cuts[k + 1];
      l.street_side = l.front_edge = side;
      dst.push_back(l);
    }
  };

  row(true, bottom);
  row(false, top);
  if (eL > 0) {
    end_zone(b, S, 1, right);
    end_zone(0, a, 3, left);
  }
  if (rng.chance(p.p_encravado)) add_encravado(bottom, S, tm, rng);
  if (rng.chance(p.p_vila)) add_vila(bottom, S, tm, rng);

  out.insert(out.end(), bottom.begin(), bottom.end());
  out.insert(out.end(), right.begin(), right.end());
  out.insert(out.end(), top.rbegin(), top.rend());
  out.insert(out.end(), left.rbegin(), left.rend());

  for (auto& l : out) {
    if (l.situacao == Situacao::encravado || l.situacao == Situacao::vila) continue;
    const bool on_left = l.s0 == 0, on_right = l.s1 == S, on_bottom = l.t0 == 0, on_top = l.t1 == T;
    if ((on_left || on_right) && (on_bottom || on_top))
      l.situacao = Situacao::esquina;
    else if ((on_bottom && on_top) || (on_left && on_right))
      l.situacao = Situacao::duas_frentes;
    else
      l.situacao = Situacao::meio_quadra;
  }
}

void CornerIndex::build(const std::vector<LotPlan>& lots) {
  by_tau_.clear();
  by_sigma_.clear();
  for (const auto& l : lots) {
    for (double s : {l.s0, l.s1})
      for (double t : {l.t0, l.t1}) {
        by_tau_.emplace_back(t, s);
        by_sigma_.emplace_back(s, t);
      }
  }
  for (auto* v : {&by_tau_, &by_sigma_}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
}

void CornerIndex::ring(const LotPlan& l, std::vector<std::pair<double, double>>& out) const {
  out.clear();
  // Corners strictly inside the segment key = k, other coordinate in (lo, hi), ascending.
  auto inside = [](const std::vector<std::pair<double, double>>& v, double k, double lo, double hi) {
    auto first = std::upper_bound(v.begin(), v.end(), std::make_pair(k, lo));
    auto last = std::lower_bound(v.begin(), v.end(), std::make_pair(k, hi));
    return std::make_pair(first, last < first ? first : last);
  };
  out.emplace_back(l.s0, l.t0);
  for (auto [it, end] = inside(by_tau_, l.t0, l.s0, l.s1); it != end; ++it) out.emplace_back(it->second, l.t0);
  out.emplace_back(l.s1, l.t0);
  for (auto [it, end] = inside(by_sigma_, l.s1, l.t0, l.t1); it != end; ++it) out.emplace_back(l.s1, it->second);
  out.emplace_back(l.s1, l.t1);
  {
    auto [first, last] = inside(by_tau_, l.t1, l.s0, l.s1);
    for (auto it = last; it != first;) out.emplace_back((--it)->second, l.t1);
  }
  out.emplace_back(l.s0, l.t1);
  {
    auto [first, last] = inside(by_sigma_, l.s0, l.t0, l.t1);
    for (auto it = last; it != first;) out.emplace_back(l.s0, (--it)->second);
  }
}

}  // namespace cadastre::store::demo
