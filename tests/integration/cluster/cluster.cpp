#include "integration/cluster/cluster.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/slapd.hpp"  // ldap_test::free_port

namespace cadastre::test {

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shell_quoted(const std::string& v) { return "'" + v + "'"; }

// Runs a shell command line; its stdout, or the test fails with its log.
std::string shell(const std::string& line, const std::string& log) {
  const std::string out = log + ".out";
  int rc = std::system((line + " >" + out + " 2>>" + log).c_str());
  if (rc != 0) FAIL("failed (" << rc << "): " << line << "\n" << slurp(log));
  std::string text = slurp(out);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

Process::Process(std::string name, std::vector<std::string> argv, std::string log)
    : name_(std::move(name)), argv_(std::move(argv)), log_(std::move(log)) {}

Process::~Process() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

void Process::start() {
  REQUIRE(pid_ == 0);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(127);
    int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    std::vector<char*> args;
    for (auto& a : argv_) args.push_back(a.data());
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    _exit(127);
  }
  pid_ = pid;
}

void Process::terminate() {
  if (pid_ > 0) ::kill(pid_, SIGTERM);
}

int Process::stop(std::chrono::seconds within) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  const auto until = std::chrono::steady_clock::now() + within;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void Process::kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = 0;
}

bool Process::running() { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

std::string Cluster::run_admin(const std::vector<std::string>& args) const {
  std::string line = "CADASTRE_PLATFORM_DSN=" + shell_quoted(platform_dsn) + " " + CADASTRE_ADMIN_BIN;
  for (const auto& a : args) line += " " + shell_quoted(a);
  return shell(line, root + "/admin.log");
}

void Cluster::pg(int which, const std::string& command) const {
  const char* ctl = std::getenv("CADASTRE_TEST_PG_CTL");
  REQUIRE_MESSAGE(ctl, "CADASTRE_TEST_PG_CTL is not set: run the tests through ./scripts/test");
  shell("CADASTRE_PG_DIR=" + root + "/pg" + std::to_string(which) + " " + ctl + " " + command, root + "/pg.log");
}

Cluster::Cluster() {
  char folder[] = "/tmp/cadastre-cluster.XXXXXX";
  REQUIRE(::mkdtemp(folder));
  root = folder;
  try {
    start();
  } catch (...) {
    stop_databases();
    throw;
  }
}

// No doctest macro here: this also runs from the static destructor, after doctest's end.
void Cluster::stop_databases() const {
  const char* ctl = std::getenv("CADASTRE_TEST_PG_CTL");
  if (!ctl) return;
  for (int which : {1, 2})
    std::system(("CADASTRE_PG_DIR=" + root + "/pg" + std::to_string(which) + " " + ctl + " stop >/dev/null 2>&1").c_str());
}

void Cluster::start() {
  ::chmod(root.c_str(), 0755);  // the clusters run as an unprivileged user under root
  const char* ctl = std::getenv("CADASTRE_TEST_PG_CTL");
  REQUIRE_MESSAGE(ctl, "CADASTRE_TEST_PG_CTL is not set: run the tests through ./scripts/test");
  pg(1, "start");
  pg(2, "start");
  auto dsn = [&](int which, const std::string& db) {
    return shell("CADASTRE_PG_DIR=" + root + "/pg" + std::to_string(which) + " " + ctl + " dsn " + db, root + "/pg.log");
  };
  platform_dsn = dsn(1, "cadastre_platform");

  // Two municipalities, Valinhos on the second cluster; their demo users; a small platform
  // project and a few lots in Campinas. (Not `demo setup`: its IBGE tables, photos and
  // reports would take minutes this suite does not need.)
  const auto t0 = std::chrono::steady_clock::now();
  run_admin({"migrate"});
  run_admin({"tenant", "add", "campinas", "--nome", "Campinas", "--uf", "SP"});
  shell("CADASTRE_PG_DIR=" + root + "/pg2 " + ctl + " psql -d postgres -qc 'create database cad_valinhos'",
        root + "/pg.log");
  valinhos_dsn = dsn(2, "cad_valinhos");
  run_admin({"tenant", "add", "valinhos", "--nome", "Valinhos", "--uf", "SP", "--dsn", valinhos_dsn});
  campinas_dsn = dsn(1, "cad_campinas");
  demo["DEMO_EMAIL"] = "demo@campinas.sp.gov.br";
  demo["DEMO_PASSWORD"] = "demo-campinas";
  demo["DEMO_MUNICIPIO"] = "campinas";
  run_admin({"user", "add", "--tenant", "campinas", "--email", demo["DEMO_EMAIL"], "--nome", "Equipe", "--password",
             demo["DEMO_PASSWORD"], "--admin", "--perm", "*:rw"});
  run_admin({"user", "add", "--tenant", "valinhos", "--email", "demo@valinhos.sp.gov.br", "--nome", "Equipe de Valinhos",
             "--password", "demo-valinhos", "--perm", "*:rw"});
  run_admin({"demo", "load", "--tenant", "campinas", "--lots", "40"});
  std::istringstream lines(run_admin({"demo", "project", "--tenant", "campinas", "--email", demo["DEMO_EMAIL"],
                                      "--geometries", "200"}));
  for (std::string l; std::getline(lines, l);) {
    auto eq = l.find('=');
    if (eq == std::string::npos || l.size() < eq + 3) continue;
    demo[l.substr(0, eq)] = l.substr(eq + 2, l.size() - eq - 3);  // KEY='value'
  }
  REQUIRE(demo.count("DEMO_PROJECT_LAYER_ID"));
  demo["DEMO_TOKEN"] = run_admin({"token", "issue", "--email", demo["DEMO_EMAIL"]});
  MESSAGE("databases ready in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s");
  // Licenses, as scripts/demo gives them.
  plat("insert into plataforma.licencas (tenant_id, plano, status, fim, max_usuarios, max_armazenamento_mb) "
       "select id, 'demonstracao', 'ativa', current_date + 365, 50, 10240 from plataforma.tenants");
  // An account for the throttle test, and one of Campinas that sees no project.
  run_admin({"user", "add", "--tenant", "valinhos", "--email", "alvo@valinhos.sp.gov.br", "--nome", "Alvo",
             "--password", "alvo-certa-2026"});

  for (int* p : {&lb_server, &lb_platform, &lb_gateway, &server_port[0], &server_port[1], &platform_port[0],
                 &platform_port[1], &gateway_port[0], &gateway_port[1]})
    *p = ldap_test::free_port();
  const std::string lb = "http://127.0.0.1:";
  const std::string logs = root + "/";
  const std::string files = root + "/arquivos", media = root + "/midia";
  ::setenv("CADASTRE_PLATFORM_DSN", platform_dsn.c_str(), 1);  // read by every service (and the gateway)
  for (int i = 0; i < 2; ++i) {
    const std::string ab = i ? "b" : "a";
    server[i] = std::make_unique<Process>(
        "server-" + ab,
        std::vector<std::string>{CADASTRE_SERVER_BIN, "--port", std::to_string(server_port[i]), "--media-root", media,
                                 "--drain-seconds", "3", "--trusted-proxies", "127.0.0.1", "--no-access-log"},
        logs + "server-" + ab + ".log");
    platform[i] = std::make_unique<Process>(
        "platform-" + ab,
        std::vector<std::string>{CADASTRE_PLATFORM_BIN, "--port", std::to_string(platform_port[i]), "--public-url",
                                 lb + std::to_string(lb_platform), "--files-dir", files, "--service",
                                 "app-backend=" + lb + std::to_string(lb_server), "--job-lease-seconds", "2",
                                 "--job-attempts", "2", "--drain-seconds", "3", "--trusted-proxies", "127.0.0.1",
                                 "--no-access-log"},
        logs + "platform-" + ab + ".log");
  }
  shell(std::string(CADASTRE_GATEWAY_BIN) + " --print-demo-config " + lb + std::to_string(lb_server) +
            " --platform-url " + lb + std::to_string(lb_platform) + " > " + root + "/gateway.json; true",
        root + "/gateway-config.log");
  for (int i = 0; i < 2; ++i) {
    const std::string ab = i ? "b" : "a";
    gateway[i] = std::make_unique<Process>(
        "gateway-" + ab,
        std::vector<std::string>{CADASTRE_GATEWAY_BIN, "--config", root + "/gateway.json", "--port",
                                 std::to_string(gateway_port[i]), "--drain-seconds", "3", "--trusted-proxies",
                                 "127.0.0.1", "--no-access-log"},
        logs + "gateway-" + ab + ".log");
  }
  for (int i = 0; i < 2; ++i) server[i]->start();
  for (int i = 0; i < 2; ++i) REQUIRE_MESSAGE(ready(server_port[i], "/health-check/readiness/"), slurp(logs + "server-a.log"));
  for (int i = 0; i < 2; ++i) platform[i]->start();
  for (int i = 0; i < 2; ++i) REQUIRE_MESSAGE(ready(platform_port[i], "/health-check/readiness"), slurp(logs + "platform-a.log"));
  for (int i = 0; i < 2; ++i) gateway[i]->start();
  for (int i = 0; i < 2; ++i) REQUIRE_MESSAGE(ready(gateway_port[i], "/health-check/liveness"), slurp(logs + "gateway-a.log"));

  auto at = [](int port) { return "127.0.0.1:" + std::to_string(port); };
  const std::map<std::string, std::string> lb_env = {
      {"CADASTRE_LB_HOST", "127.0.0.1"},
      {"CADASTRE_LB_SERVER_PORT", std::to_string(lb_server)},
      {"CADASTRE_LB_PLATFORM_PORT", std::to_string(lb_platform)},
      {"CADASTRE_LB_GATEWAY_PORT", std::to_string(lb_gateway)},
      {"CADASTRE_SERVER_A", at(server_port[0])},     {"CADASTRE_SERVER_B", at(server_port[1])},
      {"CADASTRE_PLATFORM_A", at(platform_port[0])}, {"CADASTRE_PLATFORM_B", at(platform_port[1])},
      {"CADASTRE_GATEWAY_A", at(gateway_port[0])},   {"CADASTRE_GATEWAY_B", at(gateway_port[1])}};
  for (const auto& [k, v] : lb_env) ::setenv(k.c_str(), v.c_str(), 1);
  haproxy = std::make_unique<Process>(
      "haproxy", std::vector<std::string>{"/usr/sbin/haproxy", "-f", CADASTRE_SOURCE_DIR "/deploy/haproxy.cfg", "-db"},
      logs + "haproxy.log");
  haproxy->start();
  REQUIRE_MESSAGE(ready(lb_server, "/health-check/readiness/"), slurp(logs + "haproxy.log"));
  REQUIRE(ready(lb_platform, "/health-check/readiness"));
  REQUIRE(ready(lb_gateway, "/health-check/liveness"));
}

Cluster::~Cluster() {
  haproxy.reset();
  for (auto* group : {gateway, platform, server})
    for (int i = 0; i < 2; ++i)
      if (group[i]) group[i]->stop(std::chrono::seconds(10));
  stop_databases();
  std::system(("rm -rf " + shell_quoted(root)).c_str());
}

bool Cluster::ready(int port, const std::string& path, std::chrono::seconds within) {
  const auto until = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < until) {
    httplib::Client c("127.0.0.1", port);
    c.set_connection_timeout(1, 0);
    c.set_read_timeout(2, 0);
    auto r = c.Get(path);
    if (r && r->status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void Cluster::all_up() const {
  // HAProxy checks every second and needs one good check (rise 1): two intervals suffice.
  for (int i = 0; i < 2; ++i) {
    REQUIRE(ready(server_port[i], "/health-check/readiness/"));
    REQUIRE(ready(platform_port[i], "/health-check/readiness"));
    REQUIRE(ready(gateway_port[i], "/health-check/readiness"));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2200));
}

Session Cluster::login(int port, const std::string& email, const std::string& password) const {
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(30, 0);
  auto a = answer(c.Post("/login", "email=" + http::percent_encode(email) + "&senha=" + http::percent_encode(password),
                         "application/x-www-form-urlencoded"),
                  "POST /login");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  return PlatformFixture::session_of(*a);
}

std::unique_ptr<Answer> Cluster::call(int port, const std::string& method, const std::string& path, const Session& s,
                                      const std::string& body, const std::string& type) const {
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(60, 0);
  auto h = PlatformFixture::headers(s);
  httplib::Result r = method == "GET"    ? c.Get(path, h)
                       : method == "POST" ? c.Post(path, h, body, type)
                       : method == "PUT"  ? c.Put(path, h, body, type)
                                          : c.Delete(path, h, body, type);
  return answer(r, method + " " + path);
}

Cluster& cluster() {
  // Started once: a cluster that failed to start fails every later case at once, rather
  // than each trying again.
  static std::unique_ptr<Cluster> c;
  static bool tried = false;
  if (!c) {
    REQUIRE_MESSAGE(!tried, "the cluster did not start: see the first failure");
    tried = true;
    c = std::make_unique<Cluster>();
  }
  return *c;
}

}  // namespace cadastre::test
