// Shared by the /mapoteca tests: one stack per test binary, tenant "alfa" with a small demo
// city and the demo map library, "beta" empty; helpers to call the routes and to ask the
// tenant databases.
#pragma once

#include <postgresql/libpq-fe.h>

#include <string_view>

#include "demo/mapoteca.hpp"
#include "support/city.hpp"
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

inline const std::string& alfa_token() { return city().user("alfa").token; }

inline std::unique_ptr<Answer> get(const std::string& path, const std::string& token = alfa_token()) {
  return call(city(), "GET", path, Stack::bearer(token));
}
inline std::unique_ptr<Answer> put(const std::string& path, const std::string& body,
                                   const std::string& token = alfa_token()) {
  return call(city(), "PUT", path, Stack::bearer(token), body);
}
inline std::unique_ptr<Answer> del(const std::string& path, const std::string& token = alfa_token()) {
  return call(city(), "DELETE", path, Stack::bearer(token));
}

inline std::string db(const std::string& sql, const std::string& slug = "alfa") {
  return query_value(city().tenant_dsn(slug), sql);
}

/// Inserts an item of tenant `slug` (`columns` and `values` as SQL) and returns its id.
inline std::string insert_item(const std::string& columns, const std::string& values, const std::string& slug = "alfa") {
  return db("insert into mapoteca.item (" + columns + ") values (" + values + ") returning id", slug);
}

/// A footprint over the demo city's centre (SQL expression), for inserted items.
inline const char* kCentreFootprint =
    "(select ST_Multi(ST_Buffer(ST_SetSRID(ST_Centroid(ST_Extent(geom)::geometry), 4674), 0.001, 2)) from cadastro.quadra)";

/// The feature ids of a FeatureCollection, in order, joined by ','.
inline std::string feature_ids(simdjson::dom::element collection) {
  std::string out;
  for (auto f : collection["features"].get_array()) out += (out.empty() ? "" : ",") + std::to_string(int64_t(f["id"]));
  return out;
}

/// Feature ids of a keyword search, in order.
inline std::string search_ids(const std::string& words, const std::string& query = "") {
  auto a = get("/mapoteca/alfa/busca/" + url(words) + query);
  REQUIRE_MESSAGE(a->status == 200, words << " → " << a->body);
  return feature_ids(a->json());
}

}  // namespace cadastre::test
