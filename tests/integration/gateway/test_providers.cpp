// External provider routes /outros/<label>/*: plain forwarding, land-registry themes,
// the gateway-managed token of map-export-city-a, city-d vector tiles, binary images.
#include <doctest/doctest.h>

#include <atomic>

#include "fixture.hpp"

using namespace cadastre;
using test::Gateway;
using test::Upstream;

namespace {

gateway::ProviderConfig provider(const std::string& label, const std::string& url) {
  gateway::ProviderConfig p;
  p.label = label;
  p.url = url;
  return p;
}

// A token issuer (POST /oauth/token) that hands out tok-1, tok-2... and a map server that
// accepts only the newest token, like a provider whose tokens can be revoked.
struct TokenWorld {
  Upstream issuer, maps;
  std::atomic<int> issued{0};
  std::atomic<int> lifetime_s{3600};
  std::mutex mutex;
  std::string valid;

  TokenWorld() {
    issuer.on([this](const httplib::Request& req, httplib::Response& res) {
      if (req.method != "POST" || req.get_param_value("grant_type") != "client_credentials" ||
          req.get_param_value("client_id") != "gw" || req.get_param_value("client_secret") != "s3") {
        res.status = 401;
        return;
      }
      std::lock_guard lock(mutex);
      valid = "tok-" + std::to_string(++issued);
      res.set_content(R"({"access_token":")" + valid + R"(","expires_in":)" + std::to_string(lifetime_s.load()) + "}",
                      "application/json");
    });
    maps.on([this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex);
      if (req.get_param_value("token") != valid) {
        res.status = 401;
        res.set_content(R"({"error":{"code":401,"message":"Invalid token"}})", "application/json");
        return;
      }
      res.set_content(std::string("\x89PNG\r\n\x1a\n\0\0mapa", 14), "image/png");
    });
  }
  void revoke() {
    std::lock_guard lock(mutex);
    valid = "revogado";
  }
  gateway::ProviderConfig config() const {
    auto p = provider("map-export-city-a", maps.url() + "/arcgis/rest/services/Cadastro/MapServer/export");
    gateway::ProviderTokenConfig t;
    t.token_url = issuer.url() + "/oauth/token";
    t.client_id = "gw";
    t.client_secret = "s3";
    t.refresh_margin = std::chrono::milliseconds(0);
    p.token = t;
    return p;
  }
};

}  // namespace

