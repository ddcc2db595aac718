// Forwarding: path and query passed on, headers filtered, status and body passed through,
// failures as 502/504 in the error shape, X-Target-URL on every kind of response.
#include <doctest/doctest.h>

#include "fixture.hpp"

using namespace cadastre;
using test::Gateway;
using test::with;

namespace {

}  // namespace

TEST_CASE("the path after the prefix and the query reach the destination exactly") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  // The raw target is forwarded byte for byte, fields in the caller's order (commas are
  // written encoded because the test's HTTP client would encode them itself).
  std::string query = "pagina=2&BBOX=-47.1%2C-22.9%2C-47.0%2C-22.8&nome=S%C3%A3o%20Jos%C3%A9&filtro=a%26b%3Dc";
  auto r = cli.Get("/rest/logradouro/buscar_endereco/?" + query, test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 200);
  auto got = d.rest.last();
  CHECK(got.target == "/alfa/logradouro/buscar_endereco/?" + query);
  CHECK(got.params.find("nome")->second == "São José");
  CHECK(got.params.find("filtro")->second == "a&b=c");
  // (cpp-httplib's client percent-decodes header values it reads, hence the decoded form.)
  CHECK(r->get_header_value("X-Target-URL") ==
        d.rest.url() + "/alfa/logradouro/buscar_endereco/?pagina=2&BBOX=-47.1,-22.9,-47.0,-22.8&nome=São José&filtro=a&b=c");

  // Any other spelling arrives with the same decoded fields ('+' is a space in a query).
  cli.set_url_encode(false);  // send the target exactly as written here
  cli.Get("/rest/lote/?q=a+b&z=1&a=%7Bx%7D", test::alfa_auth());
  got = d.rest.last();
  CHECK(got.params.find("q")->second == "a b");
  CHECK(got.params.find("a")->second == "{x}");
  CHECK(got.params.find("z")->second == "1");

  // Paths keep their trailing slash (or its absence) and encoded characters.
  cli.Get("/rest/lote/S%C3%A3o%20Paulo", test::alfa_auth());
  CHECK(d.rest.last().target == "/alfa/lote/S%C3%A3o%20Paulo");
  cli.Get("/rest", test::alfa_auth());
  CHECK(d.rest.last().target == "/alfa");
  cli.Get("/plataforma/rest/projetos/?ativo=true", test::alfa_auth());
  CHECK(d.platform.last().target == "/api/projetos/?ativo=true");
}

TEST_CASE("paths that climb out of the destination with dot segments are refused") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/rest/%2E%2E/beta/lote/", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(r->get_header_value("X-Target-URL") == "none");
  CHECK(d.rest.count() == 0);
}

TEST_CASE("HEAD is forwarded as HEAD and the request id travels upstream") {
  test::Destinations d;
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto head = cli.Head("/rest/lote/", with(test::alfa_auth(), {{"X-Request-Id", "pedido-42"}}));
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->get_header_value("X-Request-Id") == "pedido-42");
  CHECK(head->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/lote/");
  CHECK(head->get_header_value("Content-Length") == "11");  // the GET body {"ok":true}
  CHECK(head->body.empty());
  auto got = d.rest.last();
  CHECK(got.method == "HEAD");
  CHECK(got.header("X-Request-Id") == "pedido-42");
  CHECK(got.header("X-Forwarded-For") == "127.0.0.1");
}

TEST_CASE("hop-by-hop headers are removed both ways and end-to-end headers pass") {
  test::Destinations d;
  d.rest.on([](const httplib::Request&, httplib::Response& res) {
    res.set_header("Connection", "X-Salto-Resposta");
    res.set_header("X-Salto-Resposta", "nao-deve-passar");
    res.set_header("ETag", "\"v7\"");
    res.set_header("X-Do-Destino", "passa");
    res.set_content("{}", "application/json");
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/rest/lote/", with(test::alfa_auth(), {{"Connection", "X-Salto"}, {"X-Salto", "segredo"},
                                                     {"Upgrade", "h2c"}, {"TE", "trailers"}, {"User-Agent", "QGIS/3.34"},
                                                     {"If-None-Match", "\"v6\""}}));
  REQUIRE(r);
  auto got = d.rest.last();
  CHECK_FALSE(got.has_header("X-Salto"));
  CHECK_FALSE(got.has_header("Upgrade"));
  CHECK_FALSE(got.has_header("TE"));
  CHECK(got.header("User-Agent") == "QGIS/3.34");
  CHECK(got.header("If-None-Match") == "\"v6\"");
  CHECK_FALSE(r->has_header("X-Salto-Resposta"));
  CHECK(r->get_header_value("ETag") == "\"v7\"");
  CHECK(r->get_header_value("X-Do-Destino") == "passa");
}

