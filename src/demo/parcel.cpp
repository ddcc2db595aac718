#include "demo/parcel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace cadastre::store::demo {
namespace {

enum class Use { vacant, house, tower_res, tower_com, shop, galpao, pp4, institucional, religioso };

// The lot seen from its front: w across the frontage, d into the lot (d = 0 at the front).
struct LotFrame {
  const LotPlan& l;
  double W() const { return l.front_edge % 2 == 0 ? l.s1 - l.s0 : l.t1 - l.t0; }
  double D() const { return l.front_edge % 2 == 0 ? l.t1 - l.t0 : l.s1 - l.s0; }
  void place(double w0, double w1, double d0, double d1, BuildingPlan& b) const {
    double sa, sb, ta, tb;
    switch (l.front_edge) {
      case 0: sa = l.s0 + w0, sb = l.s0 + w1, ta = l.t0 + d0, tb = l.t0 + d1; break;
      case 2: sa = l.s1 - w0, sb = l.s1 - w1, ta = l.t1 - d0, tb = l.t1 - d1; break;
      case 3: ta = l.t0 + w0, tb = l.t0 + w1, sa = l.s0 + d0, sb = l.s0 + d1; break;
      default: ta = l.t0 + w0, tb = l.t0 + w1, sa = l.s1 - d0, sb = l.s1 - d1; break;
    }
    b.s0 = std::min(sa, sb);
    b.s1 = std::max(sa, sb);
    b.t0 = std::min(ta, tb);
    b.t1 = std::max(ta, tb);
  }
};

template <std::size_t N>
const char* choose(Rng& rng, const char* const (&items)[N], std::initializer_list<double> weights) {
  return items[rng.weighted(weights)];
}

int year_of_house(const Zone& z, Rng& rng) {
  // The old centre was built first; the edge is recent.
  const double mean = 1962 + 45 * std::min(z.centrality, 1.0);
  return std::clamp(static_cast<int>(std::lround(mean + rng.uniform(-14, 14))), 1950, 2024);
}

char conservation(int ano, Rng& rng) {
  const double age = 2025 - ano;
  return static_cast<char>('a' + std::clamp(static_cast<int>(age / 11 + rng.uniform(-1, 1)), 0, 7));
}

Use choose_use(const LotPlan& lot, double W, double D, double area, const Zone& z, bool avenue, Rng& rng) {
  double p_vacant = z.industrial ? 0.15 : 0.03 + 0.09 * std::min(z.centrality, 1.3);
  if (lot.situacao == Situacao::encravado) p_vacant += 0.25;
  if (rng.chance(p_vacant)) return Use::vacant;
  if (lot.situacao == Situacao::vila) return Use::house;
  if (z.industrial) return std::array{Use::galpao, Use::shop, Use::house}[rng.weighted({80, 10, 10})];
  const double c = z.centrality;
  if (c < 0.35 && area >= 400 && W >= 14 && D >= 25 && rng.chance(0.08 + 0.5 * (1 - c / 0.35)))
    return rng.chance(c < 0.12 ? 0.4 : 0.2) ? Use::tower_com : Use::tower_res;
  if (avenue && rng.chance(0.35)) return Use::shop;
  if (rng.chance(0.006)) return Use::institucional;
  if (rng.chance(0.006)) return Use::religioso;
  if (c > 0.25 && area >= 300 && W >= 12 && rng.chance(0.03)) return Use::pp4;
  return Use::house;
}

void apartments(ParcelPlan& out, const BuildingPlan& b, int first_floor, int per_floor, const char* word, double usable,
                const char* uso, OwnerClass owner) {
  for (int floor = first_floor; floor <= b.pavimentos; ++floor)
    for (int k = 1; k <= per_floor; ++k)
      out.units.push_back({fmt::format("{} {}{:02d}", word, floor, k), uso, 0, b.footprint * usable / per_floor, owner});
}

void shops(ParcelPlan& out, int n, double area, const char* uso, OwnerClass owner) {
  for (int k = 1; k <= n; ++k) out.units.push_back({fmt::format("Loja {}", k), uso, 0, area / n, owner});
}

}  // namespace

void split_fraction(std::vector<UnitPlan>& units, const std::vector<double>& weights) {
  constexpr std::int64_t kWhole = 1000000;
  const std::int64_t n = static_cast<std::int64_t>(units.size());
  double total = 0;
  for (double w : weights) total += w;
  // One millionth reserved per unit keeps every share positive; the rest goes by weight.
  std::int64_t given = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    units[i].fracao_micro = 1 + static_cast<std::int64_t>(std::floor(static_cast<double>(kWhole - n) * weights[i] / total));
    given += units[i].fracao_micro;
  }
  for (std::size_t i = 0; given < kWhole; i = (i + 1) % units.size(), ++given) ++units[i].fracao_micro;
}

