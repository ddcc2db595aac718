// A project with one polygon layer for the tile suite, and the tile helpers: the XYZ tile
// of a point (the library's tile math), tile paths and the MVT reader of the cadastre's
// tile suite (tests/integration/tiles/mvt_reader.hpp, which trusts no encoder).
#pragma once

#include <string>

#include "cadastre/tiles.hpp"
#include "integration/platform/workspace.hpp"
#include "integration/tiles/mvt_reader.hpp"

namespace cadastre::test {

struct TileLayer {
  explicit TileLayer(PlatformFixture& f)
      : fx(f),
        w(f, f.admin("alfa", "mapas@alfa.gov.br")),
        project(w.project("Mapa")),
        layer(w.layer(project, "lotes")) {}

  PlatformFixture& fx;
  Workspace w;
  std::int64_t project, layer;

  static std::string n(std::int64_t v) { return std::to_string(v); }
  /// Two small lots near (-48, -27); `here` is a z14 tile holding both.
  std::int64_t lot(double lon, double lat) const {
    auto x = [](double v) { return std::to_string(v); };
    return w.geometry(layer, "POLYGON((" + x(lon) + " " + x(lat) + "," + x(lon + 0.001) + " " +
                                 x(lat) + "," + x(lon + 0.001) + " " + x(lat + 0.001) + "," +
                                 x(lon) + " " + x(lat) + "))");
  }
  static cadastre::tiles::Tile here() {
    return cadastre::tiles::tile_for_lonlat(-47.9975, -26.9975, 14);
  }
  static std::string zxy(const cadastre::tiles::Tile& t) {
    return std::to_string(t.z) + "/" + std::to_string(t.x) + "/" + std::to_string(t.y);
  }
  std::string vt(const cadastre::tiles::Tile& t, const std::string& route = "vt") const {
    return "/" + route + "/" + zxy(t) + "?camada=" + n(layer);
  }
  std::string svt(const std::string& tenant_id, const cadastre::tiles::Tile& t) const {
    return "/svt/" + tenant_id + "/" + n(layer) + "/" + zxy(t);
  }
  /// The one layer of an MVT body.
  static MvtLayer only_layer(const std::string& body) {
    auto layers = read_tile(body);
    REQUIRE(layers.size() == 1);
    return layers[0];
  }
};

}  // namespace cadastre::test
