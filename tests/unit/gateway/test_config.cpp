// The configuration file: the documented example parses, mistakes are named.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "gateway/config.hpp"
#include "gateway/demo_config.hpp"

using namespace cadastre::gateway;

namespace {
const char* kMinimal = R"({
  "destinations": {
    "rest": "http://127.0.0.1:8080/{municipio}",
    "tiles": "http://127.0.0.1:8080/tiles/{municipio}",
    "platform_rest": "http://127.0.0.1:8081",
    "platform_tiles": "http://127.0.0.1:8081/tiles"
  }
})";

std::string error_of(const std::string& json) {
  try {
    parse_config(json);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string with(const std::string& extra) {
  std::string s = kMinimal;
  return s.substr(0, s.rfind('}')) + "," + extra + "}";
}

// apps/cadastre-gateway/gateway.example.json, with the secrets it names set.
Config example_config() {
  std::ifstream in(CADASTRE_GATEWAY_EXAMPLE);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  setenv("MAPA_CIDADE_A_SEGREDO", "segredo-de-teste", 1);
  setenv("INTRANET_JWT_SEGREDO", "segredo-jwt", 1);
  return parse_config(ss.str());
}
}  // namespace

TEST_CASE("a minimal configuration gets the defaults") {
  Config c = parse_config(kMinimal);
  CHECK(c.tenant_default.rest == "http://127.0.0.1:8080/{municipio}");
  CHECK(c.readiness_url == "http://127.0.0.1:8081");
  CHECK(c.providers.empty());
  CHECK(c.breakers.size() == 3);
  for (const auto& [name, policy] : c.breakers) {
    CAPTURE(name);
    CHECK(policy.settings.sliding_window == std::chrono::seconds(10));
    CHECK(policy.settings.minimum_calls == 20);
    CHECK(policy.settings.failure_rate_threshold == doctest::Approx(50.0));
  }
  CHECK(c.breakers.at("auth").settings.wait_in_open == std::chrono::seconds(5));
  CHECK(c.timeouts.read == std::chrono::seconds(15));
  CHECK(c.token_cache_ttl == std::chrono::seconds(5));
  CHECK(c.destinations_for("qualquer").tiles == "http://127.0.0.1:8080/tiles/{municipio}");
}

TEST_CASE("the documented example configuration parses") {
  Config c = example_config();
  CHECK(c.providers.size() == 12);
  REQUIRE(c.providers.at("map-export-city-a").token);
  CHECK(c.providers.at("map-export-city-a").token->client_secret == "segredo-de-teste");
  CHECK(c.intranet.hs256_secret == "segredo-jwt");
  CHECK(c.tenant_overrides.count("valinhos") == 1);
  CHECK(c.breakers.at("tiles").failure_statuses.count(503) == 1);
}

TEST_CASE("the demo configuration points at cadastre-server and parses") {
  Config c = parse_config(demo_config_json("http://127.0.0.1:8080/", ""));
  CHECK(c.tenant_default.rest == "http://127.0.0.1:8080/{municipio}");
  CHECK(c.tenant_default.tiles == "http://127.0.0.1:8080/tiles/{municipio}");
  CHECK(c.platform_rest == "http://127.0.0.1:8080");
  CHECK(c.readiness_url == "http://127.0.0.1:8080/health-check/liveness/");
}

TEST_CASE("every shipped connect time-out is 2 s, between the SYN retransmissions at 1 s and 3 s") {
  // A connect time-out of exactly 1 s gives up as the first SYN retransmission leaves.
  CHECK(Timeouts{}.connect == std::chrono::milliseconds(2000));
  CHECK(parse_config(kMinimal).timeouts.connect == std::chrono::milliseconds(2000));
  CHECK(parse_config(demo_config_json("http://127.0.0.1:8080/", "")).timeouts.connect ==
        std::chrono::milliseconds(2000));
  CHECK(example_config().timeouts.connect == std::chrono::milliseconds(2000));
}

TEST_CASE("typos, unknown providers and bad templates are configuration errors naming the key") {
  CHECK(error_of(with(R"("timeout": {})")) == "configuração do gateway: 'timeout' não é uma chave conhecida");
  CHECK(error_of(with(R"("_comentario": "ignorado")")).empty());
  CHECK(error_of(with(R"("providers": {"google-maps": "https://x"})")) ==
        "configuração do gateway: 'providers.google-maps' não é um dos doze provedores do gateway");
  CHECK(error_of(with(R"("providers": {"city-d-vector-tiles": "https://t/{z}/{x}.pbf"})")) ==
        "configuração do gateway: 'providers.city-d-vector-tiles' precisa do marcador {y}");
  CHECK(error_of(with(R"("providers": {"census-ows": "ftp://x"})")) ==
        "configuração do gateway: 'providers.census-ows' não é um endereço http(s) absoluto: ftp://x");
  CHECK(error_of(with(R"("providers": {"map-export-city-a": "https://x/export"})")) ==
        "configuração do gateway: 'providers.map-export-city-a' precisa do bloco 'token' (o gateway obtém o token do provedor)");
  std::string bad_rest = kMinimal;
  bad_rest.replace(bad_rest.find("{municipio}"), 11, "{cidade}");
  CHECK(error_of(bad_rest) ==
        "configuração do gateway: 'destinations.rest' usa o marcador {cidade}, que não existe aqui");
  CHECK(error_of(R"({"destinations": {"rest": "http://h/{municipio}"}})") ==
        "configuração do gateway: 'destinations.tiles' é obrigatório");
  CHECK(error_of("{").rfind("configuração do gateway: JSON inválido", 0) == 0);
}

TEST_CASE("breaker settings merge defaults and per-name values, and are validated") {
  Config c = parse_config(with(R"("breakers": {"defaults": {"wait_open_ms": 250},
                                               "rest": {"sliding_window_seconds": 30, "minimum_calls": 4, "failure_statuses": [500, 503]}})"));
  CHECK(c.breakers.at("rest").settings.wait_in_open == std::chrono::milliseconds(250));
  CHECK(c.breakers.at("tiles").settings.wait_in_open == std::chrono::milliseconds(250));
  CHECK(c.breakers.at("rest").settings.sliding_window == std::chrono::seconds(30));
  CHECK(c.breakers.at("rest").settings.minimum_calls == 4);
  CHECK(c.breakers.at("tiles").settings.sliding_window == std::chrono::seconds(10));
  CHECK(c.breakers.at("rest").failure_statuses == std::set<int>{500, 503});
  CHECK(
      error_of(with(R"("breakers": {"rest": {"sliding_window_seconds": 0}})")) ==
      "configuração do gateway: 'breakers.rest.sliding_window_seconds' deve estar entre 1 e 3600");
  CHECK(error_of(with(R"("breakers": {"rest": {"failure_rate_percent": 0}})")) ==
        "configuração do gateway: 'breakers.rest' failure_rate_percent deve estar entre 0 "
        "(exclusive) e 100");
}

TEST_CASE("the former count-based sliding_window key is refused, naming its replacement") {
  CHECK(error_of(with(R"("breakers": {"defaults": {"sliding_window": 20}})")) ==
        "configuração do gateway: 'breakers.defaults.sliding_window' foi substituída por "
        "sliding_window_seconds (a janela agora é de tempo)");
}
