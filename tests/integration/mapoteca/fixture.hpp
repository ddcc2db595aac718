// Shared by the /mapoteca tests: one stack per test binary, tenant "alfa" with a small demo
// city and the demo map library, "beta" empty; helpers for items and searches; the other
// helpers are ServerFixture's.
#pragma once

#include <postgresql/libpq-fe.h>

#include <string_view>

#include "demo/mapoteca.hpp"
#include "support/server_fixture.hpp"
#include "support/url.hpp"

namespace cadastre::test {

/// Runs the demo map-library loader on tenant `slug` and returns its count.
inline std::int64_t load_library(Stack& stack, const std::string& slug) {
  PGconn* c = PQconnectdb(stack.tenant_dsn(slug).c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  std::int64_t n = store::load_demo_mapoteca(c);
  PQfinish(c);
  return n;
}

inline Stack& city() {
  static Stack& stack = []() -> Stack& {
    Stack& s = demo_city(90);
    load_library(s, "alfa");
    return s;
  }();
  return stack;
}

/// A footprint over the demo city's centre (SQL expression), for inserted items.
inline const char* kCentreFootprint =
    "(select ST_Multi(ST_Buffer(ST_SetSRID(ST_Centroid(ST_Extent(geom)::geometry), 4674), 0.001, "
    "2)) from cadastro.quadra)";

/// The feature ids of a FeatureCollection, in order, joined by ','.
inline std::string feature_ids(simdjson::dom::element collection) {
  std::string out;
  for (auto f : collection["features"].get_array())
    out += (out.empty() ? "" : ",") + std::to_string(int64_t(f["id"]));
  return out;
}

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}

  /// Inserts an item of tenant `slug` (`columns` and `values` as SQL) and returns its id.
  std::string insert_item(const std::string& columns, const std::string& values,
                          const std::string& slug = "alfa") const {
    return db("insert into mapoteca.item (" + columns + ") values (" + values + ") returning id",
              slug);
  }
  /// Feature ids of a keyword search, in order.
  std::string search_ids(const std::string& words, const std::string& query = "") const {
    auto a = get("/mapoteca/alfa/busca/" + url(words) + query);
    REQUIRE_MESSAGE(a->status == 200, words << " → " << a->body);
    return feature_ids(a->json());
  }
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

}  // namespace cadastre::test
