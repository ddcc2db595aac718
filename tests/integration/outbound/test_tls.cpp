// https destinations: the certificate is verified against the URL's host (system CAs plus
// Policy::ca_file) although the connection goes to the address checked beforehand.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "destination.hpp"

using namespace cadastre;
using namespace cadastre::outbound;
using test::Destination;
using test::expect_refused;
using test::get;
using test::loopback_policy;

namespace {

// A self-signed certificate naming `names` (a subjectAltName list), made with the openssl
// command line and removed with its folder.
struct SelfSigned {
  std::filesystem::path dir;
  std::string cert, key;
  explicit SelfSigned(const std::string& names) {
    static int count = 0;
    dir = std::filesystem::temp_directory_path() /
          ("cadastre-outbound-tls-" + std::to_string(::getpid()) + "-" + std::to_string(++count));
    std::filesystem::create_directories(dir);
    cert = (dir / "cert.pem").string();
    key = (dir / "key.pem").string();
    std::string cmd =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=teste -addext "
        "subjectAltName=" +
        names + " -keyout " + key + " -out " + cert + " >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
  }
  ~SelfSigned() { std::filesystem::remove_all(dir); }
};

Destination tls_destination(const SelfSigned& c) {
  return Destination(
      [](httplib::Server& s) {
        s.Get(".*", [](const httplib::Request& req, httplib::Response& res) {
          res.set_content("seguro " + req.path, "text/plain");
        });
      },
      "127.0.0.1", std::make_unique<httplib::SSLServer>(c.cert.c_str(), c.key.c_str()));
}

}  // namespace

TEST_CASE("an https destination trusted through ca_file answers, by name and by address") {
  SelfSigned cert("DNS:localhost,IP:127.0.0.1");
  Destination d = tls_destination(cert);
  Policy p = loopback_policy();
  p.ca_file = cert.cert;
  Response by_name = get(p, "https://localhost:" + std::to_string(d.port()) + "/mapa");
  CHECK(by_name.status == 200);
  CHECK(by_name.body == "seguro /mapa");
  Response by_address = get(p, d.url("/x", "https"));
  CHECK(by_address.body == "seguro /x");
}

TEST_CASE(
    "an untrusted certificate, or one for another name, is refused before the request is sent") {
  SelfSigned cert("DNS:outro.example,IP:127.0.0.2");
  Destination d = tls_destination(cert);
  Policy untrusted = loopback_policy();
  expect_refused([&] { get(untrusted, d.url("/", "https")); }, errc::upstream_failed,
                 "certificado recusado");
  Policy trusted = untrusted;
  trusted.ca_file = cert.cert;
  expect_refused([&] { get(trusted, "https://localhost:" + std::to_string(d.port()) + "/"); },
                 errc::upstream_failed, "certificado recusado");
  expect_refused([&] { get(trusted, d.url("/", "https")); }, errc::upstream_failed,
                 "certificado recusado");
  CHECK(d.hits() == 0);
  trusted.ca_file = cert.dir.string() + "/nao-existe.pem";
  expect_refused([&] { get(trusted, d.url("/", "https")); }, errc::internal, "ca_file ilegível");
}
