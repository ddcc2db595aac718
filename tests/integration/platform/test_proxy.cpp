// The proxy routes. /proxy, /proxyR and /proxy-v2/{cidade}/auth call outside servers only
// under the outbound allow-list: the "outside" here is 127.0.0.2 (listed, its /32 allowed),
// and loopback proper (127.0.0.1, ::1) stands for the platform's own network, which must
// never be reached through them, whatever the spelling, the name or the redirect.
// /app-backend, /api-r and /dbrest forward to the internal services of the configuration:
// app-backend is the harness's cadastre-server, api-r a recorder on loopback.
#include <mutex>
#include <thread>

#include "fixture.hpp"
#include "integration/outbound/destination.hpp"

using namespace cadastre;
using test::refused;
using test::Answer;
using test::Destination;
using test::PlatformFixture;
using test::Session;

namespace {

/// A request as a destination received it.
struct Seen {
  std::string method, target, body, content_type;
  httplib::Headers headers;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
  bool has(const std::string& name) const { return headers.find(name) != headers.end(); }
};

class Recorder {
 public:
  void add(const httplib::Request& r) {
    std::lock_guard lock(mutex_);
    seen_.push_back({r.method, r.target, r.body, r.get_header_value("Content-Type"), r.headers});
  }
  Seen last() const {
    std::lock_guard lock(mutex_);
    REQUIRE(!seen_.empty());
    return seen_.back();
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return seen_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Seen> seen_;
};

constexpr std::size_t kMaxBytes = 4096;
constexpr auto kTotalTimeout = std::chrono::milliseconds(800);

/// The servers, up before the platform starts (its configuration names their ports).
struct Servers {
  Recorder outside_seen, internal_seen;
  std::unique_ptr<Destination> outside, inside, inside6, internal;

  Servers() {
    // 127.0.0.1 and ::1: the platform's own network. Nothing may reach them through /proxy.
    auto ok = [](httplib::Server& s) {
      s.Get(".*", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("interno", "text/plain");
      });
    };
    inside = std::make_unique<Destination>(ok);
    inside6 = std::make_unique<Destination>(ok, "::1");
    outside = std::make_unique<Destination>(
        [this](httplib::Server& s) {
          s.Get("/dados", [this](const httplib::Request& r, httplib::Response& res) {
            outside_seen.add(r);
            res.status = 203;
            res.set_header("ETag", "\"v1\"");
            res.set_header("Set-Cookie", "sessao=de-fora");
            res.set_content("codigo;nome\n1;Centro\n", "text/csv; charset=utf-8");
          });
          s.Get("/sumiu", [](const httplib::Request&, httplib::Response& res) {
            res.status = 404;
            res.set_content("<h1>não há</h1>", "text/html");
          });
          s.Get("/mudou", [](const httplib::Request&, httplib::Response& res) {
            res.set_redirect("/dados?de=mudou");
          });
          s.Get("/para-dentro", [this](const httplib::Request&, httplib::Response& res) {
            res.set_redirect(inside->url("/"));
          });
          s.Get("/grande", [](const httplib::Request&, httplib::Response& res) {
            res.set_content(std::string(kMaxBytes + 1, 'x'), "text/plain");
          });
          s.Get("/grande-em-partes", [](const httplib::Request&, httplib::Response& res) {
            res.set_chunked_content_provider("text/plain",
                                             [](std::size_t offset, httplib::DataSink& sink) {
                                               if (offset > 4 * kMaxBytes) {
                                                 sink.done();
                                                 return true;
                                               }
                                               std::string piece(1024, 'y');
                                               return sink.write(piece.data(), piece.size());
                                             });
          });
          s.Get("/lento", [](const httplib::Request&, httplib::Response& res) {
            std::this_thread::sleep_for(kTotalTimeout + std::chrono::milliseconds(700));
            res.set_content("tarde", "text/plain");
          });
          s.Post("/eco", [this](const httplib::Request& r, httplib::Response& res) {
            outside_seen.add(r);
            res.status = 201;
            res.set_content("recebido: " + r.body, r.get_header_value("Content-Type"));
          });
          s.Get("/auth", [this](const httplib::Request& r, httplib::Response& res) {
            outside_seen.add(r);
            res.set_content(R"({"autenticado":true})", "application/json");
          });
        },
        "127.0.0.2");
    // The internal service "api-r": records what the proxy sends and answers with it.
    internal = std::make_unique<Destination>([this](httplib::Server& s) {
      auto record = [this](const httplib::Request& r, httplib::Response& res) {
        internal_seen.add(r);
        res.status = r.method == "POST" ? 201 : 200;
        res.set_header("Location", "/api-r/novo/1");
        res.set_content(R"({"metodo":")" + r.method + R"("})", "application/json");
      };
      s.Get(".*", record);
      s.Post(".*", record);
      s.Put(".*", record);
      s.Delete(".*", record);
    });
  }
};

/// The platform with the outbound policy of these tests: 127.0.0.2 allowed; the loopback
/// names listed as hosts too, so that what refuses them is the address rule (they resolve,
/// or are, addresses outside the allowed networks), not the host list.
struct Proxy : Servers, PlatformFixture {
  Proxy()
      : Servers(), PlatformFixture([this](platform::AppOptions& o) {
          o.outbound.allowed_hosts = {"127.0.0.2", "127.0.0.1", "::1", "localhost",
                                      "169.254.169.254"};
          o.outbound.allowed_networks = {"127.0.0.2/32"};
          o.outbound.max_bytes = kMaxBytes;
          o.outbound.connect_timeout = std::chrono::milliseconds(500);
          o.outbound.total_timeout = kTotalTimeout;
          o.city_auth["campinas"] = outside->url("/auth?cliente=cadastre");
          o.city_auth["sorocaba"] = outside->url("/auth");
          o.city_auth["interna"] = inside->url("/auth");
          o.services["api-r"] = internal->url("");
        }) {}

