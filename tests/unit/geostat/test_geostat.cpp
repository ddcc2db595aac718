// Unit tests of cadastre::geostat. Every expected value is computed by hand (shown in the
// comments) or from a model with known parameters.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/geom.hpp"
#include "cadastre/geostat.hpp"

using namespace cadastre;
using namespace cadastre::geostat;

namespace {
errc code_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return errc::internal;  // nothing thrown
}
}  // namespace

TEST_CASE("experimental variogram of a 1-D set, by hand") {
  // x = 0,1,2,3 on a line, z = 1,3,2,5
  // h=1: (1-3)²+(3-2)²+(2-5)² = 4+1+9 = 14, np 3 → γ = 14/6
  // h=2: (1-2)²+(3-5)² = 1+4 = 5,            np 2 → γ = 5/4
  // h=3: (1-5)² = 16,                          np 1 → γ = 8
  std::vector<Sample> s{{0, 0, 1}, {1, 0, 3}, {2, 0, 2}, {3, 0, 5}};
  VariogramOptions o;
  o.cutoff = 3;
  o.lag_width = 1;
  auto v = experimental_variogram(s, o);
  REQUIRE(v.size() == 3);
  CHECK(v[0].np == 3);
  CHECK(v[0].dist == doctest::Approx(1));
  CHECK(v[0].gamma == doctest::Approx(14.0 / 6));
  CHECK(v[0].lower == 0);
  CHECK(v[0].upper == 1);
  CHECK(v[1].np == 2);
  CHECK(v[1].gamma == doctest::Approx(1.25));
  CHECK(v[2].np == 1);
  CHECK(v[2].dist == doctest::Approx(3));
  CHECK(v[2].gamma == doctest::Approx(8));

  // gstat defaults: cutoff = diagonal/3 = 1, width = cutoff/15 → only the h = 1 pairs, in
  // the last bin (14/15, 1]
  auto d = experimental_variogram(s);
  REQUIRE(d.size() == 1);
  CHECK(d[0].np == 3);
  CHECK(d[0].gamma == doctest::Approx(14.0 / 6));
  CHECK(d[0].upper == doctest::Approx(1));
  CHECK(d[0].lower == doctest::Approx(14.0 / 15));
}

TEST_CASE("experimental variogram of a 2-D square, omnidirectional and directional") {
  // (0,0)=1 (1,0)=2 (0,1)=3 (1,1)=6
  // east-west pairs (h=1):   (1-2)²=1, (3-6)²=9
  // north-south pairs (h=1): (1-3)²=4, (2-6)²=16
  // diagonals (h=√2): (1-6)²=25 along 45°, (2-3)²=1 along 135°
  std::vector<Sample> s{{0, 0, 1}, {1, 0, 2}, {0, 1, 3}, {1, 1, 6}};
  VariogramOptions o;
  o.cutoff = 1.5;
  o.lag_width = 1;
  auto v = experimental_variogram(s, o);
  REQUIRE(v.size() == 2);
  CHECK(v[0].np == 4);
  CHECK(v[0].gamma == doctest::Approx(30.0 / 8));
  CHECK(v[1].np == 2);
  CHECK(v[1].dist == doctest::Approx(std::sqrt(2.0)));
  CHECK(v[1].gamma == doctest::Approx(26.0 / 4));

  o.tolerance_deg = 10;
  o.direction_deg = 0;  // north
  v = experimental_variogram(s, o);
  REQUIRE(v.size() == 1);
  CHECK(v[0].np == 2);
  CHECK(v[0].gamma == doctest::Approx(20.0 / 4));
  o.direction_deg = 90;  // east
  v = experimental_variogram(s, o);
  REQUIRE(v.size() == 1);
  CHECK(v[0].gamma == doctest::Approx(10.0 / 4));
  o.direction_deg = 45;
  v = experimental_variogram(s, o);
  REQUIRE(v.size() == 1);
  CHECK(v[0].np == 1);
  CHECK(v[0].gamma == doctest::Approx(12.5));
  o.direction_deg = 135 + 180;  // same axis as 135°
  v = experimental_variogram(s, o);
  REQUIRE(v.size() == 1);
  CHECK(v[0].gamma == doctest::Approx(0.5));

  CHECK(code_of([&] {
          experimental_variogram(std::vector<Sample>{{0, 0, 1}});
        }) == errc::invalid_argument);
  VariogramOptions bad;
  bad.cutoff = -1;
  CHECK(code_of([&] { experimental_variogram(s, bad); }) == errc::invalid_argument);
}