TEST_CASE("the destination's status, body and content type are passed through") {
  test::Destinations d;
  d.rest.on([](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/alfa/lote/999/") {
      res.status = 404;
      res.set_content(R"({"mensagem":"lote não encontrado","tipo":"erro","codigo":"nao_encontrado"})", "application/json");
    } else {
      res.status = 201;
      res.set_content("<ok/>", "application/xml");
    }
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto nf = cli.Get("/rest/lote/999/", test::alfa_auth());
  REQUIRE(nf);
  CHECK(nf->status == 404);
  CHECK(test::codigo(nf->body) == "nao_encontrado");
  CHECK(nf->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/lote/999/");
  auto created = cli.Get("/rest/outra/", test::alfa_auth());
  CHECK(created->status == 201);
  CHECK(created->body == "<ok/>");
  CHECK(created->get_header_value("Content-Type") == "application/xml");
}

TEST_CASE("large bodies pass intact, and the destination compresses them for callers that accept gzip") {
  test::Destinations d;
  std::string big(300000, 'x');
  for (std::size_t i = 0; i < big.size(); i += 97) big[i] = static_cast<char>('a' + i % 26);
  d.rest.on([&big](const httplib::Request&, httplib::Response& res) { res.set_content(big, "application/json"); });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto plain = cli.Get("/rest/lote/", test::alfa_auth());
  REQUIRE(plain);
  CHECK(plain->body == big);
  CHECK(d.rest.last().header("Accept-Encoding") == "identity");  // whatever the caller accepts
  cli.set_decompress(true);
  auto gz = cli.Get("/rest/lote/", with(test::alfa_auth(), {{"Accept-Encoding", "gzip"}}));
  REQUIRE(gz);
  CHECK(d.rest.last().header("Accept-Encoding") == "gzip");  // the caller's choice went on
  CHECK(gz->get_header_value("Content-Encoding") == "gzip");
  CHECK(gz->body == big);
}

TEST_CASE("a destination that refuses connections gives 502 with X-Target-URL") {
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.tenant_default.rest = "http://127.0.0.1:" + std::to_string(test::dead_port()) + "/{municipio}";
  Gateway gw(cfg);
  auto cli = gw.client();
  auto r = cli.Get("/rest/lote/?a=1", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 502);
  CHECK(test::codigo(r->body) == "falha_no_servico_externo");
  CHECK(r->get_header_value("X-Target-URL") ==
        cfg.tenant_default.rest.substr(0, cfg.tenant_default.rest.find('{')) + "alfa/lote/?a=1");
  CHECK(gw.log().find(R"("msg":"falha no destino")") != std::string::npos);
}

TEST_CASE("a destination slower than the read time-out gives 504 with X-Target-URL") {
  test::Destinations d;
  d.rest.on([](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    res.set_content("{}", "application/json");
  });
  auto cfg = test::config_for(d);
  cfg.timeouts.read = std::chrono::milliseconds(200);
  Gateway gw(cfg);
  auto cli = gw.client();
  auto started = std::chrono::steady_clock::now();
  auto r = cli.Get("/rest/lento/", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 504);
  CHECK(test::codigo(r->body) == "tempo_esgotado_no_servico_externo");
  CHECK(r->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/lento/");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(550));
}

TEST_CASE("X-Target-URL is on every kind of response") {
  test::Destinations d;
  d.rest.on([](const httplib::Request& req, httplib::Response& res) {
    res.status = req.path.find("falha") != std::string::npos ? 500 : 200;
    res.set_content("{}", "application/json");
  });
  auto cfg = test::config_for(d);
  cfg.breakers["rest"] = test::quick_breaker(60000);
  cfg.breakers["rest"].failure_statuses = {500};
  Gateway gw(cfg);
  auto cli = gw.client();
  std::string base = d.rest.url() + "/alfa";
  CHECK(cli.Get("/rest/ok/", test::alfa_auth())->get_header_value("X-Target-URL") == base + "/ok/");
  CHECK(cli.Get("/rest/ok/")->get_header_value("X-Target-URL") == "none");  // 401, tenant unknown
  CHECK(cli.Get("/plataforma/rest/x")->get_header_value("X-Target-URL") == d.platform.url() + "/api/x");  // 401, fixed
  for (int i = 0; i < 3; ++i) {  // with the earlier success: 3 of 4 failed, the breaker opens
    auto r = cli.Get("/rest/falha/", test::alfa_auth());
    CHECK(r->status == 500);
    CHECK(r->get_header_value("X-Target-URL") == base + "/falha/");
  }
  auto open = cli.Get("/rest/ok/", test::alfa_auth());
  CHECK(open->status == 503);
  CHECK(open->get_header_value("X-Target-URL") == base + "/ok/");
  CHECK(cli.Get("/outros/nao-existe/x")->get_header_value("X-Target-URL") == "none");
  CHECK(cli.Get("/caminho/qualquer")->status == 404);
  CHECK(cli.Get("/caminho/qualquer")->get_header_value("X-Target-URL") == "none");
  CHECK(cli.Get("/health")->get_header_value("X-Target-URL") == "none");
}
