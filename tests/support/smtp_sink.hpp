// A private SMTP server for tests: tests/support/smtp_sink.py (Debian's python3-aiosmtpd) on a
// free loopback port, keeping every message it receives in a temporary directory. Point a
// mail::Mailer at url(), then read what arrived with wait_for() and messages(). The server is
// stopped and its files removed by the destructor.
//
// The messages are decoded by Python's email package, not by this project's code, so a test
// that reads a subject or a link back checks the encoder against an independent decoder.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/child_process.hpp"

namespace cadastre::test {

/// One message as the sink received it.
struct ReceivedMail {
  std::string to;       ///< envelope recipients (RCPT TO), comma separated
  std::string from;     ///< From header, encoded-words decoded
  std::string subject;  ///< Subject header, encoded-words decoded
  std::string body;     ///< the text/plain part, transfer encoding undone, LF line ends
  std::string raw;      ///< the whole message as received, preceded by an X-Envelope-To header
};

class SmtpSink {
 public:
  /// Starts the server and waits (up to 10 s) until it listens.
  SmtpSink() {
    const std::string script = script_path().string();
    std::string tmpl = "/tmp/cadastre-smtp-XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    dir_ = tmpl;
    const std::string dir = dir_.string(), log = (dir_ / "sink.log").string();
    int out[2];
    REQUIRE(pipe2(out, O_CLOEXEC) == 0);
    // Everything the child needs is prepared before fork: the test process has threads, so
    // the child may only make async-signal-safe calls until execv.
    const char* argv[] = {"/usr/bin/python3", script.c_str(), "0", dir.c_str(), nullptr};
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      const int err = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
      if (err >= 0) dup2(err, STDERR_FILENO);
      // The sink must not hold copies of the test's sockets (a server's listening port).
      close_range(3, ~0U, 0);
      execv(argv[0], const_cast<char* const*>(argv));
      _exit(127);
    }
    close(out[1]);
    const std::string line = read_line(out[0], std::chrono::seconds(10));
    close(out[0]);
    if (pid_ < 0 || line.empty()) {
      const std::string why = read_text(dir_ / "sink.log");
      stop();
      FAIL("smtp_sink.py não começou a escutar: " << why);
    }
    port_ = std::stoi(line);
  }

  ~SmtpSink() { stop(); }
  SmtpSink(const SmtpSink&) = delete;
  SmtpSink& operator=(const SmtpSink&) = delete;

  /// "smtp://127.0.0.1:PORT", for mail::SmtpOptions::url.
  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }
  int port() const noexcept { return port_; }

  /// The messages received since the start or the last clear(), oldest first.
  std::vector<ReceivedMail> messages() const {
    std::vector<ReceivedMail> out;
    for (std::size_t n = cleared_ + 1; std::filesystem::exists(file(n, ".eml")); ++n) {
      ReceivedMail mail;
      mail.raw = read_text(file(n, ".eml"));
      std::istringstream decoded(read_text(file(n, ".decoded")));
      std::string line;
      while (std::getline(decoded, line) && !line.empty()) {
        const std::size_t colon = line.find(": ");
        const std::string name = line.substr(0, colon),
                          value = colon == std::string::npos ? "" : line.substr(colon + 2);
        if (name == "to") mail.to = value;
        if (name == "from") mail.from = value;
        if (name == "subject") mail.subject = value;
      }
      mail.body.assign(std::istreambuf_iterator<char>(decoded), std::istreambuf_iterator<char>());
      out.push_back(std::move(mail));
    }
    return out;
  }

  /// Waits until at least `n` messages arrived since the last clear(); false on timeout.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (received() < n) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }

  /// Forgets the messages received so far: messages() and wait_for() count only later ones.
  /// (Files stay on disk until the destructor, so a message being written is never torn.)
  void clear() { cleared_ += received(); }

 private:
  // The script sits next to this header. __FILE__ is relative when ccache's base_dir rewrote
  // the compiler's paths: relative, then, to the build directory the compiler ran in, which is
  // this executable's directory or one of its ancestors.
  static std::filesystem::path script_path() {
    const std::filesystem::path here =
        std::filesystem::path(__FILE__).parent_path() / "smtp_sink.py";
    if (here.is_absolute()) return here;
    for (auto dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();;
         dir = dir.parent_path()) {
      if (std::filesystem::exists(dir / here)) return (dir / here).lexically_normal();
      if (dir == dir.root_path()) break;
    }
    FAIL("smtp_sink.py não encontrado a partir de " << here);
    return {};
  }

  static std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // The first line written to `fd`, or "" when it closes or `timeout` passes first.
  static std::string read_line(int fd, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string line;
    while (line.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd p{fd, POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return "";
      char buf[64];
      const ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) return "";
      line.append(buf, static_cast<std::size_t>(n));
    }
    return line.substr(0, line.find('\n'));
  }

  std::filesystem::path file(std::size_t n, const char* ext) const {
    return dir_ / (std::to_string(n) + ext);
  }

  std::size_t received() const {
    std::size_t n = cleared_;
    while (std::filesystem::exists(file(n + 1, ".eml"))) ++n;
    return n - cleared_;
  }

  void stop() {
    stop_child(pid_);
    pid_ = -1;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::size_t cleared_ = 0;
};

}  // namespace cadastre::test
