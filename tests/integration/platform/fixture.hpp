// The platform suites' fixture: the harness's stack (a platform database, tenants "alfa"
// and "beta" with one user each, cadastre-server in-process), a private SMTP server, and
// cadastre-platform in-process over the same platform database, its app-backend proxy
// pointing at that cadastre-server. Helpers log in, call with the session headers, make
// administrators and read the mail.
//
//   TEST_CASE_FIXTURE(PlatformFixture, "...") {
//     auto s = login("usuario@alfa.gov.br", stack->user("alfa").password);
//     CHECK(get("/minha-conta", s)->status == 200);
//   }
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <thread>

#include "platform/app.hpp"
#include "store/crypto.hpp"
#include "support/city.hpp"
#include "support/harness.hpp"
#include "support/smtp_sink.hpp"
#include "store/dsn.hpp"
#include "store/tenants.hpp"

namespace cadastre::test {

/// A refusal in the shared error shape: the status, {"mensagem","tipo":"erro","codigo"} with
/// `codigo`, and (when given) a message containing `words` (the offending field's name).
inline void refused(Answer& a, int status, const std::string& codigo, const std::string& words = "") {
  CHECK_MESSAGE(a.status == status, a.body);
  simdjson::dom::parser parser;
  simdjson::dom::object shape;
  std::string_view tipo, code, mensagem;
  if (parser.parse(a.body).get(shape) || shape["tipo"].get(tipo) || shape["codigo"].get(code) ||
      shape["mensagem"].get(mensagem)) {
    FAIL_CHECK("not the error shape: " << a.body);
    return;
  }
  CHECK(tipo == "erro");
  CHECK_MESSAGE(code == codigo, a.body);
  if (!words.empty()) CHECK_MESSAGE(mensagem.find(words) != std::string::npos, a.body);
}

/// A signed-in caller: the login answer's tokens.
struct Session {
  std::string token, tn;
  std::int64_t user_id = 0;
};

class PlatformFixture {
 public:
  /// `tweak` adjusts the platform's options before it starts (limits, OIDC, LDAP...).
  explicit PlatformFixture(const std::function<void(platform::AppOptions&)>& tweak = {}) {
    sink = std::make_unique<SmtpSink>();
    stack = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"});
    platform::AppOptions o;
    o.platform_dsn = stack->platform_dsn();
    o.http.port = 0;
    o.http.access_log = false;
    o.pool.size = 4;
    o.token_ttl = std::chrono::milliseconds(0);  // every request sees the store (revocations at once)
    o.smtp.url = sink->url();
    o.smtp.from = "Cadastro <nao-responda@cadastre.test>";
    o.services["app-backend"] = stack->app().server().base_url();
    // A file store of the fixture's own (jobs stage their inputs there), unless the test
    // chooses another.
    static int fixtures = 0;
    own_files = "/tmp/cadastre-fixture-" + std::to_string(::getpid()) + "-" + std::to_string(++fixtures);
    o.files_dir = own_files;
    if (tweak) tweak(o);
    options = o;
    app = another_instance();
  }

