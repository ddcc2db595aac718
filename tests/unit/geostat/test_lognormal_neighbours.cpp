// Lagrange multiplier, lognormal back-transform, the NeighbourIndex against a scan, and the
// threaded grid against krige() — values by hand (shown) or exact identities.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/geostat.hpp"

using namespace cadastre;
using namespace cadastre::geostat;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The reference neighbourhood: every sample, by (d², index), the first nmax.
std::vector<std::size_t> brute(const std::vector<Sample>& s, double x, double y,
                               std::size_t nmax, double maxdist) {
  struct C {
    double d2;
    std::size_t i;
  };
  std::vector<C> all;
  const double md2 = std::isfinite(maxdist) ? maxdist * maxdist : inf;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double dx = s[i].x - x, dy = s[i].y - y;
    const double d2 = dx * dx + dy * dy;
    if (d2 <= md2) all.push_back({d2, i});
  }
  std::sort(all.begin(), all.end(),
            [](const C& a, const C& b) { return a.d2 < b.d2 || (a.d2 == b.d2 && a.i < b.i); });
  if (nmax > 0 && all.size() > nmax) all.resize(nmax);
  std::vector<std::size_t> out;
  for (const auto& c : all) out.push_back(c.i);
  return out;
}

// A fixed-seed generator (64-bit LCG), so the test data never change.
struct Lcg {
  std::uint64_t state;
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  }
};

std::vector<Sample> random_samples(std::size_t n, std::uint64_t seed) {
  Lcg g{seed};
  std::vector<Sample> s;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = 1000 * g.next(), y = 800 * g.next();
    s.push_back({x, y, std::sin(x / 150) + std::cos(y / 200) + 0.1 * g.next()});
  }
  return s;
}

}  // namespace

TEST_CASE("the Lagrange multiplier in variogram form, by hand") {
  // Two symmetric points (test_geostat.cpp): ½·γ(10) + μ = γ(5) → μ = 0.0749375 − 0.07475
  // = 0.0001875, and σ² = λᵀγ0 + μ.
  Model m{ModelType::spherical, 0, 1, 100};
  auto p = krige(std::vector<Sample>{{0, 0, 2}, {10, 0, 4}}, m, 5, 0);
  CHECK(p.lagrange == doctest::Approx(0.0001875).epsilon(1e-10));
  // The 3-point system of test_geostat.cpp, solved by Gauss–Jordan in variogram form:
  // λ = (0.5085795429, 0.2906789734, 0.2007414837), μ = −0.0301847138.
  auto q = krige(std::vector<Sample>{{0, 0, 1}, {3, 0, 2}, {0, 4, 3}},
                 Model{ModelType::spherical, 0, 1, 10}, 1, 1);
  CHECK(q.lagrange == doctest::Approx(-0.0301847138).epsilon(1e-8));
  // variance = λᵀγ0 + μ
  double lg = 0;
  const std::vector<double> g0{Model{ModelType::spherical, 0, 1, 10}.gamma(std::sqrt(2.0)),
                               Model{ModelType::spherical, 0, 1, 10}.gamma(std::sqrt(5.0)),
                               Model{ModelType::spherical, 0, 1, 10}.gamma(std::sqrt(10.0))};
  for (std::size_t k = 0; k < 3; ++k) lg += q.weights[k] * g0[q.indices[k]];
  CHECK(q.variance == doctest::Approx(lg + q.lagrange).epsilon(1e-12));
}

