// The SSRF rules over real sockets: what fetch() refuses, and that a refused destination
// receives nothing. Servers listen on loopback; the policies decide whether loopback counts
// as allowed.
#include <doctest/doctest.h>

#include <chrono>

#include "destination.hpp"

using namespace cadastre;
using namespace cadastre::outbound;
using test::Destination;
using test::expect_refused;
using test::get;
using test::loopback_policy;

namespace {

void answer_ok(httplib::Server& s) {
  s.Get(".*", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok", "text/plain");
  });
}

// A policy that lists the loopback names but allows no special-purpose network.
Policy listed_but_not_allowed() {
  Policy p = loopback_policy();
  p.allowed_hosts.push_back("::1");
  p.allowed_networks.clear();
  return p;
}

}  // namespace

TEST_CASE(
    "loopback is refused by address, even with the host listed, and the server receives nothing") {
  Destination v4(answer_ok);
  Destination v6(answer_ok, "::1");
  Policy p = listed_but_not_allowed();
  expect_refused([&] { get(p, v4.url()); }, errc::forbidden, "127.0.0.1 é endereço de loopback");
  expect_refused([&] { get(p, v6.url()); }, errc::forbidden, "::1 é endereço de loopback");
  // "localhost" is judged by what it resolves to.
  expect_refused([&] { get(p, "http://localhost:" + std::to_string(v4.port()) + "/"); },
                 errc::forbidden, "'localhost' resolve para ");
  // Allowing 127.0.0.0/8 does not allow ::1, nor the IPv4-mapped form of a refused address.
  Policy v4_only = loopback_policy();
  v4_only.allowed_hosts.push_back("::1");
  v4_only.allowed_networks = {"127.0.0.0/8"};
  expect_refused([&] { get(v4_only, v6.url()); }, errc::forbidden, "endereço de loopback");
  CHECK(v4.hits() == 0);
  CHECK(v6.hits() == 0);
  // With the network allowed the same call goes through.
  CHECK(get(loopback_policy(), v4.url()).body == "ok");
}

TEST_CASE("cloud metadata and private addresses are refused before any connection is tried") {
  Policy p = loopback_policy();
  p.allowed_hosts = {"169.254.169.254", "10.0.0.1", "0.0.0.0", "::ffff:169.254.169.254",
                     "100.64.0.1"};
  const auto started = std::chrono::steady_clock::now();
  expect_refused([&] { get(p, "http://169.254.169.254/latest/meta-data/"); }, errc::forbidden,
                 "link-local");
  expect_refused([&] { get(p, "http://10.0.0.1/"); }, errc::forbidden, "endereço privado");
  expect_refused([&] { get(p, "http://0.0.0.0/"); }, errc::forbidden, "não especificado");
  expect_refused([&] { get(p, "http://[::ffff:169.254.169.254]/"); }, errc::forbidden,
                 "link-local");
  expect_refused([&] { get(p, "http://100.64.0.1/"); }, errc::forbidden, "CGNAT");
  // A connection attempt to those would have taken the connect time-out.
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(1000));
}

TEST_CASE("numeric hosts in odd forms are refused even when listed and loopback is allowed") {
  Destination d(answer_ok);
  Policy p = loopback_policy();
  const std::string port = ":" + std::to_string(d.port());
  for (std::string host :
       {"0x7f000001", "2130706433", "0177.0.0.1", "127.1", "0x7f.1", "017700000001"}) {
    p.allowed_hosts.push_back(host);
    CAPTURE(host);
    expect_refused([&] { get(p, "http://" + host + port + "/"); }, errc::forbidden,
                   "fora da forma canônica");
  }
  CHECK(d.hits() == 0);
}

TEST_CASE("hosts off the list, other schemes and credentials in the URL are refused") {
  Destination d(answer_ok);
  Policy p = loopback_policy();
  p.allowed_hosts = {"127.0.0.1"};
  const std::string port = ":" + std::to_string(d.port());
  expect_refused([&] { get(p, "http://localhost" + port + "/"); }, errc::forbidden,
                 "o host 'localhost' não está na lista");
  expect_refused([&] { get(p, "http://127.0.0.2" + port + "/"); }, errc::forbidden,
                 "'127.0.0.2' não está na lista");
  expect_refused([&] { get(p, "ftp://127.0.0.1" + port + "/"); }, errc::forbidden, "esquema 'ftp'");
  expect_refused([&] { get(p, "file:///etc/passwd"); }, errc::forbidden, "esquema 'file'");
  expect_refused([&] { get(p, "http://usuario:senha@127.0.0.1" + port + "/"); }, errc::forbidden,
                 "credenciais");
  expect_refused([&] { get(p, "http://localhost\\@127.0.0.1" + port + "/"); }, errc::forbidden,
                 "credenciais");
  expect_refused([&] { get(Policy{}, d.url()); }, errc::forbidden, "não está na lista");
  CHECK(d.hits() == 0);
}

