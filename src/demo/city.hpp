// The plan of the demo city: a slightly rotated, gently warped street grid around the
// centre, the blocks (quadras) that hold exactly the requested number of lots, streets
// (logradouros) with names, neighbourhoods (bairros) and the smooth fields that make
// places differ (land value, centrality, hills, a creek, an industrial district).
//
// Only the plan lives in memory (a few bytes per block); lots, buildings, units and
// people are regenerated from it block by block (see demo_walk.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "demo/demo.hpp"
#include "demo/block.hpp"
#include "demo/geo.hpp"
#include "demo/rng.hpp"

namespace cadastre::store::demo {

/// A street: a run of consecutive edges of one grid line.
struct Street {
  std::int64_t id = 0;
  bool vertical = false;        // along a column line (grid "north") or a row line (grid "east")
  std::int32_t line = 0;        // line index
  std::int32_t e0 = 0, e1 = 0;  // edges [e0, e1); edge k joins nodes k and k + 1 of the line
  bool avenue = false;
  std::string tipo, nome, codigo, cep;
};

/// A neighbourhood: the built cells of a rectangle of the grid, as one run of cells
/// [lo[k], hi[k]) per grid row j0 + k (rows j0 .. j1 - 1).
struct Bairro {
  std::int64_t id = 0;
  std::int32_t j0 = 0, j1 = 0;
  std::vector<std::int32_t> lo, hi;
  std::string codigo, nome;
};

/// A block in load order (nearest to the centre first); its id is its position + 1.
struct Block {
  std::int32_t i = 0, j = 0;  // grid cell
  std::int32_t lots = 0;      // lots to create (the last block may be partly subdivided)
  std::int32_t bairro = 0;    // index into bairros()
  std::int32_t numero = 0;    // block number inside its setor
};

/// The street in front of one side of a block.
struct Side {
  const Street* street = nullptr;
  bool par = false;  // even numbers (right-hand side walking in the street's direction)
  Vec2 a, b;         // street centreline edge, in the street's direction
  double start = 0;  // distance along the street from its first node to `a`
};

class City {
 public:
  City(std::int64_t lots, std::uint64_t seed, double lon, double lat);

  std::uint64_t seed() const { return seed_; }
  const LocalFrame& frame() const { return frame_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  const std::vector<Street>& streets() const { return streets_; }
  const std::vector<Bairro>& bairros() const { return bairros_; }

  /// The buildable block: the cell between the street centrelines, inset by half of each street's width.
  Quad quad(const Block& b) const;
  /// Side 0 bottom, 1 right, 2 top, 3 left (as in LotPlan).
  Side side(const Block& b, int s) const;
  std::uint64_t block_key(const Block& b) const;
  std::string setor(const Block& b) const;
  std::string quadra_code(const Block& b) const;  // "setor.quadra", e.g. "01.023"
  std::vector<Vec2> street_points(const Street& s) const;
  /// The outline along the street centrelines, through every crossing on it.
  std::vector<Vec2> bairro_ring(const Bairro& b) const;

  Zone zone(Vec2 p) const;
  double valor_m2(Vec2 p, bool avenue) const;
  int melhoramentos(Vec2 p, bool avenue, Rng& rng) const;

 private:
  void build_grid(int half_cols, int half_rows);
  bool place_blocks(std::int64_t lots);
  void build_streets();
  void build_bairros();
  void outline_bairros();

  Vec2 node(int i, int j) const { return nodes_[static_cast<std::size_t>(j) * (cols_ + 1) + i]; }
  bool used(int i, int j) const;
  // Random-stream keys of grid elements, by position relative to the centre: a larger
  // grid (see the constructor) keeps the same draws for the same places.
  enum class Key : std::uint64_t { column = 1, row, column_line, row_line, node, cell };
  std::uint64_t rel(Key what, int a, int b = 0) const;

  std::uint64_t seed_;
  LocalFrame frame_;
  double radius_;  // nominal city radius (m), from the lot count
  double value0_;  // land value at the centre (R$/m²)

  int cols_ = 0, rows_ = 0, ci_ = 0, cj_ = 0;  // cells; (ci_, cj_) is the centre node
  std::vector<Vec2> nodes_;
  std::vector<double> col_half_, row_half_;  // half street widths per line
  std::vector<char> col_avenue_, row_avenue_;
  std::vector<std::int32_t> cell_block_;  // block index or -1
  std::vector<Block> blocks_;

  std::vector<Street> streets_;
  std::vector<std::int32_t> h_street_, v_street_;  // street index per edge, -1 when unused
  std::vector<double> h_start_, v_start_;          // distance from the street start per edge

  std::vector<Bairro> bairros_;
  int setor_width_ = 2;

  struct Fields {
    double decay, bump_sigma, bump1, bump2;
    Vec2 c1, c2, industrial;
    double industrial_r;
    double wave_x, wave_y, hill_x, hill_y;
    double creek_cos, creek_sin, creek_offset, creek_phase;
  } f_{};
};

}  // namespace cadastre::store::demo
