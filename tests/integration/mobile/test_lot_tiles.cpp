// POST /aplicativo/{municipio}/aplicativo/get-tiles-from-lote/: the XYZ tiles covering the
// lots' geometry, compared with the tiles whose interior PostGIS finds the lots in
// (ST_TileEnvelope); an L-shaped lot whose bbox covers a tile the lot does not; the cap of
// 10,000 tiles and the 4xx of bad bodies.
#include <chrono>

#include "fixture.hpp"

using namespace cadastre::test;

namespace {

const std::string kTilesPath = "/aplicativo/alfa/aplicativo/get-tiles-from-lote/";

std::string tiles_body(const std::string& lots, int zmin, int zmax) {
  return R"({"lotes": [)" + lots + R"(], "zoom_min": )" + std::to_string(zmin) + R"(, "zoom_max": )" + std::to_string(zmax) + "}";
}

// "z/x/y" of every [x, y, z] of the answer, checking order (z, x, y) and uniqueness.
std::vector<std::string> tile_list(simdjson::dom::element answer) {
  std::vector<std::tuple<int64_t, int64_t, int64_t>> keys;
  std::vector<std::string> out;
  for (auto t : answer["tiles"].get_array()) {
    auto a = t.get_array();
    REQUIRE(a.size() == 3);
    int64_t x = a.at(0), y = a.at(1), z = a.at(2);
    keys.emplace_back(z, x, y);
    out.push_back(std::to_string(z) + "/" + std::to_string(x) + "/" + std::to_string(y));
  }
  for (std::size_t i = 1; i < keys.size(); ++i) CHECK(keys[i - 1] < keys[i]);
  return out;
}

// The tiles of zooms [zmin, zmax] whose interior the lots' interiors meet, by PostGIS.
std::vector<std::string> expected_tiles(const std::string& lots, int zmin, int zmax) {
  const std::string y_of = "floor((1 - ln(tan(radians(%s)) + 1 / cos(radians(%s))) / pi()) / 2 * 2 ^ z.z)::int";
  auto y = [&](const std::string& v) {
    std::string s = y_of;
    for (auto p = s.find("%s"); p != std::string::npos; p = s.find("%s")) s.replace(p, 2, v);
    return s;
  };
  std::string csv =
      fixture().db("with l as (select geom from cadastro.lote where id in (" + lots +
                   ")), e as (select ST_Extent(geom)::geometry g from l), "
                   "z as (select generate_series(" +
                   std::to_string(zmin) + ", " + std::to_string(zmax) +
                   ") z), "
                   "r as (select z.z, floor((ST_XMin(g) + 180) / 360 * 2 ^ z.z)::int x0, "
                   "floor((ST_XMax(g) + 180) / 360 * 2 ^ z.z)::int x1, " +
                   y("ST_YMax(g)") + " y0, " + y("ST_YMin(g)") +
                   " y1 from e, z) "
                   "select string_agg(format('%s/%s/%s', z, x, y), ',' order by z, x, y) from "
                   "(select distinct r.z, x, y from r, "
                   "generate_series(x0, x1) x, generate_series(y0, y1) y where exists (select 1 "
                   "from l where ST_Relate(l.geom, "
                   "ST_Transform(ST_TileEnvelope(r.z, x, y), 4674), 'T********'))) t");
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < csv.size()) {
    std::size_t j = csv.find(',', i);
    if (j == std::string::npos) j = csv.size();
    out.push_back(csv.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// Inserts a test lot with the geometry of `geom_sql` (EPSG:4674) and returns its id.
std::string insert_lot(const std::string& inscricao, const std::string& geom_sql) {
  return fixture().db(
      "insert into cadastro.lote (inscricao, quadra_id, area_terreno, testada, topografia, "
      "pedologia, situacao, geom) "
      "select '" +
      inscricao + "', quadra_id, 100, 10, topografia, pedologia, situacao, ST_Multi(" + geom_sql +
      ") from cadastro.lote where id = 1 returning id");
}

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "the tiles of a set of lots are exactly the tiles their geometry meets, once "
                  "each, sorted by z, x, y") {
  const std::string lots = "1, 2, 3, 2";  // a repeated id counts once
  auto a = post(kTilesPath, tiles_body(lots, 15, 19));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto got = tile_list(a->json());
  CHECK(got == expected_tiles("1, 2, 3", 15, 19));
  CHECK(got.size() > 5);
}

TEST_CASE_FIXTURE(Fixture,
                  "an L-shaped lot does not get the tile in its notch, which its bbox covers") {
  // Four z18 tiles in a 2×2 block around lot 1; the L covers the top row and the bottom-left
  // tile, inset by a tenth of a tile so it touches no other tile.
  const std::string x = db("select floor((ST_X(ST_Centroid(geom)) + 180) / 360 * 2 ^ 18)::int from cadastro.lote where id = 1");
  const std::string y = db("select floor((1 - ln(tan(radians(ST_Y(ST_Centroid(geom)))) + 1 / cos(radians(ST_Y(ST_Centroid(geom))))) "
                           "/ pi()) / 2 * 2 ^ 18)::int from cadastro.lote where id = 1");
  const int tx = std::stoi(x), ty = std::stoi(y);
  const double half = 20037508.342789244, s = 2 * half / (1 << 18), m = s / 10;
  const double x0 = -half + tx * s, xm = x0 + s, x2 = x0 + 2 * s, top = half - ty * s, ym = top - s, bottom = top - 2 * s;
  char wkt[512];
  std::snprintf(wkt, sizeof wkt, "POLYGON((%.3f %.3f, %.3f %.3f, %.3f %.3f, %.3f %.3f, %.3f %.3f, %.3f %.3f, %.3f %.3f))",
                x0 + m, top - m, x2 - m, top - m, x2 - m, ym + m, xm - m, ym + m, xm - m, bottom + m, x0 + m, bottom + m, x0 + m,
                top - m);
  const std::string lot = insert_lot("TESTE-L", "ST_Transform(ST_GeomFromText('" + std::string(wkt) + "', 3857), 4674)");
  const std::string notch = std::to_string(tx + 1) + ", " + std::to_string(ty + 1);
  // The bbox of the lot does reach into the notch tile; the lot itself does not.
  CHECK(db("select ST_Intersects(ST_Envelope(geom), ST_Transform(ST_TileEnvelope(18, " + notch + "), 4674)) from cadastro.lote "
           "where id = " + lot) == "t");
  CHECK(db("select ST_Intersects(geom, ST_Transform(ST_TileEnvelope(18, " + notch + "), 4674)) from cadastro.lote where id = " +
           lot) == "f");

  auto a = post(kTilesPath, tiles_body(lot, 18, 18));
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto got = tile_list(a->json());
  auto tile = [](int x_, int y_) { return "18/" + std::to_string(x_) + "/" + std::to_string(y_); };
  CHECK(got == std::vector<std::string>{tile(tx, ty), tile(tx, ty + 1), tile(tx + 1, ty)});
  CHECK(std::find(got.begin(), got.end(), tile(tx + 1, ty + 1)) == got.end());
  // One zoom deeper: 3 of the 4 quadrants of each covered tile's block, as PostGIS finds.
  auto deeper = post(kTilesPath, tiles_body(lot, 18, 19));
  CHECK(tile_list(deeper->json()) == expected_tiles(lot, 18, 19));
  db("delete from cadastro.lote where id = " + lot + " returning 1");
}

TEST_CASE_FIXTURE(Fixture,
                  "more than 10,000 tiles is a 400 answered without computing the whole cover") {
  // About 5 km × 5 km: at zoom 22 alone that is some 300,000 tiles.
  const std::string lot = insert_lot("TESTE-GRANDE", "ST_Buffer(ST_Centroid((select geom from cadastro.lote where id = 1)), 0.025, 1)");
  auto start = std::chrono::steady_clock::now();
  auto a = post(kTilesPath, tiles_body(lot, 10, 22));
  auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(a->status == 400);
  CHECK(a->codigo() == "parametro_invalido");
  CHECK(a->mensagem().find("10000") != std::string::npos);
  CHECK(elapsed < std::chrono::seconds(5));
  // The same lot at a few low zooms is fine.
  auto few = post(kTilesPath, tiles_body(lot, 10, 13));
  REQUIRE_MESSAGE(few->status == 200, few->body);
  CHECK(tile_list(few->json()) == expected_tiles(lot, 10, 13));
  db("delete from cadastro.lote where id = " + lot + " returning 1");
}

TEST_CASE_FIXTURE(
    Fixture,
    "get-tiles-from-lote refuses bad bodies with 400 and unknown lots with 404 naming them") {
  for (const std::string& body : {
           tiles_body("1", 16, 15),                                   // zoom_min > zoom_max
           tiles_body("1", 16, 23),                                   // beyond zoom 22
           tiles_body("1", -1, 3),                                    //
           tiles_body("", 10, 12),                                    // no lots
           tiles_body("\"a\"", 10, 12),                               // not integers
           tiles_body("1.5", 10, 12),                                 //
           std::string(R"({"lotes": [1], "zoom_min": "10", "zoom_max": 12})"),
           std::string(R"({"lotes": [1], "zoom_min": 10})"),
           std::string(R"({"lotes": 1, "zoom_min": 10, "zoom_max": 12})"),
           std::string(R"({"lotes": [1], "zoom_min": 10, "zoom_max": 12, "extra": true})"),
           std::string("{nope"),
       }) {
    auto a = post(kTilesPath, body);
    CHECK_MESSAGE(a->status == 400, body << " → " << a->body);
  }
  std::string many;
  for (int i = 1; i <= 1001; ++i) many += (i > 1 ? "," : "") + std::to_string(i);
  CHECK(post(kTilesPath, tiles_body(many, 10, 10))->status == 400);

  auto missing = post(kTilesPath, tiles_body("1, 999998, 999999", 10, 12));
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
  CHECK(missing->mensagem().find("999998, 999999") != std::string::npos);

  const auto& buildings_only = limited_user("so-edificacao-app@alfa.gov.br", {"edificacao:r"});
  CHECK(post(kTilesPath, tiles_body("1", 10, 12), buildings_only.token)->status == 403);
  CHECK(post(kTilesPath, tiles_body("1", 10, 12), city().user("beta").token)->status == 403);
}