void plan_parcel(const LotPlan& lot, const BlockMap& map, const Zone& z, bool avenue, Rng& rng, ParcelPlan& out) {
  out.buildings.clear();
  out.units.clear();
  const LotFrame f{lot};
  const double W = f.W(), D = f.D(), area = map.rect_area(lot.s0, lot.s1, lot.t0, lot.t1);
  Use use = choose_use(lot, W, D, area, z, avenue, rng);

  // Footprint of the main building: front, side and back setbacks in metres. Margins are at
  // least 0.5 m so buildings lie strictly inside their lot.
  double front = 0.5, side_a = 0.5, side_b = 0.5, back = 0.5, max_depth = D;
  switch (use) {
    case Use::house:
      front = z.centrality < 0.25 ? rng.uniform(0.5, 3) : rng.uniform(2.5, 5.5);
      side_a = rng.chance(0.5) ? 0.5 : rng.uniform(1.2, 2);
      side_b = rng.chance(0.5) ? 0.5 : rng.uniform(1.2, 2);
      if (W - side_a - side_b < 3.5) side_a = side_b = 0.5;
      back = 1;
      max_depth = rng.uniform(9, 17);
      break;
    case Use::tower_res:
    case Use::tower_com: front = rng.uniform(3, 6), side_a = side_b = 2.5, back = 3, max_depth = 32; break;
    case Use::shop: back = 1, max_depth = rng.uniform(12, 25); break;
    case Use::galpao: front = rng.uniform(4, 8), side_a = side_b = 1.5, back = 2; break;
    case Use::pp4: front = 3, side_a = side_b = 1.5, back = 3, max_depth = 20; break;
    case Use::institucional: front = 3, side_a = side_b = 1.5, back = 2, max_depth = 30; break;
    case Use::religioso: front = 2, side_a = side_b = 1, back = 3, max_depth = 25; break;
    case Use::vacant: break;
  }
  const double bw = W - side_a - side_b, bd = std::min(D - front - back, max_depth);
  if (use != Use::vacant && (bw < 3 || bd < 3)) use = Use::vacant;  // too small to build on

  if (use == Use::vacant) {
    out.units.push_back({"", "territorial", 1000000, -1, OwnerClass::territorial});
    return;
  }

  BuildingPlan b;
  f.place(side_a, side_a + bw, front, front + bd, b);
  b.footprint = map.rect_area(b.s0, b.s1, b.t0, b.t1);
  const double vr = z.value_ratio;
  static constexpr const char* kHouse[] = {"R1-A", "R1-N", "R1-B", "RP1Q", "PIS"};
  static constexpr const char* kHouseUse[] = {"residencial", "misto", "comercial"};
  static constexpr const char* kTowerRes[] = {"R16-A", "R8-A", "R16-N", "R8-N", "R8-B"};
  static constexpr const char* kTowerCom[] = {"CSL16-N", "CSL8-N", "CSL8-A", "CAL8-N"};
  static constexpr const char* kShopUse[] = {"comercial", "servicos", "misto"};
  switch (use) {
    case Use::house:
      // Better houses where land is dear.
      b.padrao = vr > 1.0    ? choose(rng, kHouse, {45, 50, 5, 0, 0})
                 : vr > 0.65 ? choose(rng, kHouse, {22, 63, 15, 0, 0})
                 : vr > 0.4  ? choose(rng, kHouse, {6, 62, 28, 3, 1})
                             : choose(rng, kHouse, {2, 42, 45, 7, 4});
      b.pavimentos = rng.chance(0.3) ? 2 : 1;
      b.ano = year_of_house(z, rng);
      b.uso = lot.situacao == Situacao::vila ? "residencial" : choose(rng, kHouseUse, {92, 5, 3});
      break;
    case Use::tower_res:
      b.padrao = vr > 0.85 ? choose(rng, kTowerRes, {35, 20, 30, 15, 0}) : choose(rng, kTowerRes, {0, 0, 40, 50, 10});
      b.pavimentos = b.padrao[1] == '1' ? rng.between(11, 22) : rng.between(5, 10);  // R16-* vs R8-*
      b.ano = rng.between(1968, 2024);
      b.uso = rng.chance(0.2) ? "misto" : "residencial";
      break;
    case Use::tower_com:
      b.padrao = choose(rng, kTowerCom, {25, 40, 15, 20});
      b.pavimentos = std::string_view(b.padrao).starts_with("CSL16") ? rng.between(11, 18) : rng.between(4, 10);
      b.ano = rng.between(1968, 2024);
      b.uso = rng.chance(0.6) ? "comercial" : "servicos";
      break;
    case Use::shop:
      b.padrao = "CSL8-N";
      b.pavimentos = rng.between(1, 2);
      b.ano = year_of_house(z, rng);
      b.uso = choose(rng, kShopUse, {55, 30, 15});
      break;
    case Use::galpao:
      b.padrao = "GI";
      b.pavimentos = rng.chance(0.85) ? 1 : 2;
      b.ano = rng.between(1960, 2022);
      b.uso = "industrial";
      break;
    case Use::pp4:
      b.padrao = vr > 0.6 ? "PP4-N" : "PP4-B";
      b.pavimentos = 4;
      b.ano = rng.between(1975, 2020);
      b.uso = "residencial";
      break;
    case Use::institucional:
    case Use::religioso:
      b.padrao = "CAL8-N";
      b.pavimentos = use == Use::religioso ? 1 : rng.between(1, 3);
      b.ano = rng.between(1950, 2020);
      b.uso = use == Use::religioso ? "religioso" : "institucional";
      break;
    case Use::vacant: break;
  }
  b.conservacao = conservation(b.ano, rng);
  out.buildings.push_back(b);

  // A house may have an edícula (a small annex) at the back of the lot.
  const double rest = D - (front + bd);
  if (use == Use::house && rest >= 6.5 && rng.chance(0.22)) {
    const double d0 = front + bd + 1.5, d1 = std::min(D - 0.5, d0 + rng.uniform(3, 5));
    const double w1 = std::min(W - 0.5, 0.5 + rng.uniform(4, 7));
    if (d1 - d0 >= 2.5 && w1 - 0.5 >= 3) {
      BuildingPlan e = b;
      f.place(0.5, w1, d0, d1, e);
      e.footprint = map.rect_area(e.s0, e.s1, e.t0, e.t1);
      e.pavimentos = 1;
      e.ano = std::min(2024, b.ano + rng.between(0, 15));
      e.conservacao = conservation(e.ano, rng);
      e.uso = "residencial";
      out.buildings.push_back(e);
    }
  }

  // Property units.
  const bool commercial_use = std::string_view(b.uso) == "comercial" || std::string_view(b.uso) == "servicos";
  const OwnerClass house_owner = commercial_use ? OwnerClass::comercial : OwnerClass::residencial;
  switch (use) {
    case Use::house:
      if (out.buildings.size() == 2 && lot.vila_house == 0 && rng.chance(0.25)) {
        for (std::size_t k = 0; k < 2; ++k)
          out.units.push_back({fmt::format("Casa {}", k + 1), out.buildings[k].uso, 0, out.buildings[k].area_construida(),
                               house_owner});
      } else {
        double built = 0;
        for (const auto& x : out.buildings) built += x.area_construida();
        out.units.push_back(
            {lot.vila_house ? fmt::format("Casa {}", lot.vila_house) : std::string(), b.uso, 0, built, house_owner});
      }
      break;
    case Use::tower_res: {
      const int per_floor = std::clamp(static_cast<int>(std::lround(b.footprint / 110)), 2, 8);
      const bool misto = std::string_view(b.uso) == "misto";
      if (misto) shops(out, rng.between(1, 3), b.footprint * 0.85, "comercial", OwnerClass::comercial);
      apartments(out, b, misto ? 2 : 1, per_floor, "Apto", 0.78, "residencial", OwnerClass::residencial);
      break;
    }
    case Use::tower_com: {
      const int per_floor = std::clamp(static_cast<int>(std::lround(b.footprint / 70)), 2, 12);
      shops(out, rng.between(2, 4), b.footprint * 0.85, "comercial", OwnerClass::comercial);
      apartments(out, b, 2, per_floor, "Sala", 0.75, b.uso, OwnerClass::comercial);
      break;
    }
    case Use::pp4: apartments(out, b, 1, 4, "Apto", 0.8, "residencial", OwnerClass::residencial); break;
    case Use::shop:
      if (rng.chance(0.4))
        shops(out, rng.between(2, 4), b.area_construida() * 0.9, b.uso, OwnerClass::comercial);
      else
        out.units.push_back({"", b.uso, 0, b.area_construida(), OwnerClass::comercial});
      break;
    case Use::galpao:
      if (rng.chance(0.15)) {
        for (int k = 1; k <= 2; ++k)
          out.units.push_back({fmt::format("Galpão {}", k), "industrial", 0, b.area_construida() / 2, OwnerClass::industrial});
      } else {
        out.units.push_back({"", "industrial", 0, b.area_construida(), OwnerClass::industrial});
      }
      break;
    case Use::institucional:
    case Use::religioso: out.units.push_back({"", b.uso, 0, b.area_construida(), OwnerClass::institucional}); break;
    case Use::vacant: break;
  }
  std::vector<double> weights;
  weights.reserve(out.units.size());
  for (const auto& u : out.units) weights.push_back(u.area_privativa);
  split_fraction(out.units, weights);
}

}  // namespace cadastre::store::demo
