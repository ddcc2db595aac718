// Tile headers, health routes, metrics and the OpenAPI document of the gateway.
#include <doctest/doctest.h>

#include "fixture.hpp"

using namespace cadastre;
using test::Gateway;

namespace {
}  // namespace

TEST_CASE(".pbf tiles get the MVT content type and exact no-cache headers") {
  test::Destinations d;
  std::string mvt("\x1a\x0b\x0a\x04lote\x28\x80\x20\0\x01", 13);
  d.tiles.on([&mvt](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "public, max-age=3600");
    res.set_header("Expires", "Wed, 21 Oct 2037 07:28:00 GMT");
    res.set_header("ETag", "\"lote-17\"");
    res.set_content(mvt, "application/x-protobuf");
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/tiles/lote/14/6070/9300.pbf", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(d.tiles.last().target == "/tiles/alfa/lote/14/6070/9300.pbf");
  CHECK(r->body == mvt);
  CHECK(r->get_header_value("Content-Type") == "application/vnd.mapbox-vector-tile");
  CHECK(r->get_header_value_count("Cache-Control") == 1);
  CHECK(r->get_header_value("Cache-Control") == "no-cache, no-store, must-revalidate");
  CHECK(r->get_header_value("Pragma") == "no-cache");
  CHECK(r->get_header_value_count("Expires") == 1);
  CHECK(r->get_header_value("Expires") == "0");
  CHECK(r->get_header_value("ETag") == "\"lote-17\"");
  CHECK(r->get_header_value("X-Target-URL") == d.tiles.url() + "/tiles/alfa/lote/14/6070/9300.pbf");

  auto platform = cli.Get("/plataforma/tiles/quadra/10/1/1.pbf", test::alfa_auth());
  REQUIRE(platform);
  CHECK(platform->get_header_value("Content-Type") == "application/vnd.mapbox-vector-tile");
  CHECK(d.platform.last().target == "/tiles/quadra/10/1/1.pbf");
}

TEST_CASE("tile errors keep their JSON type but are not cacheable either") {
  test::Destinations d;
  d.tiles.on([](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content(R"({"mensagem":"camada desconhecida","tipo":"erro","codigo":"camada_nao_encontrada"})", "application/json");
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/tiles/nada/1/0/0.pbf", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 404);
  CHECK(r->get_header_value("Content-Type") == "application/json");
  CHECK(r->get_header_value("Cache-Control") == "no-cache, no-store, must-revalidate");
  auto refused = cli.Get("/tiles/lote/1/0/0.pbf");
  CHECK(refused->status == 401);
  CHECK(refused->get_header_value("Pragma") == "no-cache");
}

TEST_CASE("health routes answer without credentials") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  for (const char* path : {"/health", "/health-check/liveness", "/health-check/liveness/", "/health-check/startup"}) {
    auto r = cli.Get(path);
    REQUIRE(r);
    CHECK_MESSAGE(r->status == 200, path);
  }
  auto ready = cli.Get("/health-check/readiness");
  REQUIRE(ready);
  CHECK(ready->status == 200);
  CHECK(ready->get_header_value("X-Target-URL") == d.platform.url() + "/health-check/liveness/");
  CHECK(d.platform.last().path == "/health-check/liveness/");
}

TEST_CASE("readiness is 503 while the platform REST does not answer, and startup while the store is down") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.readiness_url = "http://127.0.0.1:" + std::to_string(test::dead_port()) + "/health-check/liveness/";
  cfg.platform_dsn = "host=127.0.0.1 port=" + std::to_string(test::dead_port()) + " dbname=nada user=ninguem";
  store::PoolOptions pool;
  pool.wait = std::chrono::milliseconds(200);
  Gateway gw(cfg, pool);
  auto cli = gw.client();
  auto ready = cli.Get("/health-check/readiness");
  REQUIRE(ready);
  CHECK(ready->status == 503);
  CHECK(test::codigo(ready->body) == "servico_indisponivel");
  CHECK(ready->get_header_value("X-Target-URL") == cfg.readiness_url);
  auto startup = cli.Get("/health-check/startup");
  CHECK(startup->status == 503);
  CHECK(cli.Get("/health-check/liveness")->status == 200);
}

TEST_CASE("health detail lists the three breakers with state and counts, memory, uptime and version") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  cli.Get("/rest/lote/", test::alfa_auth());
  cli.Get("/tiles/lote/1/0/0.pbf", test::alfa_auth());
  auto r = cli.Get("/health/detailed");
  REQUIRE(r);
  CHECK(r->status == 200);
  simdjson::dom::parser p;
  auto doc = p.parse(r->body);
  CHECK(std::string_view(doc["status"]) == "ok");
  CHECK(std::string_view(doc["versao"]) == "0.1.0");
  CHECK(double(doc["uptime_s"]) >= 0.0);
  CHECK(int64_t(doc["memoria"]["rss_bytes"]) > 1000000);
  for (const char* name : {"rest", "tiles", "auth"}) CHECK(std::string_view(doc["circuit_breakers"][name]["estado"]) == "CLOSED");
  auto rest = doc["circuit_breakers"]["rest"]["destinos"].get_array().at(0);
  CHECK(std::string_view(rest["destino"]) == d.rest.url());
  CHECK(int64_t(rest["sucessos"]) == 1);
  CHECK(int64_t(rest["falhas"]) == 0);
  CHECK(int64_t(rest["chamadas_na_janela"]) == 1);
  auto auth = doc["circuit_breakers"]["auth"]["destinos"].get_array().at(0);
  CHECK(std::string_view(auth["destino"]) == gateway::identity_store_label(test::shared_stack().platform_dsn()));
}

