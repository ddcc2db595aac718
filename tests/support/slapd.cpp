#include "support/slapd.hpp"

#include "support/child_process.hpp"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace ldap_test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  REQUIRE(out.good());
}

// Starts `argv` with stdout and stderr appended to `log`; returns its pid.
pid_t spawn(const std::vector<std::string>& argv, const std::string& log) {
  // Everything the child needs is prepared before fork: the test process has threads, so
  // the child may only make async-signal-safe calls until execv.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

bool accepts_connections(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

int bound_socket(int& port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  port = ntohs(addr.sin_port);
  return fd;
}

}  // namespace

int free_port() {
  int port = 0;
  close(bound_socket(port));
  return port;
}

Slapd::Slapd(const std::string& ldif) {
  char tmpl[] = "/tmp/cadastre-slapd-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  dir_ = tmpl;
  std::filesystem::create_directory(dir_ + "/db");
  // Users may read the directory once bound; passwords only serve binds.
  write_file(dir_ + "/slapd.conf",
             "include /etc/ldap/schema/core.schema\n"
             "include /etc/ldap/schema/cosine.schema\n"
             "include /etc/ldap/schema/inetorgperson.schema\n"
             "include /etc/ldap/schema/nis.schema\n"
             "modulepath /usr/lib/ldap\n"
             "moduleload back_mdb\n"
             "pidfile " + dir_ + "/slapd.pid\n"
             "access to attrs=userPassword by anonymous auth by * none\n"
             "access to * by users read by * none\n"
             "database mdb\n"
             "maxsize 10485760\n"
             "suffix \"" + std::string(kSuffix) + "\"\n"
             "rootdn \"cn=admin," + std::string(kSuffix) + "\"\n"
             "rootpw segredo-do-admin\n"
             "directory " + dir_ + "/db\n");
  write_file(dir_ + "/data.ldif", "dn: " + std::string(kSuffix) +
                                      "\nobjectClass: dcObject\nobjectClass: organization\no: Cadastre\ndc: cadastre\n\n" +
                                      ldif);
  const std::string log = dir_ + "/slapd.log";
  pid_t loader = spawn({"/usr/sbin/slapadd", "-f", dir_ + "/slapd.conf", "-l", dir_ + "/data.ldif"}, log);
  int status = 0;
  waitpid(loader, &status, 0);
  REQUIRE_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), "slapadd falhou: " << read_file(log));

  port_ = free_port();
  // -d 0 keeps slapd in the foreground (a child we can kill) without debug output.
  pid_ = spawn({"/usr/sbin/slapd", "-f", dir_ + "/slapd.conf", "-h", uri() + "/", "-d", "0"}, log);
  for (int i = 0; i < 500 && !accepts_connections(port_); ++i) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      FAIL("slapd terminou ao iniciar: " << read_file(log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE_MESSAGE(accepts_connections(port_), "slapd não respondeu: " << read_file(log));
}

Slapd::~Slapd() {
  cadastre::test::stop_child(pid_);
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

SilentListener::SilentListener() {
  fd_ = bound_socket(port_);
  // The kernel completes handshakes into the backlog; nothing ever reads or answers.
  REQUIRE(listen(fd_, 16) == 0);
}

SilentListener::~SilentListener() { close(fd_); }

}  // namespace ldap_test
