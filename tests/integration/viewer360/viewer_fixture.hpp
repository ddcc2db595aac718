// Shared by the /visualizador360 tests: the demo city of the binary (tenant "alfa", "beta"
// empty), helpers to call the viewer routes and to ask the tenant database.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "support/city.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(120); }

inline const std::string& alfa_token() { return city().user("alfa").token; }

/// GET /visualizador360/alfa/<rest> as `token`.
inline std::unique_ptr<Answer> viewer(const std::string& rest, const std::string& token = alfa_token()) {
  return call(city(), "GET", "/visualizador360/alfa/" + rest, Stack::bearer(token));
}

inline std::unique_ptr<Answer> post_atts(const std::string& body, const std::string& token = alfa_token()) {
  return call(city(), "POST", "/visualizador360/alfa/atts", Stack::bearer(token), body);
}

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

/// The panorama nearest (in metres) to lot `lot`'s point on surface.
inline std::string panorama_near_lot(int lot) {
  return db("select p.id::text from cadastro.panorama p, (select ST_PointOnSurface(geom) g from cadastro.lote where id = " +
            std::to_string(lot) + ") f order by ST_Distance(p.geom::geography, f.g::geography), p.id limit 1");
}

}  // namespace cadastre::test
