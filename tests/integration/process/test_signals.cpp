// The real cadastre-server binary: SIGTERM lets an in-flight request finish and exits 0;
// a request that outlasts --stop-grace-seconds does not hold the process.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "support/harness.hpp"
#include "support/slapd.hpp"  // ldap_test::free_port

using namespace cadastre;

namespace {
int connect_to(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(s);
    return -1;
  }
  return s;
}

void send_all(int s, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = send(s, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    REQUIRE(n > 0);
    sent += static_cast<std::size_t>(n);
  }
}

// One GET on a connection of its own; the whole answer.
std::string get_once(int port, const std::string& path) {
  int s = connect_to(port);
  if (s < 0) return {};
  send_all(s, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = recv(s, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  close(s);
  return out;
}
}  // namespace

TEST_CASE("SIGTERM drains (readiness 503 while still serving), then stops accepting, finishes the in-flight request "
          "and exits 0") {
  test::Stack stack({"alfa"});  // a migrated platform database for the binary to use
  int port = ldap_test::free_port();
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::string p = std::to_string(port);
    execl(CADASTRE_SERVER_BIN, CADASTRE_SERVER_BIN, "--platform-dsn", stack.platform_dsn().c_str(), "--port", p.c_str(),
          "--no-access-log", "--drain-seconds", "2", static_cast<char*>(nullptr));
    _exit(127);
  }
  int s = -1;
  for (int i = 0; i < 200 && s < 0; ++i) {
    s = connect_to(port);
    if (s < 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(s >= 0);
  // Half a request: headers and part of the body. The server is now mid-request.
  send_all(s, "POST /health-check/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{\"a\":");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(get_once(port, "/health-check/readiness/").rfind("HTTP/1.1 200", 0) == 0);
  REQUIRE(kill(pid, SIGTERM) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // Draining: readiness says go elsewhere, and the service still answers what it gets.
  const std::string ready = get_once(port, "/health-check/readiness/");
  CHECK(ready.rfind("HTTP/1.1 503", 0) == 0);
  CHECK(ready.find("encerrando") != std::string::npos);
  const std::string live = get_once(port, "/health-check/liveness/");
  CHECK(live.rfind("HTTP/1.1 200", 0) == 0);
  {
    // A keep-alive request is answered with Connection: close: a balancer's pooled
    // connections end here instead of idling into the stop.
    int k = connect_to(port);
    REQUIRE(k >= 0);
    send_all(k, "GET /health-check/liveness/ HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string head;
    char buf[4096];
    for (ssize_t n; head.find("\r\n\r\n") == std::string::npos && (n = recv(k, buf, sizeof buf, 0)) > 0;)
      head.append(buf, static_cast<std::size_t>(n));
    close(k);
    CHECK(head.rfind("HTTP/1.1 200", 0) == 0);
    CHECK_MESSAGE(head.find("Connection: close") != std::string::npos, head);
  }
  send_all(s, "1234}");
  std::string response;
  char buf[4096];
  for (ssize_t n; (n = recv(s, buf, sizeof buf, 0)) > 0;) {
    response.append(buf, static_cast<std::size_t>(n));
    if (response.find("\r\n\r\n") != std::string::npos && response.find("}") != std::string::npos) break;
  }
  close(s);
  CHECK(response.rfind("HTTP/1.1 405", 0) == 0);  // answered, in the error shape
  CHECK(response.find("metodo_nao_permitido") != std::string::npos);

  int status = 0;
  for (int i = 0; i < 160 && waitpid(pid, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (waitpid(pid, &status, WNOHANG) == 0 && !WIFEXITED(status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL("server did not exit within 8 s of SIGTERM (2 s of them draining)");
  }
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(connect_to(port) < 0);  // no longer accepting
}

TEST_CASE("a request still arriving when the stop grace ends does not hold the process: it exits 1 after "
          "--stop-grace-seconds") {
  test::Stack stack({"alfa"});
  int port = ldap_test::free_port();
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::string p = std::to_string(port);
    execl(CADASTRE_SERVER_BIN, CADASTRE_SERVER_BIN, "--platform-dsn", stack.platform_dsn().c_str(), "--port", p.c_str(),
          "--no-access-log", "--drain-seconds", "0", "--stop-grace-seconds", "1", static_cast<char*>(nullptr));
    _exit(127);
  }
  int s = -1;
  for (int i = 0; i < 200 && s < 0; ++i) {
    s = connect_to(port);
    if (s < 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(s >= 0);
  // A body of 1 MB declared, a few bytes sent: within the body timeout's grace (10 s) the
  // connection is legitimately in flight and would keep the server serving.
  send_all(s, "POST /health-check/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(kill(pid, SIGTERM) == 0);
  int status = 0;
  for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (waitpid(pid, &status, WNOHANG) == 0 && !WIFEXITED(status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL("server still running 5 s after SIGTERM with a 1 s stop grace");
  }
  close(s);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(took < 4.0);
}