  std::unique_ptr<Answer> proxy_get(const std::string& url, const Session& s) {
    return get("/proxy?url=" + http::percent_encode(url), s);
  }
  std::string port(const Destination& d) const { return std::to_string(d.port()); }
};

/// A port of 127.0.0.2 where nothing listens (bound, then closed).
int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(0x7f000002);
  socklen_t len = sizeof a;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), len) == 0);
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  ::close(fd);
  return ntohs(a.sin_port);
}

const char* kCredentials[] = {"X-Auth-Token", "X-Tn-Token", "Authorization", "Cookie"};

}  // namespace

TEST_CASE_FIXTURE(Proxy,
                  "GET /proxy and POST /proxyR pass an allowed destination's answer on and none of "
                  "the caller's credentials") {
  Session s = user("alfa");
  refused(*request("GET", "/proxy?url=" + http::percent_encode(outside->url("/dados")), {}),
               401, "nao_autenticado");
  CHECK(outside->hits() == 0);

  httplib::Headers with_cookie = headers(s);
  with_cookie.emplace("Cookie", "sessao=do-chamador");
  with_cookie.emplace("Authorization", "Bearer " + s.token);
  auto a = request(
      "GET", "/proxy?url=" + http::percent_encode(outside->url("/dados?ano=2024&bairro=S%C3%A9")),
      with_cookie);
  CHECK_MESSAGE(a->status == 203, a->body);
  CHECK(a->body == "codigo;nome\n1;Centro\n");
  CHECK(a->content_type == "text/csv; charset=utf-8");
  CHECK(a->header("ETag") == "\"v1\"");
  CHECK(a->header("Set-Cookie").empty());  // the destination's cookies are not the platform's
  // Served from the platform's origin, an outside page may not act as the platform's.
  CHECK(a->header("Content-Security-Policy") == "sandbox");
  CHECK(a->header("X-Content-Type-Options") == "nosniff");
  Seen got = outside_seen.last();
  CHECK(got.target == "/dados?ano=2024&bairro=S%C3%A9");
  for (const char* name : kCredentials) CHECK_MESSAGE(!got.has(name), name << " saiu para fora");

  // Any status the destination answers passes on as it is; redirects on the list are followed.
  auto missing = proxy_get(outside->url("/sumiu"), s);
  CHECK(missing->status == 404);
  CHECK(missing->body == "<h1>não há</h1>");
  CHECK(missing->content_type == "text/html");
  auto moved = proxy_get(outside->url("/mudou"), s);
  CHECK(moved->status == 203);
  CHECK(outside_seen.last().target == "/dados?de=mudou");

  refused(*get("/proxy", s), 400, "campo_obrigatorio", "url");
  refused(*get("/proxy?url=", s), 400, "campo_obrigatorio", "url");
  refused(*get("/proxy?url=nao-e-url", s), 400, "parametro_invalido", "url");
  refused(*get("/proxy?url=" + http::percent_encode(outside->url("/dados")) + "&x=1", s), 400,
               "campo_desconhecido", "x");

  // POST /proxyR: the body and its type go; the caller's credentials do not.
  refused(
      *request("POST", "/proxyR?url=" + http::percent_encode(outside->url("/eco")), {}, "a=1"), 401,
      "nao_autenticado");
  auto posted = request("POST", "/proxyR?url=" + http::percent_encode(outside->url("/eco")),
                        with_cookie, "<ponto x=\"1\"/>", "application/xml");
  CHECK_MESSAGE(posted->status == 201, posted->body);
  CHECK(posted->body == "recebido: <ponto x=\"1\"/>");
  CHECK(posted->content_type == "application/xml");
  got = outside_seen.last();
  CHECK(got.method == "POST");
  CHECK(got.body == "<ponto x=\"1\"/>");
  CHECK(got.content_type == "application/xml");
  for (const char* name : kCredentials) CHECK_MESSAGE(!got.has(name), name << " saiu para fora");
  refused(*post("/proxyR?url=" + http::percent_encode(inside->url("/")), "{}", s), 403,
               "acesso_negado");
  refused(*post("/proxyR", "{}", s), 400, "campo_obrigatorio", "url");
  CHECK(inside->hits() == 0);
}

