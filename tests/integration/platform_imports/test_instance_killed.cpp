// A real instance killed mid-import: the cadastre-platform binary runs the job, is killed
// with SIGKILL (no handler runs, its transaction dies with its connections), and another
// instance takes the job over once the dead one's lease has run out (jobs.hpp, decision
// 0021). The file's features are imported exactly once.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "integration/platform_imports/imports_fixture.hpp"
#include "support/slapd.hpp"  // ldap_test::free_port

using namespace cadastre::test;

namespace {

// `count` points with a name, as GeoJSON.
std::string many_points(int count) {
  std::string g = R"({"type":"FeatureCollection","features":[)";
  for (int i = 0; i < count; ++i)
    g += std::string(i ? "," : "") + R"({"type":"Feature","properties":{"nome":"p)" + std::to_string(i) +
         R"("},"geometry":{"type":"Point","coordinates":[)" + std::to_string(-46.6 + (i % 300) * 1e-4) + "," +
         std::to_string(-23.5 + (i / 300) * 1e-4) + "]}}";
  return g + "]}";
}

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "an import running on an instance killed with SIGKILL completes on another, with "
                                  "exactly the file's features, once") {
  auto c = cast();
  constexpr int kPoints = 100000;
  write("muitos.geojson", many_points(kPoints));
  sh("ogr2ogr -f 'ESRI Shapefile' muitos.shp muitos.geojson");
  sh("zip -j muitos.zip muitos.shp muitos.shx muitos.dbf muitos.prj muitos.cpg");
  const std::string zip = read("muitos.zip");

  app.reset();  // instance A, the binary, is the only one running jobs
  const int port = ldap_test::free_port();
  pid_t a = fork();
  REQUIRE(a >= 0);
  if (a == 0) {
    const std::string p = std::to_string(port);
    execl(CADASTRE_PLATFORM_BIN, CADASTRE_PLATFORM_BIN, "--platform-dsn", stack->platform_dsn().c_str(), "--port",
          p.c_str(), "--files-dir", options.files_dir.c_str(), "--job-lease-seconds", "2", "--drain-seconds", "0",
          "--no-access-log", static_cast<char*>(nullptr));
    _exit(127);
  }
  struct Reaper {
    pid_t pid;
    ~Reaper() {
      if (pid > 0 && waitpid(pid, nullptr, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } reaper{a};
  bool up = false;
  for (int i = 0; i < 300 && !up; ++i) {
    auto probe = client(port);
    probe.set_connection_timeout(1, 0);
    auto r = probe.Get("/health-check/liveness");
    up = r && r->status == 200;
    if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(up);

  auto accepted = upload(route("shp", "morta-no-meio", c.projeto, "Sobrevivente"), zip, "muitos.zip",
                         headers(c.owner), port);
  REQUIRE_MESSAGE(accepted->status == 202, accepted->body);
  const std::int64_t id = int64_t(accepted->json()["idImportacao"]);
  // Killed once the job is reading the file on A.
  bool running = false;
  for (int i = 0; i < 600 && !running; ++i) {
    running = db("select estado || '|' || (contagens ->> 'lidas' is not null) from projeto.importacoes where id = " +
                 n(id)) == "executando|true";
    if (!running) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(running);
  REQUIRE(kill(a, SIGKILL) == 0);
  waitpid(a, nullptr, 0);
  reaper.pid = 0;
  CHECK(db("select estado from projeto.importacoes where id = " + n(id)) == "executando");
  CHECK(db("select count(*) from projeto.camadas where nome = 'Sobrevivente'") == "0");  // nothing half-written

  app = another_instance();  // instance B
  JobView done = finished(id, c.owner);
  CHECK(done.estado == "concluida");
  CHECK(done.importadas == kPoints);
  CHECK(db("select tentativa from projeto.importacoes where id = " + n(id)) == "2");
  CHECK(db("select count(*) from projeto.camadas where nome = 'Sobrevivente'") == "1");
  CHECK(db("select count(*) from projeto.geometrias g join projeto.camadas l on l.id = g.camada_id "
           "where l.nome = 'Sobrevivente'") == n(kPoints));
  CHECK(db("select count(*) from camadas.l" + db("select id from projeto.camadas where nome = 'Sobrevivente'")) ==
        n(kPoints));  // a row of values per geometry
}
