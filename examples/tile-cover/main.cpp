// cadastre-tile-cover: the XYZ tiles a GeoJSON geometry touches (exactly, not its bbox).
//
//   cadastre-tile-cover --zoom 16 lote.geojson          one "z/x/y" line per tile
//   cadastre-tile-cover --zoom 14-17 --format quadkey -  (reads standard input)
//
// Useful to pre-seed a tile cache or to plan an offline field-app download.
#include <cadastre/error.hpp>
#include <cadastre/geom.hpp>
#include <cadastre/tiles.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {
int usage() {
  std::cerr << "uso: cadastre-tile-cover --zoom Z|Z1-Z2 [--format xyz|quadkey] [--max-tiles N] ARQUIVO.geojson|-\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  std::string zoom, format = "xyz", path;
  std::size_t max_tiles = cadastre::tiles::default_max_tiles;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--zoom" && i + 1 < argc) zoom = argv[++i];
    else if (a == "--format" && i + 1 < argc) format = argv[++i];
    else if (a == "--max-tiles" && i + 1 < argc) max_tiles = std::stoul(argv[++i]);
    else if (path.empty() && (a == "-" || a[0] != '-')) path = a;
    else return usage();
  }
  if (zoom.empty() || path.empty() || (format != "xyz" && format != "quadkey")) return usage();
  try {
    std::ostringstream text;
    if (path == "-") {
      text << std::cin.rdbuf();
    } else {
      std::ifstream in(path);
      if (!in) throw cadastre::Error(cadastre::errc::not_found, "arquivo não encontrado: " + path);
      text << in.rdbuf();
    }
    auto dash = zoom.find('-');
    cadastre::tiles::ZoomRange range{std::stoi(zoom.substr(0, dash)),
                                     std::stoi(dash == std::string::npos ? zoom : zoom.substr(dash + 1))};
    auto geometry = cadastre::geom::Geometry::from_geojson(text.str());
    for (const auto& t : cadastre::tiles::tiles_covering(geometry, range, max_tiles)) {
      if (format == "quadkey") std::cout << cadastre::tiles::quadkey(t) << '\n';
      else std::cout << t.z << '/' << t.x << '/' << t.y << '\n';
    }
  } catch (const cadastre::Error& e) {
    std::cerr << "erro [" << cadastre::code_string(e.code()) << "]: " << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "erro: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
