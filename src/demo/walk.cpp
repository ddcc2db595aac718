#include "demo/walk.hpp"

#include <fmt/format.h>

#include <cmath>

namespace cadastre::store::demo {
namespace {

// Street number: the distance in metres from the start of the street to the middle of the
// lot's frontage, even on the right-hand side and odd on the left (the usual Brazilian
// metric numbering), so numbers grow along the street.
std::int64_t street_number(const Side& side, Vec2 front) {
  const Vec2 dir = side.b - side.a;
  const double d = side.start + dot(front - side.a, dir) / length(dir);
  const auto even = 2 * static_cast<std::int64_t>(std::floor(std::max(d, 0.0) / 2));
  return side.par ? std::max<std::int64_t>(even, 2) : even + 1;
}

Vec2 front_point(const LotPlan& l, const BlockMap& map) {
  const double sm = (l.s0 + l.s1) / 2, tm = (l.t0 + l.t1) / 2;
  switch (l.street_side) {
    case 0: return map.at(sm, 0);
    case 1: return map.at(map.S(), tm);
    case 2: return map.at(sm, map.T());
    default: return map.at(0, tm);
  }
}

double testada(const LotPlan& l, const BlockMap& map) {
  switch (l.front_edge) {
    case 0: return length(map.at(l.s1, l.t0) - map.at(l.s0, l.t0));
    case 1: return length(map.at(l.s1, l.t1) - map.at(l.s1, l.t0));
    case 2: return length(map.at(l.s1, l.t1) - map.at(l.s0, l.t1));
    default: return length(map.at(l.s0, l.t1) - map.at(l.s0, l.t0));
  }
}

const char* topografia(const Zone& z, Rng& r) {
  // Mostly flat; slopes more frequent in the hilly parts of the city.
  if (!r.chance(0.12 + 0.45 * z.hill * z.hill)) return "plano";
  static constexpr const char* kCodes[] = {
      "declive_ate_5",       "aclive_ate_10",  "declive_5_10",     "aclive_10_20",    "declive_10_20",
      "abaixo_nivel_ate_1m", "acima_nivel_ate_2m", "abaixo_nivel_1_a_2_5m", "acima_nivel_2_a_4m",
      "declive_acima_20",    "aclive_acima_20", "abaixo_nivel_2_5_a_4m"};
  return kCodes[r.weighted({30, 25, 15, 8, 7, 5, 5, 2, 1.5, 1, 0.5, 0.5})];
}

const char* pedologia(const Zone& z, Rng& r) {
  // Dry, except on the creek's floodplain.
  const double u = r.uniform();
  if (z.flood > 0.6) return u < 0.35 ? "inundavel_acesso" : u < 0.55 ? "inundavel_periodico" : u < 0.6 ? "alagado_permanente" : "seco";
  if (z.flood > 0.25) return u < 0.15 ? "inundavel_acesso" : u < 0.2 ? "inundavel_periodico" : "seco";
  return u < 0.01 ? "inundavel_acesso" : "seco";
}

}  // namespace

void walk_lots(const City& city, unsigned need, const std::function<void(const LotRow&)>& visit) {
  std::vector<LotPlan> plans;
  CornerIndex corners;
  std::vector<std::pair<double, double>> ring;
  LotRow row;
  std::int64_t lot_id = 0;
  const auto& blocks = city.blocks();
  for (std::size_t q = 0; q < blocks.size(); ++q) {
    const Block& b = blocks[q];
    const BlockMap map(city.quad(b));
    Rng rng(city.block_key(b));
    layout_block(map.S(), map.T(), layout_params(city.zone(map.at(map.S() / 2, map.T() / 2))), rng, plans);
    plans.resize(static_cast<std::size_t>(b.lots));  // the last block may be partly subdivided
    if (need & kNeedRing) corners.build(plans);
    const Side sides[4] = {city.side(b, 0), city.side(b, 1), city.side(b, 2), city.side(b, 3)};
    const std::string quadra = city.quadra_code(b);
    row.map = &map;
    row.quadra_id = static_cast<std::int64_t>(q) + 1;
    for (std::size_t k = 0; k < plans.size(); ++k) {
      const LotPlan& l = plans[k];
      const Side& side = sides[l.street_side];
      row.id = ++lot_id;
      row.plan = &l;
      row.face_id = 4 * static_cast<std::int64_t>(q) + l.street_side + 1;
      row.logradouro_id = side.street->id;
      row.avenue = side.street->avenue;
      row.numero = street_number(side, front_point(l, map));
      row.inscricao = fmt::format("{}.{:04d}", quadra, k + 1);
      row.area = map.rect_area(l.s0, l.s1, l.t0, l.t1);
      row.testada = testada(l, map);
      row.profundidade = row.area / row.testada;  // profundidade equivalente
      row.zone = city.zone(map.at((l.s0 + l.s1) / 2, (l.t0 + l.t1) / 2));
      Rng lr(city.seed(), Stream::lot, static_cast<std::uint64_t>(row.id));
      row.topografia = topografia(row.zone, lr);
      row.pedologia = pedologia(row.zone, lr);
      if (need & kNeedRing) {
        corners.ring(l, ring);
        row.ring.clear();
        for (auto [s, t] : ring) row.ring.push_back(map.at(s, t));
      }
      if (need & kNeedParcel) {
        Rng pr(city.seed(), Stream::parcel, static_cast<std::uint64_t>(row.id));
        plan_parcel(l, map, row.zone, row.avenue, pr, row.parcel);
      }
      visit(row);
    }
  }
}

}  // namespace cadastre::store::demo