TEST_CASE_FIXTURE(Proxy,
                  "the SSRF suite: loopback, link-local, odd spellings, names and redirects into "
                  "the platform are refused") {
  Session s = user("alfa");
  const std::string p = port(*inside), p6 = port(*inside6);
  for (const std::string& url : std::vector<std::string>{
           "http://127.0.0.1:" + p + "/", "http://[::1]:" + p6 + "/",
           "http://169.254.169.254/latest/meta-data/", "http://0x7f000001:" + p + "/",
           "http://2130706433:" + p + "/", "http://0177.0.0.1:" + p + "/",
           "http://localhost:" + p + "/", "http://[::ffff:127.0.0.1]:" + p + "/",
           "http://127.0.0.3:" + p + "/", "http://93.184.216.34/", "http://exemplo.invalid/",
           "http://usuario:senha@127.0.0.2:" + port(*outside) + "/dados", "file:///etc/passwd",
           "gopher://127.0.0.2:" + port(*outside) + "/"}) {
    CAPTURE(url);
    refused(*proxy_get(url, s), 403, "acesso_negado");
  }
  // A redirect from the allowed destination into loopback.
  const int before = outside->hits();
  refused(*proxy_get(outside->url("/para-dentro"), s), 403, "acesso_negado");
  CHECK(outside->hits() == before + 1);
  CHECK(inside->hits() == 0);
  CHECK(inside6->hits() == 0);

  // Size and time limits.
  refused(*proxy_get(outside->url("/grande"), s), 502, "falha_no_servico_externo");
  refused(*proxy_get(outside->url("/grande-em-partes"), s), 502, "falha_no_servico_externo");
  const auto started = std::chrono::steady_clock::now();
  refused(*proxy_get(outside->url("/lento"), s), 504, "tempo_esgotado_no_servico_externo");
  CHECK(std::chrono::steady_clock::now() - started <
        kTotalTimeout + std::chrono::milliseconds(500));
  // Nobody listening.
  refused(*proxy_get("http://127.0.0.2:" + std::to_string(closed_port()) + "/", s), 502,
               "falha_no_servico_externo");
}

