// https destinations: the certificate is verified (system CAs plus upstream.ca_file) and
// the call is otherwise the same as over plain HTTP.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "fixture.hpp"

using namespace cadastre;
using test::Gateway;

namespace {


// A self-signed certificate for 127.0.0.1 (openssl CLI), removed with the folder.
struct SelfSigned {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("cadastre-tls-" + std::to_string(::getpid()));
  std::string cert = (dir / "cert.pem").string(), key = (dir / "key.pem").string();
  SelfSigned() {
    std::filesystem::create_directories(dir);
    std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
                      "-addext subjectAltName=IP:127.0.0.1 -keyout " + key + " -out " + cert + " >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
  }
  ~SelfSigned() { std::filesystem::remove_all(dir); }
};

// An https destination answering every GET with the path it was asked for.
struct TlsDestination {
  httplib::SSLServer server;
  std::thread thread;
  int port = 0;
  explicit TlsDestination(const SelfSigned& c) : server(c.cert.c_str(), c.key.c_str()) {
    REQUIRE(server.is_valid());
    server.Get(".*", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content("{\"caminho\":\"" + req.path + "\"}", "application/json");
    });
    port = server.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~TlsDestination() {
    server.stop();
    thread.join();
  }
};

}  // namespace

TEST_CASE("an https destination trusted through upstream.ca_file is called and its answer passed on") {
  SelfSigned cert;
  TlsDestination tls(cert);
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.tenant_default.rest = "https://127.0.0.1:" + std::to_string(tls.port) + "/{municipio}";
  cfg.upstream.ca_file = cert.cert;
  Gateway gw(cfg);
  auto cli = gw.client();
  for (int i = 0; i < 3; ++i) {  // the kept-alive TLS connection is reused
    auto r = cli.Get("/rest/lote/7/", test::alfa_auth());
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == "{\"caminho\":\"/alfa/lote/7/\"}");
  }
  auto stats = gw.app().upstream().stats();
  auto host = stats.find("https://127.0.0.1:" + std::to_string(tls.port));
  REQUIRE(host != stats.end());
  CHECK(host->second.opened == 1);
  CHECK(host->second.reused == 2);
}

TEST_CASE("an https destination whose certificate is not trusted gets 502, nothing is sent to it") {
  SelfSigned cert;
  TlsDestination tls(cert);
  test::Destinations d;
  auto cfg = test::config_for(d);
  cfg.tenant_default.rest = "https://127.0.0.1:" + std::to_string(tls.port) + "/{municipio}";
  Gateway gw(cfg);  // no ca_file: the self-signed certificate fails verification
  auto cli = gw.client();
  auto r = cli.Get("/rest/lote/7/", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 502);
  CHECK(test::codigo(r->body) == "falha_no_servico_externo");
  CHECK(r->get_header_value("X-Target-URL") == "https://127.0.0.1:" + std::to_string(tls.port) + "/alfa/lote/7/");
  CHECK(gw.log().find("certificate") != std::string::npos);  // the reason is logged
}
