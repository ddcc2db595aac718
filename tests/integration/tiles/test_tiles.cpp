// Tile content: a valid MVT with the layer's lots, empty tiles, and the path checks.
#include <algorithm>

#include "fixture.hpp"
#include "mvt_reader.hpp"
#include "store/sql.hpp"

using namespace cadastre::test;
using cadastre::tiles::Tile;

namespace {

std::string envelope(const Tile& t, const std::string& extra = "") {
  return "ST_TileEnvelope(" + std::to_string(t.z) + ", " + std::to_string(t.x) + ", " + std::to_string(t.y) + extra + ")";
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST_CASE_FIXTURE(
    Fixture, "a z16 tile over the city is an MVT layer named lote with every lot of the tile") {
  Tile t = tile_with_lots(16);
  auto r = fetch(tile_path("lote", t));
  REQUIRE(r->status == 200);
  CHECK(r->header("Content-Type") == "application/vnd.mapbox-vector-tile");
  REQUIRE(!r->body.empty());

  auto layers = read_tile(r->body);
  REQUIRE(layers.size() == 1);
  const MvtLayer& l = layers[0];
  CHECK(l.name == "lote");
  CHECK(l.version == 2);
  CHECK(l.extent == 4096);
  // The lots whose box meets the tile (the index filter) and that reach the area the
  // features are clipped to: the tile grown by the 64-unit buffer.
  std::string expected = db("select count(*) from cadastro.lote where geom && ST_Transform(" + envelope(t) +
                            ", 4674) and ST_Intersects(ST_Transform(geom, 3857), " + envelope(t, ", margin => 64.0/4096") +
                            ")");
  CHECK(std::stoul(expected) > 0);
  CHECK(l.features == std::stoul(expected));
  // Properties are the columns except the geometry.
  CHECK(has(l.keys, "inscricao"));
  CHECK(has(l.keys, "area_terreno"));
  CHECK(has(l.keys, "quadra_id"));
  CHECK_FALSE(has(l.keys, "geom"));
}

TEST_CASE_FIXTURE(Fixture, "tiles of other layers are named after their table") {
  Tile t = tile_with_lots(15);
  auto r = fetch(tile_path("quadra", t));
  REQUIRE(r->status == 200);
  auto layers = read_tile(r->body);
  REQUIRE(layers.size() == 1);
  CHECK(layers[0].name == "quadra");
  CHECK(layers[0].features == std::stoul(db("select count(*) from cadastro.quadra where ST_Intersects(ST_Transform(geom, "
                                            "3857), ST_TileEnvelope(15, " + std::to_string(t.x) + ", " +
                                            std::to_string(t.y) + ", margin => 64.0/4096))")));
}

TEST_CASE_FIXTURE(Fixture, "a tile with no feature, out in the ocean, is 204 without a body") {
  Tile ocean = cadastre::tiles::tile_for_lonlat(-30.0, -25.0, 16);
  auto r = fetch(tile_path("lote", ocean));
  CHECK(r->status == 204);
  CHECK(r->body.empty());
  CHECK_FALSE(r->header("ETag").empty());
  // Lower zooms over the city are not empty (at z0 every lot is smaller than one unit of
  // the 4096 grid and collapses away, so that tile is 204 as well).
  CHECK(fetch(tile_path("lote", tile_with_lots(14)))->status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "z, x and y outside the pyramid or a last segment other than <y>.pbf are 400") {
  for (const char* path :
       {"/tiles/alfa/lote/25/0/0.pbf", "/tiles/alfa/lote/-1/0/0.pbf", "/tiles/alfa/lote/16/65536/0.pbf",
        "/tiles/alfa/lote/16/0/65536.pbf", "/tiles/alfa/lote/2/4/0.pbf", "/tiles/alfa/lote/2/0/4.pbf",
        "/tiles/alfa/lote/16/0/0", "/tiles/alfa/lote/16/0/0.png", "/tiles/alfa/lote/16/0/abc.pbf",
        "/tiles/alfa/lote/16/0/.pbf", "/tiles/alfa/lote/1x/0/0.pbf", "/tiles/alfa/lote/16/1.5/0.pbf",
        "/tiles/alfa/lote/16/0/0.pbf.pbf", "/tiles/alfa/lote/16/%2B1/0.pbf", "/tiles/alfa/lote/99999999999999999999/0/0.pbf"}) {
    auto r = fetch(path);
    CHECK_MESSAGE(r->status == 400, path);
    if (r->status == 400) CHECK(r->codigo() == "parametro_invalido");
  }
  CHECK(fetch("/tiles/alfa/lote/24/16777215/16777215.pbf")->status == 204);  // the last z24 tile is valid
}

TEST_CASE_FIXTURE(Fixture, "layers without geometry and unknown layers have no tiles (404)") {
  auto r = fetch("/tiles/alfa/pessoa/16/0/0.pbf");
  CHECK(r->status == 404);
  CHECK(r->body.find("geometria") != std::string::npos);
  auto u = fetch("/tiles/alfa/nao_existe/16/0/0.pbf");
  CHECK(u->status == 404);
  CHECK(u->codigo() == "camada_nao_encontrada");
}

TEST_CASE_FIXTURE(
    Fixture, "tiles are still served after the pooled connection lost its prepared statements") {
  const std::string path = tile_path("lote", tile_with_lots(16));
  auto before = fetch(path);
  REQUIRE(before->status == 200);
  // The pool hands out the most recently released session first: the one that just
  // prepared the tile statement.
  auto& app = city().app();
  auto tenant = app.identity().tenant("alfa");
  REQUIRE(tenant);
  app.tenants().pool(*tenant).with(
      [](soci::session& s) { cadastre::store::execute(s, cadastre::store::Sql("deallocate all")); });
  auto after = fetch(path);
  CHECK(after->status == 200);
  // Same features (their order follows the plan, which may change between executions).
  REQUIRE(after->status == 200);
  CHECK(read_tile(after->body).at(0).features == read_tile(before->body).at(0).features);
}
