// Revalidation: ETag from the layer generation, 304 on If-None-Match, new ETag after a write.
#include "fixture.hpp"
#include "store/audit.hpp"

using namespace cadastre::test;

namespace {

// What every write through the API does in its transaction.
std::int64_t bump(const std::string& layer) {
  auto& app = city().app();
  auto tenant = app.identity().tenant("alfa");
  REQUIRE(tenant);
  return app.tenants().pool(*tenant).with(
      [&](soci::session& s) { return cadastre::store::bump_generation(s, layer); });
}

}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "a tile carries an ETag and Cache-Control no-cache; the same ETag in If-None-Match is 304") {
  const std::string path = tile_path("lote", tile_with_lots(16));
  auto first = fetch(path);
  REQUIRE(first->status == 200);
  const std::string etag = first->header("ETag");
  REQUIRE(etag.size() > 2);
  CHECK(etag.front() == '"');
  CHECK(etag.back() == '"');
  CHECK(first->header("Cache-Control") == "no-cache");

  auto again = fetch(path);
  CHECK(again->header("ETag") == etag);

  auto revalidated = fetch(path, city().user("alfa").token, {{"If-None-Match", etag}});
  CHECK(revalidated->status == 304);
  CHECK(revalidated->body.empty());
  CHECK(revalidated->header("ETag") == etag);

  // Weak form, lists and "*" match too; another tag does not.
  CHECK(fetch(path, city().user("alfa").token, {{"If-None-Match", "W/" + etag}})->status == 304);
  CHECK(fetch(path, city().user("alfa").token, {{"If-None-Match", "\"x\", " + etag}})->status == 304);
  CHECK(fetch(path, city().user("alfa").token, {{"If-None-Match", "*"}})->status == 304);
  CHECK(fetch(path, city().user("alfa").token, {{"If-None-Match", "\"0-00000000\""}})->status == 200);
}

TEST_CASE_FIXTURE(
    Fixture, "a write to the layer (generation bump) changes the ETag; other layers keep theirs") {
  const auto tile = tile_with_lots(16);
  auto lote = fetch(tile_path("lote", tile));
  auto quadra = fetch(tile_path("quadra", tile));
  REQUIRE(lote->status == 200);
  REQUIRE(quadra->status == 200);
  std::string tag = lote->header("ETag");

  // The first write of a layer (its generation row is created) and every later one.
  for (int write = 1; write <= 2; ++write) {
    CAPTURE(write);
    bump("lote");
    auto after = fetch(tile_path("lote", tile), city().user("alfa").token, {{"If-None-Match", tag}});
    CHECK(after->status == 200);
    CHECK(!after->body.empty());
    CHECK(after->header("ETag") != tag);
    tag = after->header("ETag");
    CHECK(fetch(tile_path("lote", tile), city().user("alfa").token, {{"If-None-Match", tag}})->status == 304);
  }
  CHECK(fetch(tile_path("quadra", tile), city().user("alfa").token, {{"If-None-Match", quadra->header("ETag")}})->status ==
        304);
}

TEST_CASE_FIXTURE(Fixture, "empty tiles are revalidated the same way") {
  const auto ocean = cadastre::tiles::tile_for_lonlat(-30.0, -25.0, 14);
  auto r = fetch(tile_path("lote", ocean));
  REQUIRE(r->status == 204);
  CHECK(fetch(tile_path("lote", ocean), city().user("alfa").token, {{"If-None-Match", r->header("ETag")}})->status == 304);
}
