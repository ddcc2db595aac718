// GET /vt, /vt2 and /especifico/vector-tiles: a layer's geometries as Mapbox Vector Tiles
// for a caller who may read the layer, with an ETag from the layer's generation.
#include <algorithm>

#include "platform/tiles/cache.hpp"
#include "tiles_fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::TileLayer;

TEST_CASE_FIXTURE(PlatformFixture,
                  "/vt renders the layer's geometries as a vector tile and revalidates by ETag") {
  TileLayer t(*this);
  t.lot(-48, -27);
  t.lot(-47.997, -26.997);
  t.lot(-40, -10);  // elsewhere: not in the tile
  auto a = get(t.vt(TileLayer::here()), t.w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "application/vnd.mapbox-vector-tile");
  CHECK(a->header("Cache-Control") == "private, no-cache");
  test::MvtLayer l = TileLayer::only_layer(a->body);
  CHECK(l.name == "camada_" + TileLayer::n(t.layer));
  CHECK(l.version == 2);
  CHECK(l.extent == 4096);
  CHECK(l.features == 2);
  CHECK(l.keys.empty());  // /vt carries geometry only (the feature id is the geometry's)

  const std::string etag = a->header("ETag");
  REQUIRE(etag.size() > 2);
  CHECK(etag.front() == '"');
  auto h = headers(t.w.owner);
  h.emplace("If-None-Match", etag);
  auto same = request("GET", t.vt(TileLayer::here()), h);
  CHECK(same->status == 304);
  CHECK(same->body.empty());
  CHECK(same->header("ETag") == etag);
  auto weak = headers(t.w.owner);
  weak.emplace("If-None-Match", "\"outro\", W/" + etag);
  CHECK(request("GET", t.vt(TileLayer::here()), weak)->status == 304);
  auto any = headers(t.w.owner);
  any.emplace("If-None-Match", "*");
  CHECK(request("GET", t.vt(TileLayer::here()), any)->status == 304);
  // Tags shaped like ours but naming another generation, or none a number can be, get the
  // tile (the statement reads the client's generations out of its tags).
  const std::string digest = etag.substr(etag.find('-') + 1);  // ends with the quote
  for (const std::string& odd : {"\"0-" + digest, "\"99999999999999999999999-" + digest, "\"1},{2-" + digest,
                                 "\"-" + digest, "\"1'; select 1 --" + digest}) {
    auto other = headers(t.w.owner);
    other.emplace("If-None-Match", odd);
    auto fresh = request("GET", t.vt(TileLayer::here()), other);
    CHECK_MESSAGE(fresh->status == 200, odd);
    CHECK(fresh->body == a->body);
  }

  // The same tile with the layer in the path; y may carry the .pbf suffix.
  auto path = get("/especifico/vector-tiles/" + TileLayer::n(t.layer) + "/" +
                      TileLayer::zxy(TileLayer::here()) + ".pbf",
                  t.w.owner);
  REQUIRE(path->status == 200);
  CHECK(path->body == a->body);
  CHECK(path->header("ETag") == etag);

  // A tile without features: 204, still with the ETag.
  auto empty = get(t.vt({.x = 0, .y = 0, .z = 14}), t.w.owner);
  CHECK(empty->status == 204);
  CHECK(empty->body.empty());
  CHECK(empty->header("ETag") == etag);

  // Browsers on another origin may read tiles and their ETag (CORS on every answer).
  auto cors = headers(t.w.owner);
  cors.emplace("Origin", "https://mapa.exemplo.gov.br");
  auto c = request("GET", t.vt(TileLayer::here()), cors);
  CHECK(c->header("Access-Control-Allow-Origin") == "*");
  CHECK(c->header("Access-Control-Expose-Headers").find("ETag") != std::string::npos);
}