TEST_CASE("metrics show requests by route and figures per breaker and destination") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  cli.Get("/rest/lote/", test::alfa_auth());
  auto m = cli.Get("/metrics");
  REQUIRE(m);
  CHECK(m->status == 200);
  CHECK(m->body.find("route=\"/rest/{caminho*}\"") != std::string::npos);
  CHECK(m->body.find("cadastre_gateway_breaker_state{breaker=\"rest\",destino=\"" + d.rest.url() + "\"} 0") !=
        std::string::npos);
  CHECK(m->body.find("cadastre_gateway_breaker_calls_total{breaker=\"rest\",destino=\"" + d.rest.url() +
                     "\",resultado=\"sucesso\"} 1") != std::string::npos);
  CHECK(m->body.find("cadastre_gateway_upstream_idle_connections{destino=\"" + d.rest.url() + "\"} 1") !=
        std::string::npos);
}

TEST_CASE("every gateway route is in the OpenAPI document with its auth scheme") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/openapi.json");
  REQUIRE(r);
  simdjson::dom::parser p;
  auto doc = p.parse(r->body);
  auto paths = doc["paths"];
  for (const char* path : {"/rest/{caminho}", "/tiles/{caminho}", "/plataforma/rest/{caminho}", "/plataforma/tiles/{caminho}",
                           "/outros/geo-state-ows/{caminho}", "/outros/map-export-city-a/{caminho}",
                           "/outros/land-registry/{tema}/{caminho}", "/outros/city-d-vector-tiles/{caminho}", "/health",
                           "/health/detailed", "/health-check/startup", "/health-check/readiness", "/health-check/liveness"}) {
    CHECK_MESSAGE(!paths[path].error(), path);
  }
  auto rest_security = paths["/rest/{caminho}"]["get"]["security"].get_array().at(0);
  CHECK(!rest_security["gateway"].error());
  CHECK(paths["/outros/geo-state-ows/{caminho}"]["get"]["security"].get_array().size() == 0);
  CHECK(!doc["components"]["securitySchemes"]["gateway"].error());
}

TEST_CASE("answers that reach no destination still carry X-Target-URL, as none") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto metrics = cli.Get("/metrics");
  REQUIRE(metrics);
  CHECK(metrics->get_header_value("X-Target-URL") == "none");
  auto wrong_method = cli.Delete("/rest/lote/", test::alfa_auth());
  REQUIRE(wrong_method);
  CHECK(wrong_method->status == 405);
  CHECK(wrong_method->get_header_value("X-Target-URL") == "none");
  auto preflight = cli.Options("/rest/lote/", {{"Origin", "https://mapa.example"}, {"Access-Control-Request-Method", "GET"}});
  REQUIRE(preflight);
  CHECK(preflight->get_header_value("X-Target-URL") == "none");
  CHECK(cli.Get("/openapi.json")->get_header_value("X-Target-URL") == "none");
  // A forwarded answer keeps its destination.
  auto forwarded = cli.Get("/rest/lote/", test::alfa_auth());
  REQUIRE(forwarded);
  CHECK(forwarded->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/lote/");
}
