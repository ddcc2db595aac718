// Shared by the /visualizador360 tests: the demo city of the binary (tenant "alfa", "beta"
// empty), and calls to the viewer routes; the other helpers are ServerFixture's.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "support/server_fixture.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(120); }

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}

  /// GET /visualizador360/alfa/<rest> as `token`.
  std::unique_ptr<Answer> viewer(const std::string& rest) const { return viewer(rest, token()); }
  std::unique_ptr<Answer> viewer(const std::string& rest, const std::string& token) const {
    return get("/visualizador360/alfa/" + rest, token);
  }
  std::unique_ptr<Answer> post_atts(const std::string& body) const {
    return post_atts(body, token());
  }
  std::unique_ptr<Answer> post_atts(const std::string& body, const std::string& token) const {
    return post("/visualizador360/alfa/atts", body, token);
  }

  /// The panorama nearest (in metres) to lot `lot`'s point on surface.
  std::string panorama_near_lot(int lot) const {
    return db(
        "select p.id::text from cadastro.panorama p, (select ST_PointOnSurface(geom) g from "
        "cadastro.lote where "
        "id = " +
        std::to_string(lot) +
        ") f order by ST_Distance(p.geom::geography, f.g::geography), p.id limit 1");
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

}  // namespace cadastre::test