TEST_CASE_FIXTURE(PlatformFixture, "a write to the layer changes the tile's ETag") {
  TileLayer t(*this);
  std::int64_t g = t.lot(-48, -27);
  std::int64_t f = t.w.form(t.layer, "Ficha");
  std::int64_t k = t.w.field(f, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  auto before = get(t.vt(TileLayer::here()), t.w.owner);
  REQUIRE(before->status == 200);
  const std::string etag = before->header("ETag");

  auto v = post("/valores",
                R"({"idGeometria":)" + TileLayer::n(g) + R"(,"idCampo":)" + TileLayer::n(k) +
                    R"(,"valor":"residencial"})",
                t.w.owner);
  REQUIRE_MESSAGE(v->status == 201, v->body);
  auto h = headers(t.w.owner);
  h.emplace("If-None-Match", etag);
  auto after = request("GET", t.vt(TileLayer::here()), h);
  CHECK(after->status == 200);  // the old ETag no longer matches: the tile comes again
  CHECK(after->header("ETag") != etag);
  CHECK(TileLayer::only_layer(after->body).features == 1);
}

TEST_CASE_FIXTURE(PlatformFixture,
                  "/vt2 carries the values of the fields the layer's style reads, keyed by chave") {
  TileLayer t(*this);
  std::int64_t g1 = t.lot(-48, -27), g2 = t.lot(-47.997, -26.997);
  std::int64_t f = t.w.form(t.layer, "Ficha");
  std::int64_t uso = t.w.field(f, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  std::int64_t area = t.w.field(f, R"({"nome":"Área","chave":"area","tipo":"decimal"})");
  auto value = [&](std::int64_t g, std::int64_t k, const std::string& v) {
    auto a = post("/valores",
                  R"({"idGeometria":)" + TileLayer::n(g) + R"(,"idCampo":)" + TileLayer::n(k) +
                      R"(,"valor":)" + v + "}",
                  t.w.owner);
    REQUIRE_MESSAGE(a->status == 201, a->body);
  };
  value(g1, uso, R"("residencial")");
  value(g2, uso, R"("comercial")");
  value(g1, area, "360.5");

  // No stored style: features without attributes.
  auto plain = get(t.vt(TileLayer::here(), "vt2"), t.w.owner);
  REQUIRE_MESSAGE(plain->status == 200, plain->body);
  CHECK(TileLayer::only_layer(plain->body).keys.empty());

  // Categorised by uso: the tiles carry uso (the property categorizarFront's expression
  // reads), not the fields the style does not use.
  auto cat = post(
      "/camadas/categorizar?idCamada=" + TileLayer::n(t.layer) + "&idCampo=" + TileLayer::n(uso),
      "", t.w.owner);
  REQUIRE_MESSAGE(cat->status == 200, cat->body);
  auto a = get(t.vt(TileLayer::here(), "vt2"), t.w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  test::MvtLayer l = TileLayer::only_layer(a->body);
  CHECK(l.features == 2);
  CHECK(l.keys == std::vector<std::string>{"uso"});
  CHECK(a->body.find("residencial") != std::string::npos);
  CHECK(a->body.find("comercial") != std::string::npos);
  CHECK(a->header("ETag") != plain->header("ETag"));  // the style write bumped the generation
  // /vt of the same layer stays geometry only.
  CHECK(TileLayer::only_layer(get(t.vt(TileLayer::here()), t.w.owner)->body).keys.empty());
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "tile routes refuse bad tiles, callers without a session and layers they cannot see") {
  TileLayer t(*this);
  t.lot(-48, -27);
  const std::string id = TileLayer::n(t.layer);
  for (std::string bad :
       {"/vt/25/0/0?camada=", "/vt/2/4/0?camada=", "/vt/2/0/4?camada=", "/vt/2/0/abc?camada=",
        "/vt/-1/0/0?camada=", "/vt/1;drop/0/0?camada=", "/vt2/3/0/9.pbf?camada="}) {
    CAPTURE(bad);
    auto a = get(bad + id, t.w.owner);
    CHECK(a->status == 400);
    CHECK(a->codigo() == "parametro_invalido");
  }
  refused(*get("/especifico/vector-tiles/" + id + "/3/0/x", t.w.owner), 400, "parametro_invalido",
          "y");
  // The layer: required, an id, one the caller sees.
  CHECK(get("/vt/0/0/0", t.w.owner)->status == 400);
  CHECK(get("/vt/0/0/0?camada=1;drop", t.w.owner)->status == 400);
  CHECK(get("/especifico/vector-tiles/abc/0/0/0", t.w.owner)->status == 400);
  CHECK(get("/vt/0/0/0?camada=99999999", t.w.owner)->status == 404);
  // No session.
  CHECK(request("GET", t.vt(TileLayer::here()), {})->status == 401);
  CHECK(request("GET", t.vt(TileLayer::here(), "vt2"), {})->status == 401);
  CHECK(request("GET", "/especifico/vector-tiles/" + id + "/0/0/0", {})->status == 401);
  // Another tenant's caller, and a colleague the unpublished project is not shared with.
  refused(*get(t.vt(TileLayer::here()), user("beta")), 404, "nao_encontrado");
  refused(*get(t.vt(TileLayer::here()), user("alfa")), 404, "nao_encontrado");
  // A private layer of a published project: the colleague still cannot see it.
  REQUIRE(post("/projetos/" + TileLayer::n(t.project) + "/publicar", "", t.w.owner)->status == 200);
  CHECK(get(t.vt(TileLayer::here()), user("alfa"))->status == 200);
  REQUIRE(put("/camadas/privada/" + id, R"({"privada":true})", t.w.owner)->status == 200);
  CHECK(get(t.vt(TileLayer::here()), user("alfa"))->status == 404);
}

// The instance keeps /vt's rendered tiles (platform/tiles/cache.hpp): a row written without
// the layer's generation moving (here by SQL; every route's write moves it) stays unseen,
// and once the generation moves, as any instance's write moves it, the tile is rendered
// anew.
TEST_CASE_FIXTURE(PlatformFixture, "a tile comes from the instance's cache while its layer's generation stands, "
                                   "and is rendered anew once it moves") {
  TileLayer t(*this);
  t.lot(-48, -27);
  auto first = get(t.vt(TileLayer::here()), t.w.owner);
  REQUIRE(first->status == 200);
  CHECK(TileLayer::only_layer(first->body).features == 1);
  const std::string L = TileLayer::n(t.layer);
  cadastre::test::query_value(stack->tenant_dsn("alfa"), "insert into projeto.geometrias (camada_id, geom) values (" + L +
                        ", st_geomfromtext('POLYGON((-47.998 -26.998,-47.997 -26.998,-47.997 -26.997,-47.998 "
                        "-26.998))', 4674))");
  auto cached = get(t.vt(TileLayer::here()), t.w.owner);
  REQUIRE(cached->status == 200);
  CHECK(cached->body == first->body);
  CHECK(cached->header("ETag") == first->header("ETag"));

  cadastre::test::query_value(stack->tenant_dsn("alfa"), "update projeto.camadas set geracao = geracao + 1 where id = " + L);
  auto fresh = get(t.vt(TileLayer::here()), t.w.owner);
  REQUIRE(fresh->status == 200);
  CHECK(TileLayer::only_layer(fresh->body).features == 2);
  CHECK(fresh->header("ETag") != first->header("ETag"));
  // Another user without a share on the project is still refused: the cache spares the
  // rendering, not the checks.
  auto stranger = get(t.vt(TileLayer::here()), user("beta"));
  CHECK(stranger->status == 404);
}

TEST_CASE("the tile cache holds at most its bytes, the least recently used tiles going first") {
  using cadastre::platform::tiles::TileCache;
  using cadastre::platform::tiles::TileKey;
  TileCache cache(8 * (1000 + 128));  // eight 1,000-byte tiles with their bookkeeping
  auto key = [](int x) { return TileKey{1, 7, 16, x, 0}; };
  for (int x = 0; x < 8; ++x) cache.put(key(x), 3, std::string(1000, 'a'));
  CHECK(cache.bytes() == 8 * 1128);
  REQUIRE(cache.find(key(0)));  // now the most recently used
  cache.put(key(8), 3, std::string(1000, 'b'));
  CHECK_FALSE(cache.find(key(1)));  // the least recently used went
  CHECK(cache.find(key(0))->mvt == std::string(1000, 'a'));
  CHECK(cache.find(key(8))->generation == 3);
  cache.put(key(8), 4, "");  // a newer generation replaces the tile
  CHECK(cache.find(key(8))->generation == 4);
  CHECK(cache.bytes() == 7 * 1128 + 128);
  cache.put(key(9), 5, std::string(1200, 'c'));  // over an eighth of the whole: not kept
  CHECK_FALSE(cache.find(key(9)));
  CHECK_FALSE(cache.find(TileKey{2, 7, 16, 0, 0}));  // another tenant's layer 7
  TileCache none(0);
  none.put(key(0), 1, "");
  CHECK_FALSE(none.find(key(0)));
}
