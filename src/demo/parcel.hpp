// What stands on a lot: buildings (edificações) and the property units (imobiliários) the
// tax roll bills. A pure function of the lot, its zone and a random stream.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "demo/block.hpp"
#include "demo/geo.hpp"
#include "demo/rng.hpp"

namespace cadastre::store::demo {

/// One building: a rectangle of block coordinates strictly inside its lot (≥ 0.5 m margins).
struct BuildingPlan {
  double s0 = 0, s1 = 0, t0 = 0, t1 = 0;
  double footprint = 0;  // m²
  int pavimentos = 1;
  const char* padrao = "R1-N";
  int ano = 2000;
  char conservacao = 'c';
  const char* uso = "residencial";
  double area_construida() const { return footprint * pavimentos; }
};

/// Who typically owns a unit (drives the choice between people and companies).
enum class OwnerClass : std::uint8_t { residencial, territorial, comercial, industrial, institucional };

struct UnitPlan {
  std::string complemento;   // empty → NULL
  const char* uso = "residencial";
  std::int64_t fracao_micro = 1000000;  // fração ideal in millionths; the units of a lot sum to 1,000,000
  double area_privativa = -1;           // m²; negative → NULL (vacant land)
  OwnerClass owner = OwnerClass::residencial;
};

struct ParcelPlan {
  std::vector<BuildingPlan> buildings;
  std::vector<UnitPlan> units;
};

/// Plans the buildings and units of `lot`. `avenue`: the lot is addressed on an avenue.
void plan_parcel(const LotPlan& lot, const BlockMap& map, const Zone& zone, bool avenue, Rng& rng, ParcelPlan& out);

/// Shares 1,000,000 millionths among units in proportion to `weights` (all > 0), exactly,
/// every share ≥ 1 (largest remainders go to the first units).
void split_fraction(std::vector<UnitPlan>& units, const std::vector<double>& weights);

}  // namespace cadastre::store::demo
