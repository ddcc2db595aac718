// The one throttle of password checks (store/secret_checks.hpp), as the probe's bypasses
// tried it: behind a trusted proxy each test client is its own address (X-Forwarded-For).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "integration/platform/fixture.hpp"
#include "store/rate_limit.hpp"

using namespace cadastre;
using namespace cadastre::test;

namespace {

// The platform behind a proxy at 127.0.0.1, with small limits.
void small_limits(platform::AppOptions& o) {
  o.http.trusted_proxies = {"127.0.0.1"};
  o.secret_checks = {.pair_failures = 3, .address_failures = 8, .account_failures = 3,
                     .window = std::chrono::seconds(600), .lockout = std::chrono::seconds(600),
                     .max_delay = std::chrono::seconds(600)};
}

httplib::Headers from(const std::string& address) { return {{"X-Forwarded-For", address}}; }

}  // namespace

TEST_CASE("a success clears only its own pair: wrong e-mails mixed with own logins still lock the address") {
  PlatformFixture f(small_limits);
  const auto& u = f.stack->user("alfa");
  int refused = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 3; ++i)
      if (f.try_login("chute" + std::to_string(round * 3 + i) + "@alfa.gov.br", "x", from("198.51.100.7"))->status == 401)
        ++refused;
    if (round < 2) CHECK(f.try_login(u.email, u.password, from("198.51.100.7"))->status == 200);
  }
  CHECK(refused == 8);  // the ninth failure of the address is never tried
  auto locked = f.try_login(u.email, u.password, from("198.51.100.7"));
  CHECK(locked->status == 429);
  CHECK(std::stoi(locked->header("Retry-After")) > 0);
  // Another address is another client.
  CHECK(f.try_login(u.email, u.password, from("198.51.100.8"))->status == 200);
}

TEST_CASE("the KELVIN SIGN and blanks do not make another account: one key, one lock") {
  PlatformFixture f(small_limits);
  const std::string email = f.stack->add_user("alfa", "kelly@alfa.gov.br", {"*:rw"}, false).email;
  const std::string kelvin = "\xE2\x84\xAA" "elly@alfa.gov.br";  // U+212A KELVIN SIGN for the k
  CHECK(f.try_login(email, "errada", from("198.51.100.9"))->status == 401);
  CHECK(f.try_login(" KELLY@alfa.gov.br", "errada", from("198.51.100.9"))->status == 401);
  CHECK(f.try_login(kelvin, "errada", from("198.51.100.9"))->status == 401);
  // Three failures of one pair, however spelt: locked for every spelling, the right
  // password included (the probe's KELVIN SIGN logged in while the account was locked).
  CHECK(f.try_login(kelvin, "senha-alfa", from("198.51.100.9"))->status == 429);
  CHECK(f.try_login(email, "senha-alfa", from("198.51.100.9"))->status == 429);
  CHECK(f.platform_db("select count(*) from plataforma.tentativas where chave = 'p|email:kelly@alfa.gov.br|198.51.100.9' "
                      "and bloqueado_ate > now()") == "1");
}

TEST_CASE("no stranger locks the owner out: the owner's address still gets in, new addresses wait") {
  PlatformFixture f(small_limits);
  const auto& u = f.stack->user("alfa");
  CHECK(f.try_login(u.email, u.password, from("203.0.113.10"))->status == 200);  // home, known from now on
  // A stranger guesses from many addresses (each below its own lock).
  for (int i = 0; i < 6; ++i)
    CHECK(f.try_login(u.email, "chute", from("192.0.2." + std::to_string(i + 1)))->status != 200);
  // The account is slowed down for strangers: a new address waits, the right password too...
  auto stranger = f.try_login(u.email, u.password, from("192.0.2.200"));
  CHECK(stranger->status == 429);
  CHECK(std::stoi(stranger->header("Retry-After")) >= 2);
  // ...but the owner at home is let in.
  CHECK(f.try_login(u.email, u.password, from("203.0.113.10"))->status == 200);
}

TEST_CASE("X-Forwarded-For counts only from a trusted proxy") {
  PlatformFixture f([](platform::AppOptions& o) {
    small_limits(o);
    o.http.trusted_proxies = {"10.9.9.9"};  // not the test's 127.0.0.1
  });
  // Every request comes from 127.0.0.1 whatever it says: the address locks after 8.
  for (int i = 0; i < 8; ++i) CHECK(f.try_login("n" + std::to_string(i) + "@alfa.gov.br", "x", from("192.0.2." + std::to_string(i)))->status == 401);
  CHECK(f.try_login("outro@alfa.gov.br", "x", from("192.0.2.99"))->status == 429);
}

TEST_CASE("reset tokens are looked up before any hashing, and guessing them is throttled per address") {
  PlatformFixture f(small_limits);
  const std::string body = R"({"token":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","senha":"Cavalo-Bateria-Grampo-42"})";
  // A login with a wrong password pays one argon2; a wrong token pays none.
  auto start = std::chrono::steady_clock::now();
  CHECK(f.try_login(f.stack->user("alfa").email, "errada", from("198.51.100.20"))->status == 401);
  double login = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  start = std::chrono::steady_clock::now();
  auto guess = f.request("POST", "/recuperarsenha", from("198.51.100.21"), body);
  double token = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(guess->status == 400);
  CHECK_MESSAGE(token < login / 2, "token " << token << " s, login " << login << " s");
  for (int i = 1; i < 8; ++i) CHECK(f.request("POST", "/recuperarsenha", from("198.51.100.21"), body)->status == 400);
  auto locked = f.request("POST", "/recuperarsenha", from("198.51.100.21"), body);
  CHECK(locked->status == 429);
  CHECK(locked->codigo() == "muitas_requisicoes");
}

