// Shared by the tile tests: one stack per test binary with a 300-lot demo city in tenant
// "alfa" (tenant "beta" stays empty), HTTP helpers that keep the headers, and the tile at
// a given zoom that holds the first lot of the city.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include <memory>
#include <string>

#include "cadastre/tiles.hpp"
#include "support/harness.hpp"

namespace cadastre::test {

inline Stack& city() {
  static std::unique_ptr<Stack> stack = [] {
    auto s = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"});
    s->load_demo("alfa", 300);
    return s;
  }();
  return *stack;
}

struct Reply {
  int status = 0;
  std::string body;
  httplib::Headers headers;
  simdjson::dom::parser parser;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
  simdjson::dom::element json() {
    simdjson::dom::element e;
    REQUIRE_MESSAGE(parser.parse(body).get(e) == simdjson::SUCCESS, body);
    return e;
  }
  std::string codigo() { return std::string(std::string_view(json()["codigo"])); }
};

/// GET with the token (none when empty) and any extra headers.
inline std::unique_ptr<Reply> fetch(const std::string& path, const std::string& token, httplib::Headers extra = {}) {
  auto cli = city().client();
  httplib::Headers h = token.empty() ? httplib::Headers{} : Stack::bearer(token);
  h.insert(extra.begin(), extra.end());
  auto r = cli.Get(path, h);
  REQUIRE_MESSAGE(r, path);
  auto out = std::make_unique<Reply>();
  out->status = r->status;
  out->body = r->body;
  out->headers = r->headers;
  return out;
}

inline std::unique_ptr<Reply> fetch(const std::string& path) { return fetch(path, city().user("alfa").token); }

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

/// The tile at zoom z holding the centre of the city's first lot.
inline tiles::Tile tile_with_lots(int z) {
  double lon = std::stod(db("select ST_X(ST_PointOnSurface(geom)) from cadastro.lote order by id limit 1"));
  double lat = std::stod(db("select ST_Y(ST_PointOnSurface(geom)) from cadastro.lote order by id limit 1"));
  return tiles::tile_for_lonlat(lon, lat, z);
}

inline std::string tile_path(const std::string& layer, const tiles::Tile& t, const std::string& municipio = "alfa") {
  return "/tiles/" + municipio + "/" + layer + "/" + std::to_string(t.z) + "/" + std::to_string(t.x) + "/" +
         std::to_string(t.y) + ".pbf";
}

}  // namespace cadastre::test
