// The public check of the geostat module: gstat on the Meuse data set, log(zinc).
//
// Reference values: R 4.2.2, sp 1.6-0, gstat 2.1-0 (Debian bookworm r-cran-gstat), printed
// with options(digits = 15) by these commands:
//   library(sp); library(gstat); data(meuse); coordinates(meuse) <- ~x+y
//   v <- variogram(log(zinc)~1, meuse)                      # the 15 bins below
//   m <- fit.variogram(v, vgm(1, "Sph", 900, 1))            # psill, range, attr(m, "SSErr")
//   nd <- data.frame(x = c(179500, 180000, 181000, 178700, 180500),
//                    y = c(330000, 331500, 333000, 330500, 332000)); coordinates(nd) <- ~x+y
//   krige(log(zinc)~1, meuse, nd, m)                        # all 155 samples
//   krige(log(zinc)~1, meuse, nd, m, nmax = 20)             # the 20 nearest
//   for (i in 1:6) m <- fit.variogram(v, m)                 # gstat restarted: its fixed point
// The data are in meuse_data.hpp (generated from data(meuse), see there).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cadastre/geostat.hpp"
#include "meuse_data.hpp"

using namespace cadastre::geostat;

namespace {

std::vector<Sample> log_zinc() {
  std::vector<Sample> s;
  for (const auto& r : meuse::rows) s.push_back({r.x, r.y, std::log(r.zinc)});
  return s;
}

struct GstatBin {
  std::size_t np;
  double dist, gamma;
};

// variogram(log(zinc)~1, meuse): np, dist, gamma
constexpr GstatBin gstat_bins[] = {
    {57, 79.2924374558266, 0.123447934906159},   {299, 163.9736655588686, 0.216218485296508},
    {419, 267.3648276703410, 0.302785875594544}, {457, 372.7354223908294, 0.412144760382340},
    {547, 478.4766950470598, 0.463412786177528}, {533, 585.3405810954140, 0.564693270655249},
    {574, 693.1452555424531, 0.568968263208201}, {564, 796.1836488512738, 0.618676858687584},
    {589, 903.1464983002812, 0.647147887486358}, {543, 1011.2917733908821, 0.691570488111765},
    {500, 1117.8623455181942, 0.703398350535865}, {477, 1221.3280987659930, 0.603877036498903},
    {452, 1329.1640650697661, 0.651715776234570}, {457, 1437.2562032833191, 0.566531778305528},
    {415, 1543.2024819996757, 0.574822734067877},
};

// the gstat model of fit.variogram(v, vgm(1, "Sph", 900, 1)) (one call)
constexpr double gstat_nugget = 0.0506624268192143, gstat_psill = 0.5906078022101191,
                 gstat_range = 897.020909797001, gstat_sserr = 9.01119439892861e-06;
// gstat's fixed point: fit.variogram restarted from its own result until it stops moving
constexpr double fixed_nugget = 0.0506604400842189, fixed_psill = 0.590605834523179,
                 fixed_range = 897.006422330448, fixed_sserr = 9.01119432423378e-06;

struct GstatKrige {
  double x, y, pred, var;
};
constexpr GstatKrige krige_all[] = {
    {179500, 330000, 5.19356771873517, 0.148895458597145},
    {180000, 331500, 5.04882251514583, 0.211069802443717},
    {181000, 333000, 5.53284494597643, 0.137384837516151},
    {178700, 330500, 6.25708456694393, 0.146946033873443},
    {180500, 332000, 5.07808575418248, 0.155805464456799},
};
constexpr GstatKrige krige_nmax20[] = {
    {179500, 330000, 5.19156639885186, 0.149384317630902},
    {180000, 331500, 5.19213673083477, 0.214811828221385},
    {181000, 333000, 5.55221430869869, 0.137896200705620},
    {178700, 330500, 6.24582760510065, 0.147310209170935},
    {180500, 332000, 5.06536742522493, 0.157309232886525},
};

}  // namespace

