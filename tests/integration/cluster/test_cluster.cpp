// Two instances of every service behind HAProxy over two PostgreSQL clusters (cluster.hpp),
// called through the load balancer's front doors: what one instance writes, counts, runs or
// stores holds for the other, an instance killed loses nothing, a rolling restart fails no
// request, and a PostgreSQL restart loses no event.
//
// The cases run in this file's order on one cluster; the last two restart things.
#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "integration/cluster/cluster.hpp"
#include "integration/platform/socket_client.hpp"
#include "store/crypto.hpp"

using namespace cadastre;
using namespace cadastre::test;

namespace {

std::string n(std::int64_t v) { return std::to_string(v); }

// `count` points as a zipped shapefile (ogr2ogr), made once per size.
std::string points_zip(int count) {
  Cluster& c = cluster();
  const std::string dir = c.root + "/pontos-" + n(count);
  if (std::system(("test -f " + dir + "/pontos.zip").c_str()) != 0) {
    std::string g = R"({"type":"FeatureCollection","features":[)";
    for (int i = 0; i < count; ++i)
      g += std::string(i ? "," : "") + R"({"type":"Feature","properties":{"nome":"p)" + n(i) +
           R"("},"geometry":{"type":"Point","coordinates":[)" + std::to_string(-47.06 + (i % 300) * 1e-4) + "," +
           std::to_string(-22.9 + (i / 300) * 1e-4) + "]}}";
    g += "]}";
    REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
    {
      std::ofstream(dir + "/pontos.geojson") << g;
    }
    REQUIRE(std::system(("cd " + dir + " && ogr2ogr -f 'ESRI Shapefile' pontos.shp pontos.geojson && " +
                         "zip -qj pontos.zip pontos.shp pontos.shx pontos.dbf pontos.prj pontos.cpg")
                            .c_str()) == 0);
  }
  std::ifstream in(dir + "/pontos.zip", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// POST /importar/shp through `port`: the job's id (202).
std::int64_t import_points(int port, const Session& s, std::int64_t projeto, int count, const std::string& layer) {
  httplib::Client cl("127.0.0.1", port);
  cl.set_read_timeout(60, 0);
  httplib::MultipartFormDataItems items = {{"file", points_zip(count), "pontos.zip", "application/octet-stream"}};
  const std::string path = "/importar/shp?codigo=" + layer + "&idProjeto=" + n(projeto) + "&nomeCamada=" + layer;
  auto a = answer(cl.Post(path, PlatformFixture::headers(s), items), "POST " + path);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  return int64_t(a->json()["idImportacao"]);
}

// A job's state in its tenant's database, waiting up to `within` for one of `states`.
std::string job_state(const std::string& dsn, std::int64_t id, std::initializer_list<const char*> states,
                      std::chrono::seconds within = std::chrono::seconds(120)) {
  const auto until = std::chrono::steady_clock::now() + within;
  std::string state;
  while (std::chrono::steady_clock::now() < until) {
    state = query_value(dsn, "select estado from projeto.importacoes where id = " + n(id));
    for (const char* s : states)
      if (state == s) return state;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return state;
}

// Job `id` of Campinas in the queue (job ids are per municipality).
std::string campinas_job(std::int64_t id) {
  return "importacao_id = " + n(id) + " and tenant_id = (select id from plataforma.tenants where slug = 'campinas')";
}

// The pid of the instance holding job `id` (plataforma.tarefas.titular: lane@host:pid-random),
// once it holds it and the job reads its file.
pid_t holder_of(std::int64_t id) {
  Cluster& c = cluster();
  for (int i = 0; i < 3000; ++i) {
    std::string holder = c.plat("select coalesce(titular, '') from plataforma.tarefas where " + campinas_job(id) +
                                " and estado = 'executando'");
    bool reading = c.campinas("select (contagens ->> 'lidas' is not null)::text from projeto.importacoes where id = " +
                              n(id)) == "true";
    if (!holder.empty() && reading) {
      auto colon = holder.find(':'), dash = holder.find('-', holder.find(':'));
      return static_cast<pid_t>(std::stol(holder.substr(colon + 1, dash - colon - 1)));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("job " << id << " never ran");
  return 0;
}

// The platform instance (0 or 1) whose process is `pid`.
int platform_with(pid_t pid) {
  Cluster& c = cluster();
  for (int i = 0; i < 2; ++i)
    if (c.platform[i]->pid() == pid) return i;
  FAIL("no platform instance has pid " << pid);
  return -1;
}

// A value of the demo layer's area field: its id and geometry.
std::pair<std::int64_t, std::int64_t> area_value() {
  Cluster& c = cluster();
  const std::string layer = c.demo.at("DEMO_PROJECT_LAYER_ID");
  // The field's column in the layer's table; the value's id is computed from its position.
  std::string field = c.campinas("select k.id || ' ' || k.posicao from projeto.campos k join projeto.formularios f on "
                                 "f.id = k.formulario_id where f.camada_id = " + layer + " and k.chave = 'area_terreno'");
  const std::string column = "c_" + field.substr(0, field.find(' ')), posicao = field.substr(field.find(' ') + 1);
  std::string row = c.campinas("select projeto.valor_id(id, " + posicao + "::smallint) || ' ' || id from camadas.l" + layer +
                               " where " + column + " is not null order by id limit 1");
  auto space = row.find(' ');
  return {std::stoll(row.substr(0, space)), std::stoll(row.substr(space + 1))};
}

std::string value_event_prefix(std::int64_t geometry) {
  return R"({"tipo":"valor_alterado","idCamada":)" + cluster().demo.at("DEMO_PROJECT_LAYER_ID") +
         R"(,"idGeometria":)" + n(geometry) + R"(,"geracao":)";
}

Session owner() {
  Cluster& c = cluster();
  return c.login(c.lb_platform, c.demo.at("DEMO_EMAIL"), c.demo.at("DEMO_PASSWORD"));
}
Session valinhos() { return cluster().login(cluster().lb_platform, "demo@valinhos.sp.gov.br", "demo-valinhos"); }

// A project and point layer of Valinhos' demo user; the layer's creation event comes to
// that user's sockets.
std::int64_t valinhos_project(const Session& s, const std::string& nome) {
  Cluster& c = cluster();
  auto p = c.call(c.lb_platform, "POST", "/projetos", s, R"({"nome":")" + nome + R"("})");
  REQUIRE_MESSAGE(p->status == 201, p->body);
  return int64_t(p->json()["id"]);
}

}  // namespace

TEST_CASE("a value written through instance A reaches the sockets on A, on B and through the balancer, and not "
          "another municipality's") {
  Cluster& c = cluster();
  Session s = owner(), other = valinhos();
  Socket on_a(c.platform_port[0], s), on_b(c.platform_port[1], s), via_lb(c.lb_platform, s);
  Socket stranger(c.lb_platform, other);
  auto [value, geometry] = area_value();

  auto put = c.call(c.platform_port[0], "PUT", "/valores/" + n(value), s, R"({"valor":321.5})");
  REQUIRE_MESSAGE(put->status == 200, put->body);
  for (Socket* ws : {&on_a, &on_b, &via_lb}) CHECK(ws->read().rfind(value_event_prefix(geometry), 0) == 0);
  // Through the balancer too, to whichever instance it picks.
  auto again = c.call(c.lb_platform, "PUT", "/valores/" + n(value), s, R"({"valor":322})");
  REQUIRE_MESSAGE(again->status == 200, again->body);
  for (Socket* ws : {&on_a, &on_b, &via_lb}) CHECK(ws->read().rfind(value_event_prefix(geometry), 0) == 0);

  // Valinhos' socket heard neither: its next message is its own layer's creation.
  std::int64_t projeto = valinhos_project(other, "Eventos");
  auto layer = c.call(c.platform_port[1], "POST", "/camadas", other,
                      R"({"idProjeto":)" + n(projeto) + R"(,"nome":"Marcos","geometria":"ponto"})");
  REQUIRE_MESSAGE(layer->status == 201, layer->body);
  const std::string heard = stranger.read();
  CHECK_MESSAGE(heard.rfind(R"({"tipo":"camada","operacao":"criar","idCamada":)" + n(int64_t(layer->json()["id"])), 0) == 0,
                heard);
}

TEST_CASE("failed logins spread over both instances are throttled at the same count as on one") {
  Cluster& c = cluster();
  auto attempt = [&](int port, const std::string& senha) {
    httplib::Client cl("127.0.0.1", port);
    httplib::Headers from = {{"X-Forwarded-For", "203.0.113.9"}};
    auto r = cl.Post("/login", from, "email=alvo%40valinhos.sp.gov.br&senha=" + senha, "application/x-www-form-urlencoded");
    REQUIRE(r);
    return r->status;
  };
  // --login-max-failures is 5: five wrong passwords, alternately on A and B, then the pair waits.
  for (int i = 0; i < 5; ++i) CHECK(attempt(c.platform_port[i % 2], "errada-" + n(i)) == 401);
  CHECK(attempt(c.platform_port[1], "alvo-certa-2026") == 429);
  CHECK(attempt(c.platform_port[0], "alvo-certa-2026") == 429);
  CHECK(attempt(c.lb_platform, "alvo-certa-2026") == 429);
}

TEST_CASE("a file uploaded through A is downloaded through B and through the balancer, byte for byte") {
  Cluster& c = cluster();
  Session s = owner();
  std::string bytes;
  for (int i = 0; i < 300000; ++i) bytes += static_cast<char>('a' + (i % 7 + i / 1000) % 26);
  httplib::Client a("127.0.0.1", c.platform_port[0]);
  httplib::MultipartFormDataItems items = {{"file", bytes, "notas.txt", "text/plain"}};
  auto up = answer(a.Post("/arquivos/projeto/" + c.demo.at("DEMO_PROJECT_ID") + "/files/upload",
                          PlatformFixture::headers(s), items),
                   "upload");
  REQUIRE_MESSAGE(up->status == 201, up->body);
  const std::string id = n(int64_t(up->json()["id"]));
  const std::string key(std::string_view(up->json()["chave"]));
  for (int port : {c.platform_port[1], c.lb_platform, c.lb_platform}) {
    auto got = c.call(port, "GET", "/arquivos/fotos?url=" + key, s);
    REQUIRE_MESSAGE(got->status == 200, got->body.substr(0, 300));
    CHECK(got->body.size() == bytes.size());
    CHECK(store::sha256_hex(got->body) == store::sha256_hex(bytes));
  }
  REQUIRE(c.call(c.lb_platform, "DELETE", "/arquivos/" + id, s)->status == 204);
}

TEST_CASE("two uploads through the balancer racing for the last free bytes: exactly one is stored") {
  Cluster& c = cluster();
  Session s = owner();
  auto plan = c.call(c.lb_platform, "GET", "/licencas/meu-plano", s);
  REQUIRE(plan->status == 200);
  const std::int64_t used = plan->json()["armazenamento"]["emUsoBytes"].get_int64().value();
  // A quota leaving between 1 and 2 MiB free; each upload takes 60% of what is free.
  const std::int64_t mb = used / (1 << 20) + 2;
  const std::int64_t free_bytes = mb * (1 << 20) - used;
  c.plat("update plataforma.licencas set max_armazenamento_mb = " + n(mb) +
         " where tenant_id = (select id from plataforma.tenants where slug = 'campinas')");
  const std::size_t each = static_cast<std::size_t>(free_bytes * 6 / 10);
  for (int round = 0; round < 3; ++round) {
    std::unique_ptr<Answer> got[2];
    auto send = [&](int k) {
      httplib::Client cl("127.0.0.1", c.lb_platform);
      cl.set_read_timeout(60, 0);
      httplib::MultipartFormDataItems items = {{"file", std::string(each, 'q'), "cota.txt", "text/plain"}};
      got[k] = answer(cl.Post("/arquivos/projeto/" + c.demo.at("DEMO_PROJECT_ID") + "/files/upload",
                              PlatformFixture::headers(s), items),
                      "upload");
    };
    std::thread first(send, 0), second(send, 1);
    first.join();
    second.join();
    CHECK((got[0]->status == 201) + (got[1]->status == 201) == 1);
    Answer& loser = got[0]->status == 201 ? *got[1] : *got[0];
    CHECK_MESSAGE(loser.status == 403, loser.body);
    CHECK(loser.body.find("cota_excedida") != std::string::npos);
    CHECK(c.plat("select count(*) from plataforma.reservas_armazenamento") == "0");
    Answer& winner = got[0]->status == 201 ? *got[0] : *got[1];
    REQUIRE(c.call(c.lb_platform, "DELETE", "/arquivos/" + n(int64_t(winner.json()["id"])), s)->status == 204);
  }
  c.plat("update plataforma.licencas set max_armazenamento_mb = 10240");
}

TEST_CASE("an import whose instance is killed with SIGKILL completes on the other, once; killed past its attempts, "
          "it ends falhou") {
  Cluster& c = cluster();
  Session s = owner();
  const std::int64_t projeto = std::stoll(c.demo.at("DEMO_PROJECT_ID"));
  constexpr int kPoints = 60000;

  std::int64_t job = import_points(c.lb_platform, s, projeto, kPoints, "sobrevivente");
  int victim = platform_with(holder_of(job));
  c.platform[victim]->kill9();
  CHECK(job_state(c.campinas_dsn, job, {"concluida", "falhou"}) == "concluida");
  CHECK(c.campinas("select tentativa from projeto.importacoes where id = " + n(job)) == "2");
  CHECK(c.campinas("select count(*) from projeto.geometrias g join projeto.camadas l on l.id = g.camada_id "
                   "where l.nome = 'sobrevivente'") == n(kPoints));
  c.platform[victim]->start();
  REQUIRE(Cluster::ready(c.platform_port[victim], "/health-check/readiness"));

  // --job-attempts 2: killed on its first instance and again on the one that took it over.
  std::int64_t doomed = import_points(c.lb_platform, s, projeto, kPoints, "condenada");
  for (int attempt = 0; attempt < 2; ++attempt) {
    int on = platform_with(holder_of(doomed));
    c.platform[on]->kill9();
    c.platform[on]->start();
    REQUIRE(Cluster::ready(c.platform_port[on], "/health-check/readiness"));
    if (attempt == 0)
      for (int i = 0; i < 400 && c.campinas("select tentativa from projeto.importacoes where id = " + n(doomed)) != "2"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  CHECK(job_state(c.campinas_dsn, doomed, {"falhou", "concluida"}) == "falhou");
  CHECK(c.campinas("select count(*) from projeto.camadas where nome = 'condenada'") == "0");
  // The job's place in the queue goes just after its final row.
  std::string queued;
  for (int i = 0; i < 200 && (queued = c.plat("select count(*) from plataforma.tarefas where " + campinas_job(doomed))) != "0"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  CHECK(queued == "0");
  c.all_up();
}

TEST_CASE("one municipality's long imports do not hold the other's: Valinhos' job runs while Campinas' second waits") {
  Cluster& c = cluster();
  Session s = owner(), other = valinhos();
  const std::int64_t projeto = std::stoll(c.demo.at("DEMO_PROJECT_ID"));
  // --job-per-tenant is 1: Campinas' second import waits for its first, on either instance.
  std::int64_t first = import_points(c.lb_platform, s, projeto, 60000, "longa1");
  std::int64_t second = import_points(c.lb_platform, s, projeto, 60000, "longa2");
  REQUIRE(job_state(c.campinas_dsn, first, {"executando"}) == "executando");
  std::int64_t small = import_points(c.lb_platform, other, valinhos_project(other, "Pequena"), 50, "pequena");
  CHECK(job_state(c.valinhos_dsn, small, {"concluida", "falhou"}, std::chrono::seconds(30)) == "concluida");
  // Valinhos finished while Campinas' second had not begun.
  CHECK(c.campinas("select estado from projeto.importacoes where id = " + n(second)) == "pendente");
  CHECK(job_state(c.campinas_dsn, first, {"concluida", "falhou"}) == "concluida");
  CHECK(job_state(c.campinas_dsn, second, {"concluida", "falhou"}) == "concluida");
}

TEST_CASE("a rolling restart of every instance while a client sends 2,000 requests through the balancers: none "
          "fails, no job is lost") {
  Cluster& c = cluster();
  Session s = owner();
  auto [value, geometry] = area_value();
  (void)geometry;
  const std::string token = c.demo.at("DEMO_TOKEN"), city = c.demo.at("DEMO_MUNICIPIO");
  std::atomic<bool> restarting{true};
  std::atomic<int> sent{0}, failed{0};
  std::mutex m;
  std::vector<std::string> failures;
  std::thread client([&] {
    httplib::Client platform("127.0.0.1", c.lb_platform), server("127.0.0.1", c.lb_server),
        gateway("127.0.0.1", c.lb_gateway);
    for (auto* cl : {&platform, &server, &gateway}) cl->set_read_timeout(30, 0);
    const httplib::Headers bearer = {{"Authorization", "Bearer " + token}};
    while (sent < 2000 || restarting) {
      const int i = sent++;
      static const char* const kinds[] = {"platform GET", "server GET", "gateway GET", "platform PUT"};
      const std::string what = kinds[i % 4];
      httplib::Result r = [&] {
        switch (i % 4) {
          case 0: return platform.Get("/minha-conta", PlatformFixture::headers(s));
          case 1: return server.Get("/" + city + "/lote/?limit=2", bearer);
          case 2: return gateway.Get("/rest/lote/?limit=2", bearer);
          default:
            return platform.Put("/valores/" + n(value), PlatformFixture::headers(s), R"({"valor":)" + n(100 + i) + "}",
                                "application/json");
        }
      }();
      if (!r || r->status != 200) {
        ++failed;
        std::lock_guard lock(m);
        failures.push_back(what + " #" + n(i) + ": " + (r ? n(r->status) + " " + r->body.substr(0, 200) : httplib::to_string(r.error())));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  // A job running across the restarts.
  std::int64_t job = import_points(c.lb_platform, s, std::stoll(c.demo.at("DEMO_PROJECT_ID")), 20000, "reinicio");
  for (auto* group : {c.server, c.platform, c.gateway}) {
    for (int i = 0; i < 2; ++i) {
      CHECK(group[i]->stop() == 0);
      group[i]->start();
      c.all_up();
    }
  }
  restarting = false;
  client.join();
  CHECK(sent >= 2000);
  CHECK_MESSAGE(failed == 0, [&] {
    std::string all;
    for (const auto& f : failures) all += f + "\n";
    return all;
  }());
  CHECK(job_state(c.campinas_dsn, job, {"concluida", "falhou"}) == "concluida");
  CHECK(c.campinas("select count(*) from projeto.geometrias g join projeto.camadas l on l.id = g.camada_id "
                   "where l.nome = 'reinicio'") == "20000");
}

TEST_CASE("PostgreSQL restarted mid-run: every socket is told to resynchronise and no later event is lost") {
  Cluster& c = cluster();
  Session s = owner();
  Socket on_a(c.platform_port[0], s, std::chrono::seconds(30)), on_b(c.platform_port[1], s, std::chrono::seconds(30)),
      via_lb(c.lb_platform, s, std::chrono::seconds(30));
  c.pg(1, "stop");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  c.pg(1, "start");
  for (Socket* ws : {&on_a, &on_b, &via_lb}) CHECK(ws->read() == R"({"tipo":"ressincronizar"})");
  // The first write after the restart (the pools reconnect: retried until it lands).
  auto [value, geometry] = area_value();
  int status = 0;
  for (int i = 0; i < 100 && status != 200; ++i) {
    status = c.call(c.lb_platform, "PUT", "/valores/" + n(value), s, R"({"valor":777})")->status;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(status == 200);
  for (Socket* ws : {&on_a, &on_b, &via_lb}) CHECK(ws->read().rfind(value_event_prefix(geometry), 0) == 0);
}