TEST_CASE("guesses of the current password in a profile change are throttled like logins") {
  PlatformFixture f(small_limits);
  Session s = f.user("alfa");
  auto h = f.headers(s);
  h.emplace("X-Forwarded-For", "198.51.100.30");
  const std::string guess = R"({"senhaAtual":"chute","novaSenha":"Cavalo-Bateria-Grampo-42"})";
  for (int i = 0; i < 3; ++i) CHECK(f.request("PUT", "/minha-conta", h, guess)->status == 403);
  auto locked = f.request("PUT", "/minha-conta", h, guess);
  CHECK(locked->status == 429);
  // The session itself still works for everything else.
  CHECK(f.request("GET", "/minha-conta", h)->status == 200);
}

TEST_CASE("a profile change does not tell whether another account has an e-mail") {
  PlatformFixture f;
  Session s = f.user("alfa");
  auto taken = f.request("PUT", "/minha-conta", f.headers(s), R"({"email":")" + f.stack->user("beta").email + R"("})");
  auto free = f.request("PUT", "/minha-conta", f.headers(s), R"({"email":"livre@alfa.gov.br"})");
  CHECK(taken->status == 200);
  CHECK(free->status == 200);
  // No link goes to an address another account has.
  f.sink->wait_for(1, std::chrono::seconds(5));
  for (const auto& m : f.sink->messages()) CHECK(m.to != f.stack->user("beta").email);
}

TEST_CASE("weak passwords are refused, naming why, the user's own e-mail and name included") {
  PlatformFixture f;
  Session s = f.user("alfa");
  auto change = [&](const std::string& nova) {
    return f.request("PUT", "/minha-conta", f.headers(s),
                     R"({"senhaAtual":")" + f.stack->user("alfa").password + R"(","novaSenha":")" + nova + R"("})");
  };
  refused(*change("12345678"), 400, "parametro_invalido", "simples ou sistemática");
  refused(*change("password"), 400, "parametro_invalido", "dicionário");
  refused(*change("usuario@alfa.gov.br"), 400, "parametro_invalido", "e-mail");
  refused(*change("Xusuario2026!"), 400, "parametro_invalido", "e-mail");
  CHECK(change("Cavalo-Bateria-Grampo-42")->status == 200);
}

TEST_CASE("password recovery answers in the same time whether or not the e-mail has an account") {
  PlatformFixture f([](platform::AppOptions& o) { o.http.trusted_proxies = {"127.0.0.1"}; });
  const std::string known = f.stack->user("alfa").email;
  auto timed = [&](const std::string& email, int i) {
    auto start = std::chrono::steady_clock::now();
    auto a = f.request("POST", "/recuperarsenha", from("198.51.100." + std::to_string(100 + i)),
                       R"({"email":")" + email + R"("})");
    CHECK(a->status == 202);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Medians of five (each from its own address, under the per-address limit of requests).
  std::vector<double> k, u;
  for (int i = 0; i < 5; ++i) k.push_back(timed(known, 2 * i)), u.push_back(timed("ninguem@alfa.gov.br", 2 * i + 1));
  std::sort(k.begin(), k.end());
  std::sort(u.begin(), u.end());
  CHECK_MESSAGE(k[2] < 3 * u[2] + 0.010, "conhecido " << k[2] << " s, desconhecido " << u[2] << " s");
  // The mail still goes, after the answer.
  CHECK(f.sink->wait_for(5, std::chrono::seconds(10)));
}

TEST_CASE("a rate limit holds across instances: two processes' pools racing on one address let through exactly its max") {
  PlatformFixture f(small_limits);
  store::PoolOptions po;
  po.dsn = f.stack->platform_dsn();
  po.size = 4;
  store::Pool a(po), b(po);  // two instances: two pools on the one platform database
  const store::RateLimitOptions limits{.max = 5, .window = std::chrono::seconds(600), .lockout = std::chrono::seconds(600)};
  store::RateLimit on_a(a, "teste", limits), on_b(b, "teste", limits);
  std::atomic<int> taken{0}, refused{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 12; ++i)
    clients.emplace_back([&, i] {
      try {
        (i % 2 ? on_a : on_b).take("203.0.113.5", "muitos");
        ++taken;
      } catch (const RetryLater& e) {
        CHECK(e.seconds() > 0);
        ++refused;
      }
    });
  for (auto& c : clients) c.join();
  CHECK(taken == 5);
  CHECK(refused == 7);
  CHECK(f.platform_db("select count(*) from plataforma.tentativas where chave = 'r|teste|203.0.113.5' "
                      "and bloqueado_ate > now()") == "1");
  // Another address, and another limit's name, are counted apart.
  CHECK_NOTHROW(on_b.take("203.0.113.6", "muitos"));
  store::RateLimit other(a, "outro", limits);
  CHECK_NOTHROW(other.take("203.0.113.5", "muitos"));
}