TEST_CASE("Meuse log(zinc): the experimental variogram equals gstat's, bin by bin") {
  // Same defaults as gstat: cutoff = bbox diagonal / 3, 15 bins of cutoff / 15, a pair in
  // the bin with lower < h ≤ upper.
  const auto bins = experimental_variogram(log_zinc());
  REQUIRE(bins.size() == 15);
  for (std::size_t k = 0; k < 15; ++k) {
    CAPTURE(k);
    CHECK(bins[k].np == gstat_bins[k].np);
    CHECK(bins[k].dist == doctest::Approx(gstat_bins[k].dist).epsilon(1e-12));
    CHECK(bins[k].gamma == doctest::Approx(gstat_bins[k].gamma).epsilon(1e-12));
  }
}

TEST_CASE("Meuse log(zinc): the spherical fit is gstat's, converged") {
  const auto bins = experimental_variogram(log_zinc());
  const FitResult f =
      fit_variogram(bins, ModelType::spherical, Model{ModelType::spherical, 1, 1, 900});
  CHECK(f.converged);
  // gstat's fit (fit.c, wls_fit) is Gauss–Newton with steps capped at 20% of the parameter
  // vector, and it stops at the first free step whose relative decrease of the weighted
  // SSE is below fit_limit = 1e-5 (defaults.h, DEF_fit_limit) — not at the minimum. From
  // Sph(1, 900, 1) that leaves it about 4e-5 (relative) short on the nugget: its SSErr,
  // 9.01119439892861e-06, is above ours. Restarted from its own result, gstat moves on and
  // settles on the fixed point below, which is where this fit stops (tolerance 1e-16 on
  // the WSSE, 1e-8 on the parameters). So: the fixed point to 1e-7, the single call to
  // its own stopping error (1e-4), and our WSSE never above gstat's.
  CHECK(f.model.nugget == doctest::Approx(fixed_nugget).epsilon(1e-7));
  CHECK(f.model.psill == doctest::Approx(fixed_psill).epsilon(1e-7));
  CHECK(f.model.range == doctest::Approx(fixed_range).epsilon(1e-7));
  CHECK(f.wsse == doctest::Approx(fixed_sserr).epsilon(1e-12));
  CHECK(f.wsse <= gstat_sserr);
  CHECK(f.model.nugget == doctest::Approx(gstat_nugget).epsilon(1e-4));
  CHECK(f.model.psill == doctest::Approx(gstat_psill).epsilon(1e-4));
  CHECK(f.model.range == doctest::Approx(gstat_range).epsilon(1e-4));
}

TEST_CASE("Meuse log(zinc): ordinary kriging equals gstat's krige to 1e-6") {
  // gstat's own model, so that only the kriging is compared
  const Model m{ModelType::spherical, gstat_nugget, gstat_psill, gstat_range};
  const auto s = log_zinc();
  for (const auto& k : krige_all) {
    CAPTURE(k.x);
    const Prediction p = krige(s, m, k.x, k.y);
    CHECK(p.neighbours == 155);
    CHECK(std::fabs(p.value - k.pred) < 1e-6);
    CHECK(std::fabs(p.variance - k.var) < 1e-6);
    CHECK(std::fabs(p.value - k.pred) < 1e-12);  // in fact: to round-off
  }
  KrigingOptions o;
  o.nmax = 20;
  for (const auto& k : krige_nmax20) {
    CAPTURE(k.x);
    const Prediction p = krige(s, m, k.x, k.y, o);
    CHECK(p.neighbours == 20);
    CHECK(std::fabs(p.value - k.pred) < 1e-6);
    CHECK(std::fabs(p.variance - k.var) < 1e-6);
  }
  // and the grid path (NeighbourIndex, threads) gives the same at those points: a 1×1
  // grid centred on each
  for (const auto& k : krige_nmax20) {
    const Grid g = krige_grid(s, m, GridSpec{k.x - 5, k.y + 5, 10, 1, 1}, o);
    CHECK(std::fabs(g.value(0, 0) - k.pred) < 1e-6);
    CHECK(std::fabs(g.variance(0, 0) - k.var) < 1e-6);
  }
}