TEST_CASE("lognormal back-transform Z = exp(Ŷ + σ²/2 − μ), Var = Z²(exp σ² − 1)") {
  // Ŷ = 1, σ² = 0.5, μ = 0.1: Z = exp(1 + 0.25 − 0.1) = exp(1.15) = 3.158192909689767
  // Var = exp(2.3) · (exp(0.5) − 1) = 9.974182455 · 0.648721271 = 6.470464316282328
  auto e = lognormal_back_transform(1.0, 0.5, 0.1);
  CHECK(e.value == doctest::Approx(3.158192909689767).epsilon(1e-14));
  CHECK(e.variance == doctest::Approx(6.470464316282328).epsilon(1e-14));
  // simple kriging (μ = 0) and σ² = 0: the median and mean coincide, exp(Ŷ), variance 0
  auto f = lognormal_back_transform(2.0, 0.0, 0.0);
  CHECK(f.value == doctest::Approx(std::exp(2.0)));
  CHECK(f.variance == 0);
  // the hand-solved 3-point system on ln z: Ŷ = 1.6921619408, σ² = 0.2648998508,
  // μ = −0.0301847138 → Z = exp(1.6921619408 + 0.1324499254 + 0.0301847138)
  //   = exp(1.8547965800) = 6.390398184; Var = 6.390398184² · (exp(0.2648998508) − 1)
  //   = 40.83718891 · 0.3033003 = 12.38593757
  auto p = krige(std::vector<Sample>{{0, 0, 1}, {3, 0, 2}, {0, 4, 3}},
                 Model{ModelType::spherical, 0, 1, 10}, 1, 1);
  auto z = lognormal_back_transform(p);
  CHECK(z.value == doctest::Approx(6.390398183948551).epsilon(1e-9));
  CHECK(z.variance == doctest::Approx(12.38593756840654).epsilon(1e-9));

  auto field_of = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const Error& err) {
      return err.field();
    }
    return "nothing thrown";
  };
  CHECK(field_of([] { lognormal_back_transform(1, -0.1, 0); }) == "variancia");
  CHECK(field_of([] { lognormal_back_transform(NAN, 0.1, 0); }) == "valor");
  CHECK(field_of([] { lognormal_back_transform(800, 0.1, 0); }) == "valor");  // overflow
}

TEST_CASE("lognormal back-transform of a grid keeps nodata cells and names a bad cell") {
  std::vector<Sample> s{{0.5, 0.5, 1}, {2.5, 0.5, 2}, {0.5, 2.5, 1.5}, {2.5, 2.5, 0.5}};
  Model m{ModelType::exponential, 0.05, 0.5, 2};
  KrigingOptions o;
  o.maxdist = 1.2;  // the centre cell (1.5, 1.5) is √2 ≈ 1.41 from every sample
  o.nodata = -9999;
  Grid g = krige_grid(s, m, GridSpec{0, 3, 1, 3, 3}, o);
  REQUIRE(g.lagranges.size() == 9);
  REQUIRE(g.neighbours.size() == 9);
  CHECK_FALSE(g.has_value(1, 1));
  CHECK(g.has_value(0, 0));
  Grid z = lognormal_back_transform(g);
  CHECK(z.value(1, 1) == -9999);
  CHECK(z.variance(1, 1) == -9999);
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 3; ++c) {
      if (!g.has_value(r, c)) continue;
      auto e = lognormal_back_transform(g.value(r, c), g.variance(r, c), g.lagrange(r, c));
      CHECK(z.value(r, c) == e.value);
      CHECK(z.variance(r, c) == e.variance);
      // and each cell is krige() at its centre, Lagrange multiplier included
      auto p = krige(s, m, g.x_of(c), g.y_of(r), o);
      CHECK(g.lagrange(r, c) == p.lagrange);
    }
  Grid broken = g;
  broken.lagranges.pop_back();
  CHECK_THROWS_AS(lognormal_back_transform(broken), Error);
  Grid huge = g;
  huge.values[5] = 1000;  // exp(1000) overflows
  try {
    lognormal_back_transform(huge);
    FAIL("overflow accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("linha 1, coluna 2") != std::string::npos);
  }
}

TEST_CASE("NeighbourIndex returns exactly the scan's neighbours, ties included") {
  SUBCASE("random samples") {
    const auto s = random_samples(700, 42);
    const NeighbourIndex index(s);
    CHECK(index.size() == 700);
    Lcg g{7};
    std::size_t checked = 0;
    for (int q = 0; q < 300; ++q) {
      const double x = -100 + 1200 * g.next(), y = -100 + 1000 * g.next();
      for (std::size_t nmax : {0, 1, 5, 16, 64})
        for (double md : {inf, 30.0, 120.0}) {
          CHECK(index.find(x, y, nmax, md) == brute(s, x, y, nmax, md));
          ++checked;
        }
    }
    CHECK(checked == 300 * 15);
  }
  SUBCASE("a lattice: many samples at the same distance, the lower index wins") {
    // a 20×20 lattice of 10 m, listed in a scrambled order so index ≠ position
    std::vector<Sample> s;
    for (int k = 0; k < 400; ++k) {
      const int j = (k * 37) % 400;  // 37 is coprime with 400: a permutation
      s.push_back({10.0 * (j % 20), 10.0 * (j / 20), static_cast<double>(k)});
    }
    const NeighbourIndex index(s);
    // lattice points and cell centres: 4 (or 8) samples tie at each distance
    for (double x = 0; x <= 190; x += 5)
      for (double y = 0; y <= 190; y += 5)
        for (std::size_t nmax : {1, 2, 3, 6, 10})
          CHECK(index.find(x, y, nmax, inf) == brute(s, x, y, nmax, inf));
    // maxdist exactly on a ring of samples: d² = 100 ≤ 100 keeps them
    CHECK(index.find(50, 50, 0, 10.0) == brute(s, 50, 50, 0, 10.0));
    CHECK(index.find(50, 50, 0, 10.0).size() == 5);
  }
  SUBCASE("empty index") {
    const NeighbourIndex index(std::vector<Sample>{});
    CHECK(index.find(0, 0, 5).empty());
  }
}