TEST_CASE_FIXTURE(Proxy,
                  "proxy-v2 calls the city's own authentication service with the caller's query") {
  Session s = user("beta");
  refused(*request("GET", "/proxy-v2/sorocaba/auth?code=abc", {}), 401, "nao_autenticado");
  auto a = get("/proxy-v2/sorocaba/auth?code=abc&state=x%2Fy", s);
  CHECK_MESSAGE(a->status == 200, a->body);
  CHECK(a->body == R"({"autenticado":true})");
  CHECK(a->content_type == "application/json");
  Seen got = outside_seen.last();
  CHECK(got.target == "/auth?code=abc&state=x%2Fy");
  for (const char* name : kCredentials) CHECK_MESSAGE(!got.has(name), name << " saiu para fora");
  CHECK(get("/proxy-v2/sorocaba/auth", s)->status == 200);
  CHECK(outside_seen.last().target == "/auth");
  // A configured URL with its own query keeps it, the caller's is added to it.
  CHECK(get("/proxy-v2/campinas/auth?code=abc", s)->status == 200);
  CHECK(outside_seen.last().target == "/auth?cliente=cadastre&code=abc");
  CHECK(get("/proxy-v2/campinas/auth", s)->status == 200);
  CHECK(outside_seen.last().target == "/auth?cliente=cadastre");

  refused(*get("/proxy-v2/recife/auth?code=abc", s), 404, "nao_encontrado", "recife");
  // The allow-list holds for configured cities too.
  refused(*get("/proxy-v2/interna/auth", s), 403, "acesso_negado");
  CHECK(inside->hits() == 0);
}