TEST_CASE("model functions at known distances") {
  Model sph{ModelType::spherical, 1, 2, 10};
  CHECK(sph.gamma(0) == 0);
  // h/a = 0.5: 1.5·0.5 − 0.5·0.125 = 0.6875 → 1 + 2·0.6875
  CHECK(sph.gamma(5) == doctest::Approx(2.375));
  CHECK(sph.gamma(10) == doctest::Approx(3));
  CHECK(sph.gamma(20) == doctest::Approx(3));
  CHECK(sph.covariance(0) == doctest::Approx(3));
  CHECK(sph.covariance(5) == doctest::Approx(0.625));
  CHECK(sph.gamma(1e-9) == doctest::Approx(1).epsilon(1e-6));  // the nugget jump

  Model exp{ModelType::exponential, 0, 1, 2};
  CHECK(exp.gamma(2) == doctest::Approx(1 - std::exp(-1.0)));  // 0.63212
  CHECK(exp.gamma(6) == doctest::Approx(1 - std::exp(-3.0)));  // 0.95021: "practical range" 3a
  Model gau{ModelType::gaussian, 0.5, 1, 2};
  CHECK(gau.gamma(1) == doctest::Approx(0.5 + 1 - std::exp(-0.25)));  // 0.72120
  CHECK(gau.gamma(2) == doctest::Approx(0.5 + 1 - std::exp(-1.0)));

  CHECK(code_of([] { validate(Model{ModelType::spherical, -1, 1, 1}); }) == errc::invalid_argument);
  CHECK(code_of([] { validate(Model{ModelType::spherical, 0, 1, 0}); }) == errc::invalid_argument);
}

TEST_CASE("WLS fit recovers the parameters of a synthetic variogram within 1%") {
  for (ModelType t : {ModelType::spherical, ModelType::exponential, ModelType::gaussian}) {
    CAPTURE(static_cast<int>(t));
    const Model truth{t, 0.1, 1.0, t == ModelType::spherical ? 500.0 : 200.0};
    std::vector<Bin> bins;
    for (int j = 1; j <= 30; ++j) {
      const double h = 30.0 * j;
      bins.push_back({h - 30, h, static_cast<std::size_t>(40 + 7 * j), h, truth.gamma(h)});
    }
    auto f = fit_variogram(bins, t);
    CHECK(f.model.type == t);
    CHECK(f.model.nugget == doctest::Approx(0.1).epsilon(0.01));
    CHECK(f.model.psill == doctest::Approx(1.0).epsilon(0.01));
    CHECK(f.model.range == doctest::Approx(truth.range).epsilon(0.01));
    CHECK(f.wsse < 1e-10);
    CHECK(f.converged);
  }
  // bounded: data without a nugget must not give a negative one
  const Model truth{ModelType::exponential, 0, 2, 100};
  std::vector<Bin> bins;
  for (int j = 1; j <= 20; ++j) bins.push_back({0, 0, 10, 20.0 * j, truth.gamma(20.0 * j)});
  auto f = fit_variogram(bins, ModelType::exponential, Model{ModelType::exponential, 1, 1, 10});
  CHECK(f.model.nugget >= 0);
  CHECK(f.model.nugget == doctest::Approx(0).epsilon(1e-6));
  CHECK(f.model.psill == doctest::Approx(2).epsilon(0.01));
  CHECK(f.model.range == doctest::Approx(100).epsilon(0.01));

  // start rule: nugget = ½ γ(first), psill = max γ − nugget, range = max dist / 3
  auto m0 = initial_model(bins, ModelType::spherical);
  CHECK(m0.nugget == doctest::Approx(0.5 * truth.gamma(20)));
  CHECK(m0.psill == doctest::Approx(truth.gamma(400) - m0.nugget));
  CHECK(m0.range == doctest::Approx(400.0 / 3));

  CHECK(code_of([&] { fit_variogram(std::span(bins).first(2), ModelType::spherical); }) ==
        errc::invalid_argument);
}