TEST_CASE("krige_grid equals krige() cell by cell, whatever the threads") {
  const auto s = random_samples(300, 2024);
  Model m{ModelType::spherical, 0.05, 1.0, 250};
  GridSpec spec{-20, 820, 24, 36, 45};
  KrigingOptions o;
  o.nmax = 12;
  o.threads = 1;
  const Grid one = krige_grid(s, m, spec, o);
  o.threads = 3;
  const Grid three = krige_grid(s, m, spec, o);
  CHECK(one.values == three.values);  // bit for bit
  CHECK(one.variances == three.variances);
  CHECK(one.lagranges == three.lagranges);
  CHECK(one.neighbours == three.neighbours);
  std::size_t same = 0;
  for (std::size_t r = 0; r < spec.rows; ++r)
    for (std::size_t c = 0; c < spec.cols; ++c) {
      const Prediction p = krige(s, m, one.x_of(c), one.y_of(r), o);
      same += p.value == one.value(r, c) && p.variance == one.variance(r, c) &&
              p.lagrange == one.lagrange(r, c) && p.neighbours == 12;
    }
  CHECK(same == spec.rows * spec.cols);

  // the error of the first failing cell in row-major order, whatever the threads:
  // a maxdist that leaves the first rows' western cells without neighbours
  o.maxdist = 30;
  for (std::size_t t : {1, 2, 4}) {
    o.threads = t;
    std::string first;
    try {
      krige_grid(s, m, spec, o);
    } catch (const Error& e) {
      first = e.what();
    }
    o.threads = 1;
    std::string serial;
    try {
      krige_grid(s, m, spec, o);
    } catch (const Error& e) {
      serial = e.what();
    }
    CHECK_FALSE(first.empty());
    CHECK(first == serial);
  }
}

TEST_CASE("nodata: a point without neighbours, and a masked grid") {
  const auto s = random_samples(200, 99);
  Model m{ModelType::exponential, 0.02, 0.8, 120};
  KrigingOptions o;
  o.nmax = 10;
  o.maxdist = 25;
  // far outside the samples: an error without nodata, a nodata prediction with it
  CHECK_THROWS_AS(krige(s, m, -500, -500, o), Error);
  o.nodata = -1;
  const Prediction far = krige(s, m, -500, -500, o);
  CHECK(far.neighbours == 0);
  CHECK(far.value == -1);
  CHECK(far.variance == -1);
  CHECK(far.lagrange == 0);
  CHECK(far.weights.empty());

  // the mask: a checkerboard; masked cells are nodata, the others equal the unmasked grid
  const GridSpec spec{0, 800, 40, 20, 25};
  std::vector<std::uint8_t> mask(spec.rows * spec.cols);
  for (std::size_t k = 0; k < mask.size(); ++k) mask[k] = static_cast<std::uint8_t>((k / 25 + k % 25) % 2);
  const Grid all = krige_grid(s, m, spec, o);
  const Grid some = krige_grid(s, m, spec, o, mask);
  for (std::size_t k = 0; k < mask.size(); ++k) {
    if (mask[k]) {
      CHECK(some.values[k] == all.values[k]);
      CHECK(some.neighbours[k] == all.neighbours[k]);
    } else {
      CHECK(some.values[k] == -1);
      CHECK(some.neighbours[k] == 0);
    }
  }
  auto field_of = [&](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const Error& e) {
      return e.field();
    }
    return "nothing thrown";
  };
  mask.pop_back();
  CHECK(field_of([&] { krige_grid(s, m, spec, o, mask); }) == "mascara");
  mask.push_back(1);
  o.nodata.reset();
  CHECK(field_of([&] { krige_grid(s, m, spec, o, mask); }) == "nodata");
}