TEST_CASE_FIXTURE(Proxy,
                  "the internal services get all four methods, the path and query as sent and the "
                  "session headers") {
  Session s = user("alfa");
  refused(*request("GET", "/api-r/modelos", {}), 401, "nao_autenticado");
  CHECK(internal->hits() == 0);

  auto a = get("/api-r/modelos/a%20b/c?x=1&y=%C3%A9&y=2", s);
  CHECK_MESSAGE(a->status == 200, a->body);
  CHECK(a->text("metodo") == "GET");
  CHECK(a->header("Location") == "/api-r/novo/1");
  Seen got = internal_seen.last();
  CHECK(got.target == "/modelos/a%20b/c?x=1&y=%C3%A9&y=2");
  CHECK(got.header("X-Auth-Token") == s.token);
  CHECK(got.header("X-Tn-Token") == s.tn);
  CHECK(got.header("Authorization") == "Bearer " + s.token);
  CHECK_FALSE(got.header("X-Request-Id").empty());
  CHECK(got.header("X-Request-Id") == a->header("X-Request-Id"));

  auto created = request("POST", "/api-r/modelos", headers(s), "x;y\n1;2\n", "text/csv");
  CHECK(created->status == 201);
  got = internal_seen.last();
  CHECK(got.method == "POST");
  CHECK(got.body == "x;y\n1;2\n");
  CHECK(got.content_type == "text/csv");
  CHECK(put("/api-r/modelos/7", R"({"nome":"m"})", s)->text("metodo") == "PUT");
  got = internal_seen.last();
  CHECK(got.target == "/modelos/7");
  CHECK(got.body == R"({"nome":"m"})");
  CHECK(got.content_type == "application/json");
  CHECK(del("/api-r/modelos/7?forcar=1", s)->text("metodo") == "DELETE");
  CHECK(internal_seen.last().target == "/modelos/7?forcar=1");

  // Authorization: Bearer alone is a session too; the tenant header is then the session's.
  auto bearer = request("GET", "/api-r/modelos", {{"Authorization", "Bearer " + s.token}});
  CHECK(bearer->status == 200);
  CHECK(internal_seen.last().header("Authorization") == "Bearer " + s.token);
  CHECK(internal_seen.last().header("X-Tn-Token") == s.tn);

  // Segments that climb out of the service's base path, however spelled, go nowhere.
  const std::size_t seen = internal_seen.size();
  for (const char* path :
       {"/api-r/a/../../segredo", "/api-r/a/%2e%2e/segredo", "/api-r/a/%2E%2E/segredo",
        "/api-r/%2e%2e", "/api-r/a/./b", "/api-r/a/%2e/b", "/api-r/a/..%2fb"}) {
    CAPTURE(path);
    auto r = get(path, s);
    CHECK_MESSAGE(r->status == 400, r->body);
  }
  CHECK(internal_seen.size() == seen);

  // Not configured: 503 in the error shape (after the session is checked).
  refused(*get("/dbrest/tabela", s), 503, "servico_indisponivel", "dbrest");
  refused(*request("POST", "/dbrest/tabela", {}, "{}"), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(
    PlatformFixture,
    "app-backend forwards the four methods to cadastre-server, whose answers pass through") {
  Session s = user("alfa");
  refused(*request("GET", "/app-backend/health-check/", {}), 401, "nao_autenticado");
  auto health = get("/app-backend/health-check/", s);
  CHECK_MESSAGE(health->status == 200, health->body);

  // The session is cadastre-server's bearer too.
  auto perms = get("/app-backend/geo/alfa/usuarios/permissoes/", s);
  REQUIRE_MESSAGE(perms->status == 200, perms->body);
  CHECK(std::string_view(perms->json()["usuario"]["email"]) == stack->user("alfa").email);
  CHECK(std::string_view(perms->json()["municipio"]["slug"]) == "alfa");
  refused(*get("/app-backend/geo/beta/usuarios/permissoes/", s), 403,
               "municipio_nao_permitido");

  const std::string square =
      R"({"type":"Polygon","coordinates":[[[-47.07,-22.91],[-47.069,-22.91],[-47.069,-22.909],[-47.07,-22.909],[-47.07,-22.91]]]})";
  auto created = post("/app-backend/crud/alfa/bairro/",
                      R"({"codigo":"PX1","nome":"Via Proxy","geometry":)" + square + "}", s);
  REQUIRE_MESSAGE(created->status == 201, created->body);
  CHECK(created->content_type == "application/geo+json");
  const std::string id = std::to_string(int64_t(created->json()["id"]));
  CHECK(created->header("Location") == "/alfa/bairro/" + id + "/");
  const std::string alfa = stack->tenant_dsn("alfa");
  CHECK(test::query_value(alfa, "select nome from cadastro.bairro where id = " + id) ==
        "Via Proxy");

  auto updated =
      put("/app-backend/crud/alfa/bairro/", R"({"id":)" + id + R"(,"nome":"Renomeado"})", s);
  CHECK_MESSAGE(updated->status == 200, updated->body);
  CHECK(test::query_value(alfa, "select nome from cadastro.bairro where id = " + id) ==
        "Renomeado");
  refused(*put("/app-backend/crud/alfa/bairro/", R"({"nome":"sem id"})", s), 400,
               "campo_obrigatorio");

  auto removed = del("/app-backend/crud/alfa/bairro/?id=" + id, s);  // the query goes along
  CHECK_MESSAGE(removed->status == 200, removed->body);
  CHECK(int64_t(removed->json()["registros_removidos"]) == 1);
  CHECK(test::query_value(alfa, "select count(*) from cadastro.bairro where id = " + id) == "0");
  refused(*del("/app-backend/crud/alfa/bairro/", s), 400, "campo_obrigatorio", "id");

  // cadastre-server's refusals pass through as it gave them.
  refused(*post("/app-backend/health-check/", "{}", s), 405, "metodo_nao_permitido");
  refused(*get("/app-backend/nao-existe/", s), 404, "rota_nao_encontrada");
  refused(*get("/app-backend/health-check/?inventado=1", s), 400, "campo_desconhecido",
               "inventado");
  refused(*get("/app-backend/geo/alfa/../beta/usuarios/permissoes/", s), 400,
               "parametro_invalido");
  refused(*get("/app-backend/geo/alfa/%2e%2e/beta/usuarios/permissoes/", s), 400,
               "parametro_invalido");
}

TEST_CASE("internal services that are not configured answer 503 in the error shape") {
  PlatformFixture f([](platform::AppOptions& o) { o.services.clear(); });
  Session s = f.user("alfa");
  for (const char* service : {"app-backend", "api-r", "dbrest"}) {
    CAPTURE(service);
    for (const char* method : {"GET", "POST", "PUT", "DELETE"}) {
      CAPTURE(method);
      refused(*f.request(method, std::string("/") + service + "/qualquer/coisa",
                              PlatformFixture::headers(s), "{}"),
                   503, "servico_indisponivel", service);
    }
    refused(*f.request("GET", std::string("/") + service + "/qualquer/coisa", {}), 401,
                 "nao_autenticado");
  }
  // No policy configured: every outside destination is refused.
  refused(*f.get("/proxy?url=" + http::percent_encode("http://93.184.216.34/"), s), 403,
               "acesso_negado");
}