  /// One more instance of the platform with the fixture's options, on its own port, over
  /// the same databases (as a second machine behind a load balancer), started and following
  /// the events.
  std::unique_ptr<platform::App> another_instance() const {
    auto instance = std::make_unique<platform::App>(options);
    REQUIRE(instance->start());
    // Events reach a process through its follower (store/events.hpp): listening first.
    for (int i = 0; i < 500 && !instance->events_listening(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(instance->events_listening());
    return instance;
  }

  /// Waits until this process delivered every event published so far (events go through
  /// the platform database, so a subscriber hears them a moment after the write).
  void settle_events() const {
    std::int64_t newest = std::stoll(platform_db("select coalesce(max(id), 0) from plataforma.eventos"));
    for (int i = 0; i < 500 && app->events_delivered() < newest; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

  ~PlatformFixture() {
    app.reset();
    std::error_code ec;
    std::filesystem::remove_all(own_files, ec);
    // Databases of accounts created by sign-up (cad_<slug>) go with the fixture.
    std::string slugs = query_value(stack->platform_dsn(),
                                    "select string_agg(slug, ',') from plataforma.tenants "
                                    "where slug not in ('alfa', 'beta')");
    for (std::size_t i = 0; i < slugs.size();) {
      std::size_t j = std::min(slugs.find(',', i), slugs.size());
      store::drop_database(cluster_dsn(), "cad_" + slugs.substr(i, j - i));
      i = j + 1;
    }
  }

  std::unique_ptr<SmtpSink> sink;
  std::unique_ptr<Stack> stack;
  platform::AppOptions options;  ///< the options `app` started with
  std::unique_ptr<platform::App> app;
  std::string own_files;  ///< the fixture's file store, when the test chose none

  /// A client of `app`, or of the instance listening on `port`.
  httplib::Client client(int port = 0) const {
    httplib::Client c("127.0.0.1", port ? port : app->server().port());
    c.set_read_timeout(30, 0);
    return c;
  }

  /// A name unique to this test process (sign-ups make databases named after it).
  static std::string unique(const std::string& what) { return what + " " + std::to_string(::getpid()); }

  static httplib::Headers headers(const Session& s) { return {{"X-Auth-Token", s.token}, {"X-Tn-Token", s.tn}}; }

  std::unique_ptr<Answer> request(const std::string& method, const std::string& path, const httplib::Headers& h,
                                  const std::string& body = "",
                                  const std::string& type = "application/json", int port = 0) const {
    auto c = client(port);
    httplib::Result r = method == "GET"      ? c.Get(path, h)
                        : method == "POST"   ? c.Post(path, h, body, type)
                        : method == "PUT"    ? c.Put(path, h, body, type)
                        : method == "DELETE" ? c.Delete(path, h, body, type)
                                             : c.Options(path, h);
    return answer(r, method + " " + path);
  }
  std::unique_ptr<Answer> get(const std::string& path, const Session& s) const { return request("GET", path, headers(s)); }
  std::unique_ptr<Answer> post(const std::string& path, const std::string& body, const Session& s) const {
    return request("POST", path, headers(s), body);
  }
  std::unique_ptr<Answer> put(const std::string& path, const std::string& body, const Session& s) const {
    return request("PUT", path, headers(s), body);
  }
  /// PUT on another instance (another_instance()).
  std::unique_ptr<Answer> put_on(platform::App& instance, const std::string& path, const std::string& body,
                                 const Session& s) const {
    return request("PUT", path, headers(s), body, "application/json", instance.server().port());
  }
  std::unique_ptr<Answer> del(const std::string& path, const Session& s) const {
    return request("DELETE", path, headers(s));
  }

  /// POST /login with the form fields; the raw answer.
  std::unique_ptr<Answer> try_login(const std::string& email, const std::string& senha,
                                    const httplib::Headers& h = {}) const {
    return request("POST", "/login", h, "email=" + http::percent_encode(email) + "&senha=" + http::percent_encode(senha),
                   "application/x-www-form-urlencoded");
  }
  Session login(const std::string& email, const std::string& senha) const {
    auto a = try_login(email, senha);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    return session_of(*a);
  }
  static Session session_of(Answer& a) {
    return {std::string(std::string_view(a.json()["authToken"])), std::string(std::string_view(a.json()["tnToken"])),
            int64_t(a.json()["idUsuario"])};
  }
  /// The harness's user of `slug`, signed in.
  Session user(const std::string& slug) const { return login(stack->user(slug).email, stack->user(slug).password); }

  /// A new administrator of `slug`, signed in.
  Session admin(const std::string& slug, const std::string& email) const {
    TestUser u = stack->add_user(slug, email, {"*:rw"}, true);
    return login(u.email, u.password);
  }
  /// A platform administrator (of tenant alfa), signed in.
  Session platform_admin() const {
    TestUser u = stack->add_user("alfa", "plataforma@cadastre.test", {"*:rw"}, true);
    platform_db("update plataforma.usuarios set adm_plataforma = true where email = 'plataforma@cadastre.test'");
    return login(u.email, u.password);
  }

  std::string platform_db(const std::string& sql) const { return query_value(stack->platform_dsn(), sql); }
  std::int64_t tenant_id(const std::string& slug) const {
    return std::stoll(platform_db("select id from plataforma.tenants where slug = '" + slug + "'"));
  }

  /// The link (https?://...) of the last message received, after waiting for `count` messages.
  std::string link_in_mail(std::size_t count) const {
    REQUIRE(sink->wait_for(count, std::chrono::seconds(10)));
    auto mails = sink->messages();
    static const std::regex url(R"(https?://[^\s<>"]+)");
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(mails.back().body, m, url), mails.back().body);
    return m.str();
  }
  /// The token= of a link.
  static std::string token_of(const std::string& link) {
    auto at = link.find("token=");
    REQUIRE(at != std::string::npos);
    return link.substr(at + 6, 64);
  }
  /// The path and query of a link to this platform.
  std::string path_of(const std::string& link) const {
    std::string base = app->public_url();
    REQUIRE_MESSAGE(link.rfind(base, 0) == 0, link);
    return link.substr(base.size());
  }
};

}  // namespace cadastre::test