TEST_CASE("ordinary kriging is an exact interpolator when the nugget is 0") {
  std::vector<Sample> s{{0, 0, 1}, {10, 0, 2}, {0, 10, 4}, {7, 8, 3}};
  Model m{ModelType::exponential, 0, 1, 5};
  auto p = krige(s, m, 10, 0);
  CHECK(p.value == doctest::Approx(2).epsilon(1e-12));
  CHECK(p.variance == doctest::Approx(0).epsilon(1e-12));
  CHECK(std::fabs(p.variance) < 1e-12);
  CHECK(p.neighbours == 4);
}

TEST_CASE("kriging midway between two symmetric points gives their mean") {
  // Sph(0, 1, 100): γ(5) = 0.075 − 0.0000625 = 0.0749375, γ(10) = 0.15 − 0.0005 = 0.1495
  // λ = ½ each; ½·0.1495 + μ = 0.0749375 → μ = 0.0001875; σ² = λᵀγ0 + μ = 0.075125
  std::vector<Sample> s{{0, 0, 2}, {10, 0, 4}};
  Model m{ModelType::spherical, 0, 1, 100};
  auto p = krige(s, m, 5, 0);
  CHECK(p.value == doctest::Approx(3));
  REQUIRE(p.weights.size() == 2);
  CHECK(p.weights[0] == doctest::Approx(0.5));
  CHECK(p.weights[1] == doctest::Approx(0.5));
  CHECK(p.variance == doctest::Approx(0.075125));
}

TEST_CASE("hand-solved 3-point ordinary kriging system") {
  // samples A(0,0)=1, B(3,0)=2, C(0,4)=3; target (1,1); Sph(nugget 0, psill 1, range 10)
  // γ(3) = 0.4365, γ(4) = 0.568, γ(5) = 0.6875; γ(|A-t|=√2) = 0.2107178, γ(√5) = 0.3298200,
  // γ(√10) = 0.4585303. Solving
  //   [0      .4365  .568   1] [λA]   [.2107178]
  //   [.4365  0      .6875  1] [λB] = [.3298200]
  //   [.568   .6875  0      1] [λC]   [.4585303]
  //   [1      1      1      0] [μ ]   [1       ]
  // by Gauss–Jordan gives λ = (0.5085795, 0.2906790, 0.2007415), μ = −0.0301847:
  // prediction 1·λA + 2·λB + 3·λC = 1.6921619, variance λᵀγ0 + μ = 0.2648999.
  std::vector<Sample> s{{0, 0, 1}, {3, 0, 2}, {0, 4, 3}};
  Model m{ModelType::spherical, 0, 1, 10};
  auto p = krige(s, m, 1, 1);
  REQUIRE(p.weights.size() == 3);
  double sum = 0, wa = 0, wb = 0, wc = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    sum += p.weights[k];
    (p.indices[k] == 0 ? wa : p.indices[k] == 1 ? wb : wc) = p.weights[k];
  }
  CHECK(sum == doctest::Approx(1).epsilon(1e-12));
  CHECK(wa == doctest::Approx(0.5085795429).epsilon(1e-8));
  CHECK(wb == doctest::Approx(0.2906789734).epsilon(1e-8));
  CHECK(wc == doctest::Approx(0.2007414837).epsilon(1e-8));
  CHECK(p.value == doctest::Approx(1.6921619408).epsilon(1e-8));
  CHECK(p.variance == doctest::Approx(0.2648998508).epsilon(1e-8));

  // neighbourhood: nmax 1 → the nearest sample alone, weight 1
  KrigingOptions o;
  o.nmax = 1;
  auto q = krige(s, m, 1, 1, o);
  CHECK(q.neighbours == 1);
  CHECK(q.value == doctest::Approx(1));
  CHECK(q.variance == doctest::Approx(2 * m.gamma(std::sqrt(2.0))));
  // maxdist excluding C (distance √10 ≈ 3.16): two neighbours
  o.nmax = 0;
  o.maxdist = 3;
  CHECK(krige(s, m, 1, 1, o).neighbours == 2);
  o.maxdist = 0.5;
  CHECK(code_of([&] { krige(s, m, 1, 1, o); }) == errc::unprocessable);
}

