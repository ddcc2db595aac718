// Subdivision of one block into lots. Pure functions of the block size, its urban zone
// and a random stream, so the loader can regenerate the same lots for every table.
#pragma once

#include <cstdint>
#include <vector>

#include "demo/geo.hpp"
#include "demo/rng.hpp"

namespace cadastre::store::demo {

/// What a place in the city is like: the inputs of every "realistic" choice.
struct Zone {
  double centrality = 0;   // distance from the centre / city radius (0 centre, ~1 edge)
  bool industrial = false; // inside the industrial district
  double value = 0;        // land value R$/m² of an ordinary street there
  double value_ratio = 0;  // value / value at the centre
  double hill = 0;         // 0 flat .. 1 hilly
  double flood = 0;        // 0 dry .. 1 next to the creek
};

enum class Situacao : std::uint8_t { meio_quadra, esquina, duas_frentes, encravado, vila };
const char* code(Situacao s);

/// One lot as a rectangle of block coordinates (σ, τ), see BlockMap.
/// Sides and rectangle edges are numbered 0 bottom (τ = 0), 1 right (σ = S), 2 top (τ = T), 3 left (σ = 0).
struct LotPlan {
  double s0 = 0, s1 = 0, t0 = 0, t1 = 0;
  std::uint8_t street_side = 0;  // block side whose street gives the address
  std::uint8_t front_edge = 0;   // rectangle edge measured as testada (an alley for vila lots)
  Situacao situacao = Situacao::meio_quadra;
  std::uint16_t vila_house = 0;  // 1-based house number inside a vila, 0 otherwise
};

struct LayoutParams {
  double frontage_lo = 10, frontage_hi = 15;  // m
  double p_end_zones = 0.35;  // lots also fronting the short sides
  double p_through = 0.1;     // one lot spanning the block (duas_frentes)
  double p_encravado = 0.03;  // one landlocked lot behind another
  double p_vila = 0.03;       // a vila: small houses along a private alley
};
LayoutParams layout_params(const Zone& block_zone);

/// Lays out the lots of a block of S × T metres (σ × τ), in a perimeter-like order:
/// bottom row, right end, top row (right to left), left end. Lots tile the block except
/// for vila alleys. `out` is cleared first.
void layout_block(double S, double T, const LayoutParams& p, Rng& rng, std::vector<LotPlan>& out);

/// All rectangle corners of a block's lots, for inserting the T-junction vertices that make
/// neighbouring polygons share every vertex of a common edge.
class CornerIndex {
 public:
  void build(const std::vector<LotPlan>& lots);
  /// The open ring of a lot (counter-clockwise, in block coordinates σ/τ), with every other
  /// lot corner lying on its edges inserted in order.
  void ring(const LotPlan& lot, std::vector<std::pair<double, double>>& out) const;

 private:
  std::vector<std::pair<double, double>> by_tau_;    // (τ, σ)
  std::vector<std::pair<double, double>> by_sigma_;  // (σ, τ)
};

}  // namespace cadastre::store::demo
