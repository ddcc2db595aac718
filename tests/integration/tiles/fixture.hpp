// Shared by the tile tests: one stack per test binary with a 300-lot demo city in tenant
// "alfa" (tenant "beta" stays empty), a GET that keeps extra headers, and the tile at a
// given zoom that holds the first lot of the city; the other helpers are ServerFixture's.
#pragma once

#include <memory>
#include <string>

#include "cadastre/tiles.hpp"
#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(300); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}

  /// GET with the token (none when empty) and any extra headers.
  std::unique_ptr<Answer> fetch(const std::string& path, const std::string& token,
                                httplib::Headers extra = {}) const {
    httplib::Headers h = token.empty() ? httplib::Headers{} : Stack::bearer(token);
    h.insert(extra.begin(), extra.end());
    return request("GET", path, h);
  }
  std::unique_ptr<Answer> fetch(const std::string& path) const { return fetch(path, token()); }

  /// The tile at zoom z holding the centre of the city's first lot.
  tiles::Tile tile_with_lots(int z) const {
    double lon = std::stod(
        db("select ST_X(ST_PointOnSurface(geom)) from cadastro.lote order by id limit 1"));
    double lat = std::stod(
        db("select ST_Y(ST_PointOnSurface(geom)) from cadastro.lote order by id limit 1"));
    return tiles::tile_for_lonlat(lon, lat, z);
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

inline std::string tile_path(const std::string& layer, const tiles::Tile& t,
                             const std::string& municipio = "alfa") {
  return "/tiles/" + municipio + "/" + layer + "/" + std::to_string(t.z) + "/" +
         std::to_string(t.x) + "/" + std::to_string(t.y) + ".pbf";
}

}  // namespace cadastre::test