TEST_CASE("duplicate points are merged or refused") {
  std::vector<Sample> s{{0, 0, 1}, {5, 5, 2}, {0, 0.0005, 3}, {9, 9, 4}};
  auto m = handle_duplicates(s, Duplicates::merge, 0.001);
  REQUIRE(m.size() == 3);
  CHECK(m[0].x == 0);
  CHECK(m[0].y == doctest::Approx(0.00025));
  CHECK(m[0].value == doctest::Approx(2));  // mean of 1 and 3
  CHECK(m[1] == Sample{5, 5, 2});
  CHECK(m[2] == Sample{9, 9, 4});
  // exact-location tolerance: these two are 0.5 mm apart, not duplicates
  CHECK(handle_duplicates(s, Duplicates::refuse, 0).size() == 4);
  try {
    handle_duplicates(s, Duplicates::refuse, 0.001);
    FAIL("duplicates not refused");
  } catch (const Error& e) {
    CHECK(e.code() == errc::unprocessable);
    CHECK(e.field() == "amostras");
    CHECK(std::string(e.what()).find("#0, #2") != std::string::npos);
  }
  CHECK(code_of([&] { handle_duplicates(s, Duplicates::merge, -1); }) == errc::invalid_argument);
}

TEST_CASE("a singular kriging system is an error, never NaN") {
  // all neighbours at one place
  std::vector<Sample> s{{1, 1, 1}, {1, 1, 2}, {1, 1, 3}};
  Model m{ModelType::spherical, 0, 1, 10};
  try {
    krige(s, m, 0, 0);
    FAIL("singular system accepted");
  } catch (const Error& e) {
    CHECK(e.code() == errc::unprocessable);
    CHECK(std::string(e.what()).find("singular") != std::string::npos);
  }
  // a model without sill: every covariance is 0
  std::vector<Sample> t{{0, 0, 1}, {4, 0, 2}};
  CHECK(code_of([&] {
          krige(t, Model{ModelType::spherical, 0, 0, 10}, 1, 0);
        }) == errc::unprocessable);
  // the grid names the cell
  GridSpec g{0, 2, 1, 2, 2};
  try {
    krige_grid(s, m, g);
    FAIL("singular grid accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("linha 0, coluna 0") != std::string::npos);
  }
}

TEST_CASE("kriging on a grid") {
  std::vector<Sample> s{{0.5, 0.5, 1}, {2.5, 0.5, 2}, {0.5, 2.5, 4}, {2.5, 2.5, 3}};
  Model m{ModelType::spherical, 0, 1, 10};
  GridSpec spec{0, 3, 1, 3, 3};  // upper-left (0, 3), 1 m cells, centres 0.5 .. 2.5
  auto g = krige_grid(s, m, spec);
  CHECK(g.rows == 3);
  CHECK(g.cols == 3);
  REQUIRE(g.values.size() == 9);
  CHECK(g.x_of(0) == 0.5);
  CHECK(g.y_of(0) == 2.5);
  CHECK(g.value(0, 0) == doctest::Approx(4));  // (0.5, 2.5)
  CHECK(g.value(2, 2) == doctest::Approx(2));  // (2.5, 0.5)
  CHECK(g.variance(0, 0) == doctest::Approx(0).epsilon(1e-12));
  CHECK(g.value(1, 1) == doctest::Approx(2.5));  // centre: symmetric weights ¼
  CHECK(g.variance(1, 1) > 0);
  for (double v : g.variances) CHECK(std::isfinite(v));

  KrigingOptions o;
  o.maxdist = 0.1;
  CHECK(code_of([&] { krige_grid(s, m, spec, o); }) == errc::unprocessable);
  o.nodata = -9999;
  auto h = krige_grid(s, m, spec, o);
  CHECK(h.value(0, 0) == doctest::Approx(4));
  CHECK(h.value(1, 1) == -9999);
  CHECK(h.variance(1, 1) == -9999);
  CHECK(code_of([&] { krige_grid(s, m, GridSpec{0, 0, 0, 1, 1}); }) == errc::invalid_argument);
}

TEST_CASE("lon/lat samples are projected to the UTM zone of their centroid") {
  // Brasília (lon −47.9) is in UTM zone 23 → SIRGAS 2000 / UTM 23S, EPSG:31983
  std::vector<Sample> s{{-47.90, -15.80, 1}, {-47.89, -15.80, 2}, {-47.90, -15.79, 3}};
  auto p = project_to_utm(s);
  CHECK(p.epsg == 31983);
  REQUIRE(p.samples.size() == 3);
  CHECK(p.samples[1].value == 2);
  const double utm = std::hypot(p.samples[1].x - p.samples[0].x, p.samples[1].y - p.samples[0].y);
  const double geo = geom::geodesic_distance_m({-47.90, -15.80}, {-47.89, -15.80});
  CHECK(utm == doctest::Approx(geo).epsilon(0.002));  // UTM scale factor, ≈ 1.07 km
  CHECK(utm > 1000);
  CHECK(code_of([] { project_to_utm(std::vector<Sample>{}); }) == errc::invalid_argument);
}

TEST_CASE("pipeline: samples → variogram → fit → grid, all finite") {
  // a smooth field sampled at 200 deterministic pseudo-random places in a 1 km square
  std::vector<Sample> s;
  unsigned state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return static_cast<double>((state >> 8) & 0xFFFF) / 65535.0;
  };
  for (int i = 0; i < 200; ++i) {
    double x = 1000 * next(), y = 1000 * next();
    s.push_back({x, y, std::sin(x / 200) + std::cos(y / 300) + 0.05 * (next() - 0.5)});
  }
  s = handle_duplicates(s, Duplicates::merge, 0.01);
  auto v = experimental_variogram(s);  // gstat defaults: cutoff √2·1000/3, 15 lags
  CHECK(v.size() >= 10);
  for (std::size_t k = 1; k < v.size(); ++k) CHECK(v[k].dist > v[k - 1].dist);
  auto f = fit_variogram(v, ModelType::spherical);
  CHECK(f.model.psill > 0);
  CHECK(f.model.range > 0);
  KrigingOptions o;
  o.nmax = 16;
  auto g = krige_grid(s, f.model, GridSpec{0, 1000, 50, 20, 20}, o);
  for (std::size_t k = 0; k < g.values.size(); ++k) {
    CHECK(std::isfinite(g.values[k]));
    CHECK(g.variances[k] >= 0);
    CHECK(g.variances[k] <= f.model.sill() * 1.5);
  }
  // a smooth field: the kriged value near a sample is close to it
  auto p = krige(s, f.model, s[0].x + 1, s[0].y, o);
  CHECK(p.value == doctest::Approx(s[0].value).epsilon(0.2));
}
