// The cluster suite's stack, as `scripts/demo --cluster` runs it: two PostgreSQL clusters
// of its own (the platform database and Campinas on the first, Valinhos on the second,
// loaded by `cadastre-admin demo setup`), two instances each of cadastre-server,
// cadastre-platform and cadastre-gateway (the real binaries), and HAProxy in front of them
// with deploy/haproxy.cfg. Started once per test process (cluster()) and stopped at its
// end; the tests may stop, kill and restart any of its processes.
//
// Private clusters, not the suite's: a test restarts PostgreSQL, which would break the
// suites running beside this one.
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

/// A child process running a binary, its output in a log file. Started from the test's main
/// thread: it is killed when that thread's process dies (PR_SET_PDEATHSIG).
class Process {
 public:
  Process(std::string name, std::vector<std::string> argv, std::string log);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  void start();
  /// SIGTERM, then waits for the exit (SIGKILL past `within`); the exit status.
  int stop(std::chrono::seconds within = std::chrono::seconds(30));
  /// SIGTERM without waiting (a rolling restart's step; wait with stop()).
  void terminate();
  void kill9();
  bool running();
  pid_t pid() const { return pid_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::vector<std::string> argv_;
  std::string log_;
  pid_t pid_ = 0;
};

class Cluster {
 public:
  Cluster();
  ~Cluster();

  /// Front doors (HAProxy).
  int lb_server = 0, lb_platform = 0, lb_gateway = 0;
  /// Ports of the instances, [0] = A, [1] = B.
  int server_port[2] = {}, platform_port[2] = {}, gateway_port[2] = {};
  std::unique_ptr<Process> server[2], platform[2], gateway[2], haproxy;

  /// What `cadastre-admin demo setup` printed (DEMO_EMAIL, DEMO_PROJECT_LAYER_ID...).
  std::map<std::string, std::string> demo;
  std::string platform_dsn, campinas_dsn, valinhos_dsn;
  std::string root;  ///< the suite's folder: clusters, files, logs

  /// Runs `scripts/pg <command>` on cluster 1 or 2.
  void pg(int which, const std::string& command) const;
  /// Waits until the instance on `port` answers its readiness probe `path` with 200.
  static bool ready(int port, const std::string& path, std::chrono::seconds within = std::chrono::seconds(30));
  /// Waits until HAProxy's checks see every instance up again (after a restart).
  void all_up() const;

  /// POST /login through `port`; the session (fails the test unless 200).
  Session login(int port, const std::string& email, const std::string& password) const;
  /// A request with a session's headers through `port`.
  std::unique_ptr<Answer> call(int port, const std::string& method, const std::string& path, const Session& s,
                               const std::string& body = "", const std::string& type = "application/json") const;
  std::string campinas(const std::string& sql) const { return query_value(campinas_dsn, sql); }
  std::string plat(const std::string& sql) const { return query_value(platform_dsn, sql); }

 private:
  void start();
  void stop_databases() const;
  std::string run_admin(const std::vector<std::string>& args) const;
};

/// The process's cluster, started on first use.
Cluster& cluster();

}  // namespace cadastre::test