TEST_CASE("a public provider receives the path and the caller's parameters, without credentials") {
  test::Destinations d;
  Upstream ows;
  auto cfg = test::config_for(d);
  cfg.providers["geo-state-ows"] = provider("geo-state-ows", ows.url() + "/geoserver/ows");
  Gateway gw(cfg);
  auto cli = gw.client();
  auto r = cli.Get("/outros/geo-state-ows/wfs?SERVICE=WFS&REQUEST=GetCapabilities",
                   {{"Authorization", "Bearer segredo"}, {"Cookie", "sessao=1"}, {"Origin", "https://mapa.example"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  auto got = ows.last();
  CHECK(got.target == "/geoserver/ows/wfs?SERVICE=WFS&REQUEST=GetCapabilities");  // caller's order
  CHECK_FALSE(got.has_header("Authorization"));
  CHECK_FALSE(got.has_header("Cookie"));
  CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(r->get_header_value("X-Target-URL") == ows.url() + "/geoserver/ows/wfs?SERVICE=WFS&REQUEST=GetCapabilities");
  auto bare = cli.Get("/outros/geo-state-ows?SERVICE=WMS");
  REQUIRE(bare);
  CHECK(ows.last().target == "/geoserver/ows?SERVICE=WMS");
  CHECK(bare->get_header_value("Access-Control-Allow-Origin") == "*");
}

TEST_CASE("land-registry without a theme is 422; with one, the theme goes on as parameter tema") {
  test::Destinations d;
  Upstream wms;
  auto cfg = test::config_for(d);
  cfg.providers["land-registry"] = provider("land-registry", wms.url() + "/geoserver/wms?service=WMS");
  Gateway gw(cfg);
  auto cli = gw.client();
  for (const char* path : {"/outros/land-registry", "/outros/land-registry/", "/outros/land-registry?REQUEST=GetMap"}) {
    auto r = cli.Get(path);
    REQUIRE(r);
    CHECK(r->status == 422);
    CHECK(test::codigo(r->body) == "entidade_improcessavel");
    CHECK(r->get_header_value("X-Target-URL").rfind(wms.url() + "/geoserver/wms?service=WMS", 0) == 0);
  }
  CHECK(wms.count() == 0);
  auto ok = cli.Get("/outros/land-registry/imoveis_certificados/?REQUEST=GetMap&tema=ignorado");
  REQUIRE(ok);
  CHECK(ok->status == 200);
  auto got = wms.last();
  CHECK(got.path == "/geoserver/wms/");
  CHECK(got.target == "/geoserver/wms/?service=WMS&REQUEST=GetMap&tema=imoveis_certificados");
}

TEST_CASE("map-export-city-a requires the caller's credential") {
  test::Destinations d;
  TokenWorld world;
  auto cfg = test::config_for(d);
  cfg.providers["map-export-city-a"] = world.config();
  Gateway gw(cfg);
  auto cli = gw.client();
  auto r = cli.Get("/outros/map-export-city-a/?bbox=1,2,3,4&f=image");
  REQUIRE(r);
  CHECK(r->status == 401);
  CHECK(r->get_header_value("X-Target-URL") ==
        world.maps.url() + "/arcgis/rest/services/Cadastro/MapServer/export/?bbox=1,2,3,4&f=image");
  CHECK(world.issued == 0);
  CHECK(world.maps.count() == 0);
}

TEST_CASE("the provider token is fetched once and reused, refreshed after expiry and after a 401") {
  test::Destinations d;
  TokenWorld world;
  world.lifetime_s = 3600;
  auto cfg = test::config_for(d);
  auto p = world.config();
  p.token->max_ttl = std::chrono::milliseconds(400);  // expires quickly in this test
  cfg.providers["map-export-city-a"] = p;
  Gateway gw(cfg);
  auto cli = gw.client();
  auto auth = test::Stack::bearer(test::shared_stack().user("alfa").token);

  for (int i = 0; i < 3; ++i) {
    auto r = cli.Get("/outros/map-export-city-a?bbox=1,2,3,4&f=image", auth);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == std::string("\x89PNG\r\n\x1a\n\0\0mapa", 14));
    CHECK(r->get_header_value("Content-Type") == "image/png");
    CHECK(r->get_header_value("X-Target-URL").find("token") == std::string::npos);  // never shown
  }
  CHECK(world.issued == 1);
  CHECK(world.maps.last().params.find("token")->second == "tok-1");
  CHECK(world.maps.last().params.find("bbox")->second == "1,2,3,4");
  CHECK_FALSE(world.maps.last().has_header("Authorization"));  // the caller's token stays home

  std::this_thread::sleep_for(std::chrono::milliseconds(450));
  CHECK(cli.Get("/outros/map-export-city-a?f=image", auth)->status == 200);
  CHECK(world.issued == 2);
  CHECK(world.maps.last().params.find("token")->second == "tok-2");

  world.revoke();  // the provider stops accepting tok-2: the gateway renews and retries once
  auto after = cli.Get("/outros/map-export-city-a?f=image", auth);
  REQUIRE(after);
  CHECK(after->status == 200);
  CHECK(world.issued == 3);
  CHECK(world.maps.last().params.find("token")->second == "tok-3");
  auto metrics = cli.Get("/metrics");
  CHECK(metrics->body.find("cadastre_gateway_provider_token_fetches_total{provedor=\"map-export-city-a\"} 3") !=
        std::string::npos);
}

TEST_CASE("a token issuer that refuses the gateway gives 502 with X-Target-URL") {
  test::Destinations d;
  TokenWorld world;
  auto cfg = test::config_for(d);
  auto p = world.config();
  p.token->client_secret = "errado";
  cfg.providers["map-export-city-a"] = p;
  Gateway gw(cfg);
  auto cli = gw.client();
  auto r = cli.Get("/outros/map-export-city-a/?f=image", test::Stack::bearer(test::shared_stack().user("alfa").token));
  REQUIRE(r);
  CHECK(r->status == 502);
  CHECK(r->get_header_value("X-Target-URL") == world.maps.url() + "/arcgis/rest/services/Cadastro/MapServer/export/?f=image");
  CHECK(world.maps.count() == 0);
}

TEST_CASE("city-d vector tiles substitute z, x and y and come back as MVT without cache") {
  test::Destinations d;
  Upstream tiles;
  tiles.on([](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "public, max-age=86400");
    res.set_content(std::string("\x1a\x05lotes\0\x01", 9), "application/octet-stream");
  });
  auto cfg = test::config_for(d);
  cfg.providers["city-d-vector-tiles"] = provider("city-d-vector-tiles", tiles.url() + "/vt/lotes/{z}/{x}/{y}.pbf");
  Gateway gw(cfg);
  auto cli = gw.client();
  auto r = cli.Get("/outros/city-d-vector-tiles/14/6070/9300.pbf?versao=3");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(tiles.last().target == "/vt/lotes/14/6070/9300.pbf?versao=3");
  CHECK(r->body == std::string("\x1a\x05lotes\0\x01", 9));
  CHECK(r->get_header_value("Content-Type") == "application/vnd.mapbox-vector-tile");
  CHECK(r->get_header_value("Cache-Control") == "no-cache, no-store, must-revalidate");
  CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(cli.Get("/outros/city-d-vector-tiles/2/1/3")->status == 200);
  CHECK(tiles.last().path == "/vt/lotes/2/1/3.pbf");
  for (const char* bad : {"/outros/city-d-vector-tiles/2/4/0.pbf", "/outros/city-d-vector-tiles/x/1/1",
                          "/outros/city-d-vector-tiles/1/1", "/outros/city-d-vector-tiles"}) {
    auto b = cli.Get(bad);
    REQUIRE(b);
    CHECK_MESSAGE(b->status == 400, bad);
  }
  CHECK(tiles.count() == 2);
}

TEST_CASE("an image FORMAT returns the provider's binary byte for byte") {
  test::Destinations d;
  Upstream wms;
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01", 20);
  wms.on([&png](const httplib::Request&, httplib::Response& res) { res.set_content(png, "application/octet-stream"); });
  auto cfg = test::config_for(d);
  cfg.providers["env-state-wms"] = provider("env-state-wms", wms.url() + "/wms");
  Gateway gw(cfg);
  auto cli = gw.client();
  auto r = cli.Get("/outros/env-state-wms/?SERVICE=WMS&REQUEST=GetMap&FORMAT=image%2Fpng&LAYERS=app");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == png);
  CHECK(r->get_header_value("Content-Type") == "image/png");
}

TEST_CASE("unconfigured and unknown providers answer in the error shape with X-Target-URL none") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto missing = cli.Get("/outros/census-ows/?SERVICE=WMS");
  REQUIRE(missing);
  CHECK(missing->status == 503);
  CHECK(missing->get_header_value("X-Target-URL") == "none");
  auto unknown = cli.Get("/outros/google/mapa");
  CHECK(unknown->status == 404);
  CHECK(test::codigo(unknown->body) == "rota_nao_encontrada");
  // The caller's own mistake is told first: no theme is a 422 even where the provider is
  // not configured (the theme would be missing anywhere).
  auto no_theme = cli.Get("/outros/land-registry/");
  REQUIRE(no_theme);
  CHECK(no_theme->status == 422);
  CHECK(cli.Get("/outros/land-registry/imoveis/")->status == 503);
}