TEST_CASE(
    "a redirect from an allowed server to a forbidden destination is refused, the target "
    "untouched") {
  Destination v6(answer_ok, "::1");
  std::string location;
  Destination d([&](httplib::Server& s) {
    s.Get("/go", [&](const httplib::Request&, httplib::Response& res) {
      res.set_redirect(location, 302);
    });
  });
  Policy p = loopback_policy();
  p.allowed_hosts.insert(p.allowed_hosts.end(), {"::1", "169.254.169.254"});
  p.allowed_networks = {"127.0.0.0/8"};

  location = v6.url("/segredo");
  expect_refused([&] { get(p, d.url("/go")); }, errc::forbidden,
                 "::1 é endereço de loopback (redirecionado por");
  location = "http://169.254.169.254/latest/meta-data/iam/";
  expect_refused([&] { get(p, d.url("/go")); }, errc::forbidden,
                 "link-local (redirecionado por " + d.url("/go"));
  location = "http://0x7f000001:" + std::to_string(d.port()) + "/go";
  expect_refused([&] { get(p, d.url("/go")); }, errc::forbidden, "fora da forma canônica");
  location = "http://outro.example/";
  expect_refused([&] { get(p, d.url("/go")); }, errc::forbidden,
                 "'outro.example' não está na lista");
  location = "gopher://127.0.0.1/";
  expect_refused([&] { get(p, d.url("/go")); }, errc::forbidden, "esquema 'gopher'");
  CHECK(d.hits() == 5);
  CHECK(v6.hits() == 0);
}

TEST_CASE(
    "an answer over max_bytes is refused: announced, chunked without end, or until the close") {
  Destination d([](httplib::Server& s) {
    s.Get("/grande", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(100'000, 'x'), "text/plain");
    });
    s.Get("/sem-fim", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/plain", [](std::size_t, httplib::DataSink& sink) {
        static const std::string block(8192, 'y');
        return sink.write(block.data(), block.size());  // forever, until the client leaves
      });
    });
  });
  test::RawServer until_close("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" +
                              std::string(200'000, 'z'));
  Policy p = loopback_policy();
  p.max_bytes = 64 * 1024;
  expect_refused([&] { get(p, d.url("/grande")); }, errc::upstream_failed,
                 "acima do limite de 65536 bytes");
  const auto started = std::chrono::steady_clock::now();
  expect_refused([&] { get(p, d.url("/sem-fim")); }, errc::upstream_failed, "acima do limite");
  CHECK(std::chrono::steady_clock::now() - started <
        std::chrono::milliseconds(2000));  // not the total time-out
  expect_refused([&] { get(p, until_close.url()); }, errc::upstream_failed, "acima do limite");
  p.max_bytes = 100'000;  // exactly the limit is fine
  CHECK(get(p, d.url("/grande")).body.size() == 100'000);
}

TEST_CASE("a slow answer ends at the total time-out with upstream_timeout") {
  Destination d([](httplib::Server& s) {
    s.Get("/lento", [](const httplib::Request&, httplib::Response& res) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      res.set_content("tarde", "text/plain");
    });
  });
  Policy p = loopback_policy();
  p.total_timeout = std::chrono::milliseconds(300);
  const auto started = std::chrono::steady_clock::now();
  expect_refused([&] { get(p, d.url("/lento")); }, errc::upstream_timeout, "tempo esgotado");
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(took >= std::chrono::milliseconds(290));
  CHECK(took < std::chrono::milliseconds(1200));
}

TEST_CASE("unreachable or broken destinations are upstream failures") {
  Policy p = loopback_policy();
  p.allowed_hosts.push_back("nao-existe.invalid");
  int dead_port = 0;
  {
    Destination gone(answer_ok);
    dead_port = gone.port();
  }
  expect_refused([&] { get(p, "http://127.0.0.1:" + std::to_string(dead_port) + "/"); },
                 errc::upstream_failed, "falha ao conectar a 127.0.0.1:");
  expect_refused([&] { get(p, "http://nao-existe.invalid/"); }, errc::upstream_failed,
                 "não foi possível resolver o nome 'nao-existe.invalid'");
  test::RawServer garbage("SSH-2.0-OpenSSH_9.2\r\n\r\n");
  expect_refused([&] { get(p, garbage.url()); }, errc::upstream_failed,
                 "resposta inválida de 127.0.0.1:");
  test::RawServer cut("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
  expect_refused([&] { get(p, cut.url()); }, errc::upstream_failed,
                 "fechou a conexão no meio da resposta");
  test::RawServer silent("");
  expect_refused([&] { get(p, silent.url()); }, errc::upstream_failed,
                 "fechou a conexão sem responder");
}

TEST_CASE("too many redirects are an upstream failure after max_redirects hops") {
  Destination d([](httplib::Server& s) {
    s.Get("/volta",
          [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/volta", 302); });
  });
  Policy p = loopback_policy();
  expect_refused([&] { get(p, d.url("/volta")); }, errc::upstream_failed,
                 "mais de 3 redirecionamentos");
  CHECK(d.hits() == 4);  // the first call and three redirects
}

TEST_CASE("a header value with a line break is refused before anything is sent") {
  Destination d(answer_ok);
  Request r;
  r.url = d.url();
  r.headers = {{"X-Teste", "a\r\nX-Forjado: 1"}};
  expect_refused([&] { fetch(loopback_policy(), r); }, errc::invalid_argument,
                 "cabeçalho inválido");
  r.headers = {{"X Teste", "a"}};
  expect_refused([&] { fetch(loopback_policy(), r); }, errc::invalid_argument,
                 "cabeçalho inválido");
  r.headers.clear();
  r.method = "GET /x";
  expect_refused([&] { fetch(loopback_policy(), r); }, errc::invalid_argument,
                 "método HTTP inválido");
  CHECK(d.hits() == 0);
}
