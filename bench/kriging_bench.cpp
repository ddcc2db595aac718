// The C++ half of bench/kriging.sh: generates the samples (fixed seed), kriges them onto
// the grid with cadastre::geostat::krige_grid, and writes what the R half needs.
//
//   kriging_bench OUT_DIR [samples=2000] [side=500] [nmax=20] [threads=0]
//
// Writes OUT_DIR/samples.csv (x,y,z), OUT_DIR/grid.txt (origin_x origin_y cell rows cols
// nugget psill range nmax), OUT_DIR/cpp_pred.bin and OUT_DIR/cpp_var.bin (rows·cols
// doubles, row-major from the north, as Grid::values and Grid::variances); prints the
// seconds krige_grid took (wall clock) and the threads it used.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cadastre/geostat.hpp"

using namespace cadastre::geostat;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "uso: kriging_bench OUT_DIR [amostras] [lado] [nmax] [threads]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const std::size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2000;
  const std::size_t side = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 500;
  const std::size_t nmax = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 20;
  const std::size_t threads = argc > 5 ? std::strtoul(argv[5], nullptr, 10) : 0;

  // 10 km × 10 km in UTM-like metres; a smooth trend plus noise, 64-bit LCG seed 20261126
  std::uint64_t state = 20261126;
  auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  const double x0 = 600000, y0 = 7400000, extent = 10000;
  std::vector<Sample> samples;
  std::ofstream csv(dir + "/samples.csv");
  csv.precision(17);
  csv << "x,y,z\n";
  for (std::size_t i = 0; i < n; ++i) {
    const double x = x0 + extent * uniform(), y = y0 + extent * uniform();
    const double z = 5 + std::sin((x - x0) / 1300) + std::cos((y - y0) / 1700) + 0.3 * uniform();
    samples.push_back({x, y, z});
    csv << x << ',' << y << ',' << z << '\n';
  }
  const Model model{ModelType::spherical, 0.01, 0.9, 3000};
  const GridSpec spec{x0, y0 + extent, extent / static_cast<double>(side), side, side};
  std::ofstream grid(dir + "/grid.txt");
  grid.precision(17);
  grid << spec.origin_x << ' ' << spec.origin_y << ' ' << spec.cell_size << ' ' << spec.rows << ' '
       << spec.cols << ' ' << model.nugget << ' ' << model.psill << ' ' << model.range << ' '
       << nmax << '\n';

  KrigingOptions options;
  options.nmax = nmax;
  options.threads = threads;
  const auto t0 = std::chrono::steady_clock::now();
  const Grid g = krige_grid(samples, model, spec, options);
  const auto t1 = std::chrono::steady_clock::now();
  std::ofstream bin(dir + "/cpp_pred.bin", std::ios::binary);
  bin.write(reinterpret_cast<const char*>(g.values.data()),
            static_cast<std::streamsize>(g.values.size() * sizeof(double)));
  std::ofstream var(dir + "/cpp_var.bin", std::ios::binary);
  var.write(reinterpret_cast<const char*>(g.variances.data()),
            static_cast<std::streamsize>(g.variances.size() * sizeof(double)));
  std::printf("%.3f %zu\n", std::chrono::duration<double>(t1 - t0).count(),
              threads ? threads : static_cast<std::size_t>(std::thread::hardware_concurrency()));
  return 0;
}
